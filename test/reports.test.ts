// Reports from the maintained aggregates, checked against the rows; exports
// read by the real tools (hledger, bean-check, bean-query) with the same
// totals per category as the app's profit and loss, to the cent.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import { beancountAccountNames, beancountPart } from '../src/main/exports/beancount';
import { hledgerAccountNames } from '../src/main/exports/hledger';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { tempDir, tempLedger } from './support/env';
import { deskAs } from './support/desk';
import { fillDemo } from '../src/main/demo';
import { steadyRate } from './support/rates';
import { accountantTool } from './support/env';

const tool = accountantTool;

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const sql = async <T = any>(query: string, ...params: unknown[]) => (await ctx.ledger.stmt(query).all(...params)) as T[];

/** Each category's sum over the lines themselves in the base currency (signed as money: a line balances its row), in minor units; '' for the suspense lines. */
async function rowSums(from: string, to: string): Promise<Map<string, number>> {
  return new Map(
    (
      await sql<{ category: string | null; minor: number }>(
        `SELECT c.name AS category, -sum(l.base_minor) AS minor FROM lines l LEFT JOIN categories c ON c.seq = l.category_seq
       WHERE l.org_seq = ? AND l.date BETWEEN ? AND ? AND l.kind <> 'transfer' GROUP BY c.name`,
        org.seq,
        from,
        to,
      )
    ).map((r) => [r.category ?? '', r.minor]),
  );
}

async function expectPlMatchesRows(pl: L.ProfitAndLoss) {
  const sums = await rowSums(pl.from, pl.to);
  const categories = pl.lines.filter((l) => !l.direct);
  for (const l of categories) expect([l.name, Math.round(l.amount * 100)]).toEqual([l.name, sums.get(l.name) ?? 0]);
  expect(Math.round(pl.uncategorized.amount * 100)).toBe(sums.get('') ?? 0);
  // A parent's figures are its subtotal: its own rows (its "(other)" line) and its children's.
  for (const l of categories.filter((x) => x.parent)) {
    const children = categories.filter((c) => c.parentCode === l.code).reduce((s, c) => s + c.total, 0);
    expect(l.total).toBeCloseTo(l.amount + children, 6);
    expect(pl.lines.find((d) => d.direct && d.code === l.code)?.total ?? 0).toBeCloseTo(l.amount, 6);
  }
  // Sections add up to net, in total and in every month.
  expect(pl.sections.reduce((sum, x) => sum + x.total, 0)).toBeCloseTo(pl.net, 6);
  for (const m of pl.months ?? []) expect(pl.sections.reduce((sum, x) => sum + (x.months?.[m] ?? 0), 0)).toBeCloseTo(pl.netMonths![m], 6);
}

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme; "Books" & Co' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await fillDemo(ledger, org.seq, org.slug, 3000, 'USD');
  // A transfer category, awkward text, and a hand-entered row in a second currency.
  await desk('addCategory', { code: '1200', name: 'Transfers: savings', type: 'asset' });
  const [row] = (await L.listTransactions(ledger, org.seq, { status: 'uncategorized', limit: 1, offset: 0 })).data;
  await desk('categorizeTransactions', { ids: [row.id], categoryCode: '1200' });
  await desk('createAccount', { name: 'Euro cash', type: 'cash', currency: 'EUR', openingBalance: 50, openingDate: '2025-01-01' });
  await steadyRate(ledger, org.seq, 'EUR', '1.1');
  await desk('addTransaction', { account: 'Euro cash', date: '2025-03-03', amount: -12.5, description: 'Café "Zürich"; tips & more', categoryCode: '5000' });
  await desk('addTransaction', { account: 'Operating account', date: '2025-03-04', amount: -7, description: '=SUM(A1:A9)', categoryCode: '5300' });
});

describe('profit and loss and balances', () => {
  it('answer from the aggregates exactly what the rows add up to, by month too', async () => {
    const pl = await desk<L.ProfitAndLoss>('profitAndLoss', { from: '2025-01-01', to: '2025-12-31', by: 'month' });
    expect(pl).toMatchObject({ currency: 'USD', from: '2025-01-01', to: '2025-12-31' });
    expect(pl.months).toHaveLength(12);
    await expectPlMatchesRows(pl);
    expect(pl.net).toBeCloseTo(pl.revenue + pl.expenses, 6);
    // Each category under its parent, a parent's own rows on its "(other)" line.
    expect(pl.lines.map((l) => [l.code, l.depth, l.section, l.direct ?? false])).toEqual([
      ['4000', 0, 'revenue', false],
      ['4000', 1, 'revenue', true],
      ['4010', 1, 'revenue', false],
      ['5000', 0, 'expenses', false],
      ['5000', 1, 'expenses', true],
      ['5100', 1, 'expenses', false],
      ['5200', 1, 'expenses', false],
      ['5300', 1, 'expenses', false],
    ]);
    // Every column carries the line's figure: a parent's months are its subtotal, never zero beside a non-zero total.
    for (const l of pl.lines) expect(Object.values(l.months!).reduce((a, b) => a + b, 0)).toBeCloseTo(l.total, 6);
    const defaults = await desk<L.ProfitAndLoss>('profitAndLoss');
    expect([defaults.from, defaults.to]).toEqual(['2025-07-01', '2026-06-30']);
  });

  it('keeps the aggregates through categorizing, renaming, deleting and a bulk import and its undo', async () => {
    const before = await desk<L.ProfitAndLoss>('profitAndLoss', { from: '2023-01-01', to: '2026-12-31' });
    const rows = (await L.listTransactions(ctx.ledger, org.seq, { status: 'uncategorized', limit: 40, offset: 0 })).data;
    await desk('categorizeTransactions', { ids: rows.map((r) => r.id), categoryCode: '5100' });
    await desk('renameCategory', { code: '5100', name: 'Software' });
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 2500; i++) lines.push(`2024-0${1 + (i % 9)}-1${i % 10},Bulk row ${i},-${i % 90}.25`);
    const { writeFileSync } = await import('node:fs');
    const file = join(tempDir(), 'bulk.csv');
    writeFileSync(file, lines.join('\n'));
    const imported = await desk<L.ImportResult>('importStatement', { file, account: 'Operating account' });
    await expectPlMatchesRows(await desk('profitAndLoss', { from: '2023-01-01', to: '2026-12-31' }));
    await expectTotalsMatchRows(ctx.ledger);
    await desk('undoImport', { batchId: imported.batchId });
    await expectTotalsMatchRows(ctx.ledger);
    const after = await desk<L.ProfitAndLoss>('profitAndLoss', { from: '2023-01-01', to: '2026-12-31' });
    await expectPlMatchesRows(after);
    expect(after.net + after.uncategorized.amount).toBeCloseTo(before.net + before.uncategorized.amount, 6);
    expect(after.lines.find((l) => l.code === '5100')!.name).toBe('Software');
  });

  it('adds whole months and the days at either end of any period alike', async () => {
    const periods = [
      ['2025-01-15', '2025-03-10'],
      ['2025-02-03', '2025-02-20'],
      ['2025-02-01', '2025-02-28'],
      ['2024-12-31', '2025-01-01'],
      ['2024-11-01', '2025-04-30'],
      ['2024-11-30', '2025-05-01'],
    ];
    for (const [from, to] of periods) await expectPlMatchesRows(await desk('profitAndLoss', { from, to }));
    expect(L.slicesOf('2025-01-15', '2025-03-10')).toEqual({
      months: ['2025-02', '2025-02'],
      days: [
        ['2025-01-15', '2025-01-31'],
        ['2025-03-01', '2025-03-10'],
      ],
    });
    expect(L.slicesOf('2024-02-01', '2024-02-29')).toEqual({ months: ['2024-02', '2024-02'], days: [] });
    expect(L.slicesOf('2024-02-02', '2024-03-01')).toEqual({
      months: null,
      days: [
        ['2024-02-02', '2024-02-29'],
        ['2024-03-01', '2024-03-01'],
      ],
    });
  });

  it('leaves transfers out, and gives every account its balance at a date, reconciled and not', async () => {
    const pl = await desk<L.ProfitAndLoss>('profitAndLoss', { from: '2023-01-01', to: '2026-12-31' });
    expect(pl.transfers).not.toBe(0);
    expect(pl.lines.some((l) => l.code === '1200')).toBe(false);
    const euro = (await desk<{ accounts: L.AccountBalance[] }>('balancesReport', { date: '2025-12-31' })).accounts.find((a) => a.name === 'Euro cash')!;
    expect([euro.balance, euro.cleared]).toEqual([37.5, 50]); // the café row is by hand: no statement has shown it
    for (const date of ['2025-06-30', '2025-03-03', '2025-03-01', '2024-02-29']) {
      const report = await desk<{ date: string; accounts: L.AccountBalance[] }>('balancesReport', { date });
      for (const a of report.accounts) {
        const seq = (await L.requireAccount(ctx.ledger, org.seq, a.id)).seq;
        const [r] = await sql<{ all: number; rec: number; shown: number }>(
          `SELECT coalesce(sum(amount_minor), 0) AS "all", coalesce(sum(CASE WHEN status = 'reconciled' THEN amount_minor END), 0) AS rec,
             coalesce(sum(CASE WHEN status = 'reconciled' OR origin IN ('feed', 'import') OR import_batch_seq IS NOT NULL THEN amount_minor END), 0) AS shown
           FROM transactions WHERE account_seq = ? AND date <= ?`,
          seq,
          date,
        );
        const opening = (await L.accountBySeq(ctx.ledger, seq)).opening_balance_minor;
        const cents = (n: number) => Math.round(n * 100);
        expect([date, a.name, cents(a.balance), cents(a.cleared), cents(a.reconciled)]).toEqual([date, a.name, opening + r.all, opening + r.shown, opening + r.rec]);
      }
    }
  });
});

describe('exports', () => {
  const period = { from: '2025-01-01', to: '2025-12-31' };
  let pl: L.ProfitAndLoss;
  beforeAll(async () => {
    // The exports carry another currency's lines at their booked base amounts: the P&L in the base currency.
    pl = await desk('profitAndLoss', period);
  });

  it('write an hledger journal that hledger checks, with its totals per category equal to the profit and loss', async () => {
    const out = join(tempDir(), 'books.journal');
    expect(await desk('exportBooks', { format: 'hledger', ...period, out })).toMatchObject({ file: out, rows: expect.any(Number) });
    execFileSync(tool('hledger'), ['-f', out, 'check']);
    const csv = execFileSync(tool('hledger'), ['-f', out, 'bal', '--flat', '-O', 'csv', '-b', period.from, '-e', '2026-01-01', 'income', 'expenses', 'equity:suspense'], {
      encoding: 'utf8',
    });
    // In USD: the EUR cash row's expense is written at its base amount (its money at cost).
    const usd = (amount: string) => amount.split(', ').find((a) => a.endsWith(' USD'));
    const totals = new Map(
      csv
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => JSON.parse(`[${line}]`) as [string, string])
        .map(([account, amount]) => [account, usd(amount)]),
    );
    const names = hledgerAccountNames(await L.exportBook(ctx.ledger, org.seq, period)).categories;
    for (const l of pl.lines.filter((x) => x.amount !== 0 && !x.direct)) expect([l.name, totals.get(names.get(l.name)!)]).toEqual([l.name, `${(-l.amount).toFixed(2)} USD`]);
    expect(totals.get('equity:suspense:uncategorized')).toBe(`${(-pl.uncategorized.amount).toFixed(2)} USD`);
    // Opening balances: each account's balance at the end of the period matches the balances report.
    const balances = await desk<{ accounts: L.AccountBalance[] }>('balancesReport', { date: period.to });
    const money = hledgerAccountNames(await L.exportBook(ctx.ledger, org.seq, period)).money;
    for (const a of balances.accounts) {
      const got = execFileSync(tool('hledger'), ['-f', out, 'bal', '--flat', '-N', '-O', 'csv', '-e', '2026-01-01', `^${money.get(a.id)!.replace(/[()]/g, '\\$&')}$`], {
        encoding: 'utf8',
      })
        .trim()
        .split('\n')[1];
      expect([a.name, got ? JSON.parse(`[${got}]`)[1] : `0`]).toEqual([a.name, a.balance === 0 ? '0' : `${a.balance.toFixed(2)} ${a.currency}`]);
    }
  });

  it('write a Beancount file that bean-check accepts, with the same totals per category', async () => {
    const out = join(tempDir(), 'books.beancount');
    await desk('exportBooks', { format: 'beancount', ...period, out });
    const check = spawnSync(tool('bean-check'), [out], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const query = execFileSync(
      tool('bean-query'),
      ['-f', 'csv', out, `SELECT account, sum(number) AS total WHERE currency = 'USD' AND date >= ${period.from} AND date <= ${period.to} GROUP BY account`],
      { encoding: 'utf8' },
    );
    const totals = new Map(
      query
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',').map((c) => c.trim()) as [string, string]),
    );
    const names = beancountAccountNames(await L.exportBook(ctx.ledger, org.seq, period)).categories;
    for (const l of pl.lines.filter((x) => x.amount !== 0 && !x.direct)) expect([l.name, Number(totals.get(names.get(l.name)!))]).toEqual([l.name, -l.amount]);
    expect(Number(totals.get('Equity:Suspense:Uncategorized'))).toBeCloseTo(-pl.uncategorized.amount, 6);
    expect(beancountPart('5100 Software & tools')).toBe('5100-Software-And-Tools');
    expect(beancountPart('Café Zürich')).toBe('Cafe-Zurich');
  });

  it('write every field as CSV, formula-looking text neutralized, numbers left as numbers', async () => {
    const out = join(tempDir(), 'books.csv');
    await desk('exportBooks', { format: 'csv', ...period, out });
    const text = readFileSync(out, 'utf8');
    const [header, ...rows] = text.trim().split('\r\n');
    expect(header).toBe('id,date,account,amount,currency,description,category,lines,status,source,externalId,suggestedBy,confidence,reason');
    expect(rows.find((r) => r.includes('SUM(A1'))).toMatch(/,Operating account,-7\.00,USD,'=SUM\(A1:A9\),Cloud infrastructure,,matched,manual_csv,,,,$/);
    expect(rows.find((r) => r.includes('Zürich'))).toContain(',Euro cash,-12.50,EUR,"Café ""Zürich""; tips & more",');
    expect(rows).toHaveLength((await L.listTransactions(ctx.ledger, org.seq, { dateFrom: period.from, dateTo: period.to, limit: 1, offset: 0 })).meta.totalCount);
  });
});
