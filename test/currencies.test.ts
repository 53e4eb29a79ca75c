// Books in three currencies (issue 30): a USD organization with a EUR and a
// GBP account beside its USD one. Every row and line keeps its own amount and
// its base amount at its date's rate (later rates never rewrite it); the
// profit and loss, the balance sheet and the trial balance are in the base
// currency and equal figures computed here from the rates file; a named
// currency shows its own figures; a missing rate refuses the write, naming it.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { divideRates, rateText, readRate, type Rate } from '../src/main/ledger/rates/decimal';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { accountantTool, tempLedger } from './support/env';
import { HLEDGER_PAYABLE, HLEDGER_RECEIVABLE, HLEDGER_TAX, hledgerAccountNames } from '../src/main/exports/hledger';
import { steadyRate } from './support/rates';
import { mapInOrder } from '../src/main/ledger/core/in-order';

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);

// Weekly rates (1 unit in USD), as a plain rates file: what the test computes its expectations from.
const RATES: Record<string, [string, string][]> = {
  EUR: [
    ['2026-01-01', '1.0350'],
    ['2026-01-08', '1.0412'],
    ['2026-01-15', '1.0388'],
    ['2026-01-22', '1.0461'],
    ['2026-01-29', '1.0503'],
  ],
  GBP: [
    ['2026-01-01', '1.2518'],
    ['2026-01-08', '1.2477'],
    ['2026-01-15', '1.2602'],
    ['2026-01-22', '1.2655'],
    ['2026-01-29', '1.2589'],
  ],
};
const rateFor = (currency: string, date: string): Rate => readRate(RATES[currency].filter(([d]) => d <= date).at(-1)![1]) as Rate;
const inUsd = (minor: number, currency: string, date: string) => (currency === 'USD' ? minor : L.toBase(minor, currency, rateFor(currency, date), 'USD'));

// Rows entered as each account's statement shows them: [account, currency, date, amount, category].
const ROWS: [string, string, string, number, string][] = [
  ['Operating', 'USD', '2026-01-05', 5000, '4000'],
  ['Operating', 'USD', '2026-01-06', -120.5, '5100'],
  ['Euro', 'EUR', '2026-01-07', 2300, '4000'],
  ['Euro', 'EUR', '2026-01-12', -89.99, '5100'],
  ['Euro', 'EUR', '2026-01-30', -410.1, '5300'],
  ['Sterling', 'GBP', '2026-01-09', 1500, '4000'],
  ['Sterling', 'GBP', '2026-01-20', -250.25, '5300'],
];

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'tri', name: 'Tri-currency Ltd', currency: 'USD' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await desk('createAccount', { name: 'Operating' });
  await desk('createAccount', { name: 'Euro', currency: 'EUR' });
  await desk('createAccount', { name: 'Sterling', currency: 'GBP' });
  const file = join(dir, 'rates.csv');
  writeFileSync(file, ['date,currency,rate', ...Object.entries(RATES).flatMap(([c, rs]) => rs.map(([d, r]) => `${d},${c},${r}`))].join('\n'));
  await desk('importRates', { file });
  for (const [account, , date, amount, categoryCode] of ROWS) await desk('addTransaction', { account, date, amount, description: `${account} ${date}`, categoryCode });
});

afterEach(() => expectTotalsMatchRows(ctx.ledger));

const minor = (amount: number, currency: string) => L.toMinor(amount, currency);

describe('base amounts', () => {
  it('every row at its date (or the latest of the 7 days before) rate; its lines balance it exactly in both currencies', async () => {
    const rows = await ctx.ledger.rows<{ seq: number; date: string; currency: string; amount_minor: number; base_minor: number }>(
      'SELECT seq, date, currency, amount_minor, base_minor FROM transactions WHERE org_seq = ? ORDER BY seq',
      org.seq,
    );
    expect(rows.map((r) => r.base_minor)).toEqual(ROWS.map(([, c, d, a]) => inUsd(minor(a, c), c, d)));
    for (const r of rows) {
      const [sums] = await ctx.ledger.rows<{ amount: number; base: number }>(
        'SELECT sum(amount_minor) AS amount, sum(base_minor) AS base FROM lines WHERE transaction_seq = ?',
        r.seq,
      );
      expect(sums).toEqual({ amount: -r.amount_minor, base: -r.base_minor });
    }
  });

  it('a split keeps its shares exact in base too: the rounding lands on the largest line', async () => {
    const row = (await L.listTransactions(ctx.ledger, org.seq, { limit: 50, offset: 0 })).data.find((t) => t.amount === -89.99)!;
    await desk('splitTransaction', {
      id: row.id,
      lines: [
        { categoryCode: '5100', amount: -30 },
        { categoryCode: '5300', amount: -29.99 },
        { categoryCode: '5000', amount: -30 },
      ],
    });
    const lines = await ctx.ledger.rows<{ amount_minor: number; base_minor: number }>(
      'SELECT l.amount_minor, l.base_minor FROM lines l JOIN transactions t ON t.seq = l.transaction_seq WHERE t.id = ? ORDER BY position',
      row.id,
    );
    expect(lines.map((l) => l.amount_minor)).toEqual([3000, 2999, 3000]);
    expect(lines.reduce((s, l) => s + l.base_minor, 0)).toBe(-inUsd(-8999, 'EUR', '2026-01-12'));
    for (const l of lines) expect(Math.abs(l.base_minor - inUsd(l.amount_minor, 'EUR', '2026-01-12'))).toBeLessThanOrEqual(1);
  });

  it('a later rate for the same day changes no booked amount; a row moved to another day takes that day’s rate', async () => {
    const before = await ctx.ledger.rows<{ base_minor: number }>("SELECT base_minor FROM transactions WHERE currency = 'GBP' ORDER BY seq");
    await desk('setRate', { currency: 'GBP', date: '2026-01-08', rate: '1.3' });
    expect(await ctx.ledger.rows("SELECT base_minor FROM transactions WHERE currency = 'GBP' ORDER BY seq")).toEqual(before);
    await desk('setRate', { currency: 'GBP', date: '2026-01-08', rate: '1.2477' });
    const row = (await L.listTransactions(ctx.ledger, org.seq, { limit: 50, offset: 0 })).data.find((t) => t.amount === -250.25)!;
    await desk('editTransaction', { id: row.id, date: '2026-01-29' });
    const [moved] = await ctx.ledger.rows<{ base_minor: number }>('SELECT base_minor FROM transactions WHERE id = ?', row.id);
    expect(moved.base_minor).toBe(inUsd(-25025, 'GBP', '2026-01-29'));
    expect((await ctx.ledger.rows<{ b: number }>('SELECT sum(l.base_minor) AS b FROM lines l JOIN transactions t ON t.seq = l.transaction_seq WHERE t.id = ?', row.id))[0].b).toBe(
      -moved.base_minor,
    );
    await desk('editTransaction', { id: row.id, date: '2026-01-20' });
  });

  it('a row whose date no rate serves is refused, naming the currency and the date; nothing is written', async () => {
    const n = (await ctx.ledger.rows<{ n: number }>('SELECT count(*) AS n FROM transactions'))[0].n;
    await expect(desk('addTransaction', { account: 'Euro', date: '2026-03-02', amount: -5, description: 'Late', categoryCode: '5100' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('No EUR rate for 2026-03-02 (the latest before it is 2026-01-29'),
      details: { reason: 'rate_missing', currency: 'EUR', date: '2026-03-02' },
    });
    expect((await ctx.ledger.rows<{ n: number }>('SELECT count(*) AS n FROM transactions'))[0].n).toBe(n);
  });
});

describe('reports in the base currency', () => {
  const expected = (pred: (r: (typeof ROWS)[number]) => boolean) => ROWS.filter(pred).reduce((s, [, c, d, a]) => s + inUsd(minor(a, c), c, d), 0) / 100;

  it('the profit and loss sums every currency at its booked base amounts; --currency shows one currency’s own', async () => {
    const pl = await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-01-01', to: '2026-01-31' });
    expect(pl.currency).toBe('USD');
    expect(pl.revenue).toBeCloseTo(
      expected((r) => r[3] > 0),
      2,
    );
    expect(pl.net).toBeCloseTo(
      expected(() => true),
      2,
    );
    const eur = await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-01-01', to: '2026-01-31', currency: 'EUR' });
    expect(eur).toMatchObject({ currency: 'EUR', revenue: 2300 });
    expect(eur.net).toBeCloseTo(2300 - 89.99 - 410.1, 2);
  });

  it('the balance sheet balances in base and holds every account; the trial balance agrees; the dashboard is in base', async () => {
    const sheet = await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-01-31' });
    expect(sheet.assets.total).toBeCloseTo(sheet.liabilitiesAndEquity, 2);
    expect(sheet.assets.lines.map((l) => l.name)).toEqual(expect.arrayContaining(['Operating', 'Euro', 'Sterling']));
    expect(sheet.assets.total).toBeCloseTo(
      expected(() => true),
      2,
    );
    expect(sheet.currentYearEarnings).toBeCloseTo(
      expected(() => true),
      2,
    );
    const tb = await L.trialBalance(ctx.ledger, org.seq, { from: '2026-01-01', to: '2026-01-31' });
    expect(tb.totalDebit).toBeCloseTo(tb.totalCredit, 2);
    const dash = await L.dashboardSummary(ctx.ledger, org.seq);
    expect(dash).toMatchObject({ currency: 'USD' });
    expect(dash.cashPosition).toBeCloseTo(
      expected(() => true),
      2,
    );
    expect(dash.revenue).toBeCloseTo(
      expected((r) => r[3] > 0),
      2,
    );
  });
});

describe('in bulk', () => {
  it('a big euro statement, its undo and rules applied to it again keep every base total equal to its rows', async () => {
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 2300; i++) lines.push(`2026-01-${String(1 + (i % 28)).padStart(2, '0')},${i % 10 ? 'Coffee' : 'Rent'} ${i},-${(i % 97) + 0.33}`);
    const file = join(ctx.dataDir, 'big.csv');
    writeFileSync(file, lines.join('\n'));
    const imported = await desk<L.ImportResult>('importStatement', { file, account: 'Euro' });
    expect(imported.imported).toBe(2300); // 2,070 coffees: the rule applies them in bulk (BULK_ROWS)
    const [sum] = await ctx.ledger.rows<{ base: number; expected: number }>('SELECT sum(base_minor) AS base, count(*) AS n FROM transactions WHERE import_batch_seq IS NOT NULL');
    const expectedBase = lines.slice(1).reduce((s, l) => {
      const [date, , amount] = l.split(',');
      return s + inUsd(Math.round(Number(amount) * 100), 'EUR', date);
    }, 0);
    expect(sum.base).toBe(expectedBase);
    await expectTotalsMatchRows(ctx.ledger);
    // Undone in bulk (their totals taken away set-wise), then imported again for the rules.
    await desk('undoImport', { batchId: imported.batchId });
    await expectTotalsMatchRows(ctx.ledger);
    await desk<L.ImportResult>('importStatement', { file, account: 'Euro' });
    await desk('createRule', { rule: { matchKind: 'contains', matchText: 'coffee', categoryCode: '5000', mode: 'apply' } });
    await desk('createRule', {
      rule: {
        matchKind: 'contains',
        matchText: 'rent',
        categoryCode: '5300',
        split: [
          { categoryCode: '5300', percent: 70 },
          { categoryCode: '5100', percent: 30 },
        ],
        mode: 'apply',
      },
    });
    expect((await ctx.ledger.rows<{ n: number }>("SELECT count(*) AS n FROM transactions WHERE status = 'uncategorized'"))[0].n).toBe(0);
  });
});

describe('invoices and bills in another currency', () => {
  const postings = (number: string) =>
    ctx.ledger.rows<{ kind: string; amount_minor: number; base_minor: number }>(
      'SELECT p.kind, p.amount_minor, p.base_minor FROM postings p JOIN documents d ON d.seq = p.document_seq WHERE d.number = ? ORDER BY p.seq',
      number,
    );
  const linesOfRow = (id: string) =>
    ctx.ledger.rows<{ kind: string; amount_minor: number; base_minor: number; category: string | null }>(
      'SELECT l.kind, l.amount_minor, l.base_minor, c.name AS category FROM lines l JOIN transactions t ON t.seq = l.transaction_seq LEFT JOIN categories c ON c.seq = l.category_seq WHERE t.id = ? ORDER BY l.position',
      id,
    );
  const bankRow = async (account: string, date: string, amount: number, description: string) =>
    (await desk<{ id: string }>('addTransaction', { account, date, amount, description })).id;

  it('a EUR invoice books at its issue date’s rate; paid later at another, the difference is a realized gain', async () => {
    await desk('addContact', { name: 'Berlin GmbH', customer: true });
    const inv = await desk<L.Document>('createInvoice', { customer: 'Berlin GmbH', currency: 'EUR', date: '2026-01-08', issue: true, lines: ['Design;1;1000;4000'] });
    expect(inv).toMatchObject({ currency: 'EUR', total: 1000 });
    const booked = inUsd(100000, 'EUR', '2026-01-08'); // 1,041.20 USD at 1.0412
    expect((await postings(inv.number)).find((p) => p.kind === 'receivable')).toMatchObject({ amount_minor: 100000, base_minor: booked });
    const id = await bankRow('Euro', '2026-01-23', 1000, 'BERLIN GMBH');
    const paid = await desk<L.PaymentResult>('payInvoice', { numbers: [inv.number], transactionId: id });
    expect(paid.documents[0]).toMatchObject({ status: 'paid', balance: 0 });
    const received = inUsd(100000, 'EUR', '2026-01-23'); // 1,046.10 USD at 1.0461
    expect(await linesOfRow(id)).toEqual([
      { kind: 'receivable', amount_minor: -100000, base_minor: -booked, category: null },
      { kind: 'category', amount_minor: 0, base_minor: booked - received, category: 'Realized exchange gains and losses' },
    ]);
    // Nothing left on receivables in USD; the gain in the profit and loss (a credit to the category: shown positive).
    const sheet = await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-01-31' });
    expect(sheet.assets.lines.find((l) => l.name === 'Accounts receivable')).toBeUndefined();
    expect(sheet.assets.total).toBeCloseTo(sheet.liabilitiesAndEquity, 2);
    const pl = await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-01-01', to: '2026-01-31' });
    expect(pl.lines.find((l) => l.name === 'Realized exchange gains and losses')?.amount).toBeCloseTo((received - booked) / 100, 2);
    expect((await L.listAudit(ctx.ledger, org.seq, { action: 'category.created', limit: 5, offset: 0 })).entries[0].summary).toContain('Realized exchange gains and losses');
  });

  it('a GBP bill paid in part at a loss; a credit note takes back its EUR invoice at the invoice’s own rate', async () => {
    await desk('addContact', { name: 'London Ltd', vendor: true });
    await desk('createBill', { vendor: 'London Ltd', number: 'L-77', currency: 'GBP', date: '2026-01-09', lines: ['Hosting;1;400;5300'] });
    const id = await bankRow('Sterling', '2026-01-16', -100, 'LONDON LTD PART');
    expect((await desk<L.PaymentResult>('payBill', { numbers: ['L-77'], transactionId: id })).documents[0]).toMatchObject({ status: 'partially_paid', balance: 300 });
    const share = Math.round(-inUsd(-40000, 'GBP', '2026-01-09') / 4); // a quarter of what was booked (at 1.2477)
    const lines = await linesOfRow(id);
    expect(lines[0]).toMatchObject({ kind: 'payable', amount_minor: 10000, base_minor: share });
    expect(lines[1]).toMatchObject({ amount_minor: 0, base_minor: -inUsd(-10000, 'GBP', '2026-01-16') - share, category: 'Realized exchange gains and losses' });

    const inv = await desk<L.Document>('createInvoice', { customer: 'Berlin GmbH', currency: 'EUR', date: '2026-01-15', issue: true, lines: ['Retainer;1;500;4000'] });
    const note = await desk<L.Document>('creditInvoice', { number: inv.number, date: '2026-01-29', lines: ['Retainer;1;500;4000'] });
    expect(note).toMatchObject({ currency: 'EUR', total: 500 });
    expect((await postings(note.number)).find((p) => p.kind === 'receivable')?.base_minor).toBe(-(await postings(inv.number)).find((p) => p.kind === 'receivable')!.base_minor);
  });

  it('refuses an invoice in a currency or on a date no rate serves, and a payment from an account in a third currency', async () => {
    await expect(desk('createInvoice', { customer: 'Berlin GmbH', currency: 'EUX', date: '2026-01-15', lines: ['X;1;1;4000'] })).rejects.toMatchObject({
      details: [{ field: 'currency', message: expect.stringContaining('EUX is not an ISO 4217') }],
    });
    await expect(desk('createInvoice', { customer: 'Berlin GmbH', currency: 'EUR', date: '2025-06-01', issue: true, lines: ['X;1;1;4000'] })).rejects.toMatchObject({
      details: { reason: 'rate_missing', currency: 'EUR', date: '2025-06-01' },
    });
    const inv = await desk<L.Document>('createInvoice', { customer: 'Berlin GmbH', currency: 'EUR', date: '2026-01-20', issue: true, lines: ['X;1;10;4000'] });
    // From the base currency's account it may be paid (issue 43: fx-payments.test.ts), not from another one's.
    const gbp = await bankRow('Sterling', '2026-01-21', 10, 'BERLIN');
    await expect(desk('payInvoice', { numbers: [inv.number], transactionId: gbp })).rejects.toMatchObject({
      details: [{ field: 'documents[0]', message: expect.stringContaining('is in EUR, the row in GBP: a document is paid in its own currency, or from an account in USD') }],
    });
  });
});

describe('exports in three currencies', () => {
  const period = { from: '2026-01-01', to: '2026-01-31' };
  const hledger = (file: string, ...args: string[]) => execFileSync(accountantTool('hledger'), ['-f', file, ...args], { encoding: 'utf8' });
  /** A balance report's one total in USD (hledger csv: "account","balance" rows, the total last). */
  const totalOf = (csv: string) => {
    const last = csv.trim().split('\n').at(-1)!;
    const amount = (JSON.parse(`[${last}]`) as string[])[1];
    return Number(
      amount
        .split(', ')
        .find((a) => a.endsWith(' USD'))
        ?.replace(' USD', '') ?? 0,
    );
  };

  it('hledger reads each currency at its booked cost: its P&L and balance sheet are the app’s in USD; -X USD --value=end uses the rates', async () => {
    const out = join(ctx.dataDir, 'three.journal');
    await desk('exportBooks', { format: 'hledger', ...period, out });
    hledger(out, 'check');
    const pl = await L.profitAndLoss(ctx.ledger, org.seq, period);
    expect(totalOf(hledger(out, 'bal', '-O', 'csv', '-b', period.from, '-e', '2026-02-01', 'income'))).toBeCloseTo(-pl.revenue, 2);
    expect(totalOf(hledger(out, 'bal', '-O', 'csv', '-b', period.from, '-e', '2026-02-01', 'income', 'expenses'))).toBeCloseTo(-pl.net, 2);
    const sheet = await L.balanceSheet(ctx.ledger, org.seq, { date: period.to });
    expect(totalOf(hledger(out, 'bal', '-B', '-O', 'csv', '-e', '2026-02-01', '^assets'))).toBeCloseTo(sheet.assets.total, 2);
    // At the month's last rates instead of the booked ones: the euro account's own balance times 1.0503.
    const euro = (await L.balancesAt(ctx.ledger, org.seq, period.to)).accounts.find((a) => a.name === 'Euro')!;
    expect(totalOf(hledger(out, 'bal', '-X', 'USD', '--value=end', '-O', 'csv', '-e', '2026-02-01', '^assets:Euro$'))).toBeCloseTo(
      Math.round(euro.balance * 1.0503 * 100) / 100,
      2,
    );
  });

  it('bean-check accepts the Beancount file with its costs and price directives', async () => {
    const out = join(ctx.dataDir, 'three.beancount');
    await desk('exportBooks', { format: 'beancount', ...period, out });
    const check = spawnSync(accountantTool('bean-check'), [out], { encoding: 'utf8' });
    expect(check.stderr + check.stdout).toBe('');
    expect(check.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^2026-01-29 price EUR 1\.0503 USD$/m);
  });
});

describe('a transfer between two currencies', () => {
  it('is at the rate its two amounts imply: no gain, nothing left in transit; the rate kept for its day; undone, each side its own rate again', async () => {
    const out = await desk<{ id: string }>('addTransaction', { account: 'Operating', date: '2026-01-10', amount: -1000, description: 'TO EURO ACCOUNT' });
    const inn = await desk<{ id: string }>('addTransaction', { account: 'Euro', date: '2026-01-12', amount: 955, description: 'FROM USD ACCOUNT' });
    const before = (await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-01-01', to: '2026-01-31' })).net;
    // Made a transfer to the euro account first: no row there has its amount, so it waits in transit.
    expect(await desk('makeTransfer', { id: out.id, account: 'Euro' })).toMatchObject({ counterpartId: null });
    await desk('matchTransfer', { id: out.id, other: inn.id });
    const base = async (id: string) => (await ctx.ledger.rows<{ b: number }>('SELECT base_minor AS b FROM transactions WHERE id = ?', id))[0].b;
    expect(await base(inn.id)).toBe(100000);
    expect((await L.listRates(ctx.ledger, org.seq, { currency: 'EUR', from: '2026-01-12', to: '2026-01-12' })).rates).toEqual([
      { currency: 'EUR', date: '2026-01-12', rate: rateText(divideRates(readRate('1000') as Rate, readRate('955') as Rate)), source: 'transfer' },
    ]);
    expect((await L.listAudit(ctx.ledger, org.seq, { action: 'transaction.transfer', limit: 1, offset: 0 })).entries[0].summary).toContain('the rate its two amounts imply');
    const sheet = await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-01-31' });
    expect(sheet.assets.lines.find((l) => l.name === L.IN_TRANSIT)).toBeUndefined();
    expect(sheet.assets.total).toBeCloseTo(sheet.liabilitiesAndEquity, 2);
    expect((await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-01-01', to: '2026-01-31' })).net).toBeCloseTo(before, 2);
    await desk('undoTransfer', { id: inn.id });
    expect(await base(inn.id)).toBe(L.toBase(95500, 'EUR', (await L.exchangeRateOn(ctx.ledger, org.seq, 'EUR', '2026-01-12')).rate, 'USD'));
    await expect(
      desk('matchTransfer', { id: out.id, other: (await desk<{ id: string }>('addTransaction', { account: 'Euro', date: '2026-01-12', amount: -5, description: 'X' })).id }),
    ).rejects.toMatchObject({
      details: [{ field: 'ids', message: expect.stringContaining('one out and one in') }],
    });
  });
});

describe('unrealized gains: a revaluation at the month end', () => {
  const sql = <T>(q: string, ...p: unknown[]) => ctx.ledger.rows<T>(q, ...p);
  /** An account's own balance and booked base balance through a date, from its rows (no opening balances in these books). */
  const held = async (name: string, date: string) =>
    (
      await sql<{ own: number; base: number }>(
        'SELECT sum(t.amount_minor) AS own, sum(t.base_minor) AS base FROM transactions t JOIN accounts a ON a.seq = t.account_seq WHERE a.name = ? AND t.date <= ?',
        name,
        date,
      )
    )[0];
  /** What is owed in a currency through a date: own and booked base, from the lines and postings themselves. */
  const owed = async (kind: string, currency: string, date: string) =>
    (
      await sql<{ own: number; base: number }>(
        'SELECT sum(a) AS own, sum(b) AS base FROM (SELECT amount_minor AS a, base_minor AS b FROM lines WHERE kind = ? AND currency = ? AND date <= ? UNION ALL SELECT amount_minor, base_minor FROM postings WHERE kind = ? AND currency = ? AND date <= ?) AS sub',
        kind,
        currency,
        date,
        kind,
        currency,
        date,
      )
    )[0];

  it('values foreign accounts and what is owed at the day’s rate, posts the difference, reverses it the next day; hledger values every asset and liability the same, to the cent', async () => {
    const end = '2026-01-31';
    const before = (await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-02-01' })).assets.total;
    const expected = [
      (await held('Euro', end)) && { ...(await held('Euro', end)), c: 'EUR' },
      { ...(await held('Sterling', end)), c: 'GBP' },
      { ...(await owed('receivable', 'EUR', end)), c: 'EUR' },
      { ...(await owed('payable', 'GBP', end)), c: 'GBP' },
    ]
      .map((x) => inUsd(x.own, x.c, end) - x.base)
      .reduce((a, b) => a + b, 0);
    const r = await desk<L.Revaluation>('revalue', { date: end });
    expect(r.items.map((i) => i.name)).toEqual(['Euro', 'Sterling', 'Accounts receivable', 'Accounts payable']);
    expect(Math.round(r.gain * 100)).toBe(expected);
    const sheet = await L.balanceSheet(ctx.ledger, org.seq, { date: end });
    expect(sheet.assets.lines.find((l) => l.name === 'Euro')!.amount * 100).toBeCloseTo(inUsd((await held('Euro', end)).own, 'EUR', end), 6);
    expect(sheet.assets.total).toBeCloseTo(sheet.liabilitiesAndEquity, 2);
    const pl = await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-01-01', to: end });
    expect(pl.lines.find((l) => l.name === L.UNREALIZED_NAME)!.amount).toBeCloseTo(r.gain, 2);
    // The next day it is reversed: the books at booked rates again.
    expect((await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-02-01' })).assets.total).toBeCloseTo(before, 2);
    // hledger values the export at the same day's prices: its assets are the revalued balance sheet's.
    const out = join(ctx.dataDir, 'revalued.journal');
    await desk('exportBooks', { format: 'hledger', from: '2026-01-01', to: end, out });
    const csv = execFileSync(accountantTool('hledger'), ['-f', out, 'bal', '^assets', '-X', 'USD', '--value=end', '-O', 'csv', '-e', '2026-02-01'], { encoding: 'utf8' });
    const total = Number((JSON.parse(`[${csv.trim().split('\n').at(-1)}]`) as string[])[1].replace(' USD', ''));
    // hledger rounds each valued account to the cent (the commodity directive) and sums those; the books round each revalued balance: a cent or so apart in total.
    expect(Math.abs(total - sheet.assets.total)).toBeLessThan(0.015);
    // Account by account, to the cent: every asset and liability of the revalued balance sheet is what hledger values it at.
    const valued = new Map(
      execFileSync(accountantTool('hledger'), ['-f', out, 'bal', '^(assets|liabilities)', '-X', 'USD', '--value=end', '--flat', '-N', '-O', 'csv', '-e', '2026-02-01'], {
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => JSON.parse(`[${line}]`) as [string, string])
        .map(([account, balance]) => [account, Math.round(Number(balance.replace(' USD', '')) * 100)]),
    );
    const names = hledgerAccountNames(await L.exportBook(ctx.ledger, org.seq, {}));
    const hledgerOf = (ref: string | undefined) =>
      ref === 'receivables' ? HLEDGER_RECEIVABLE : ref === 'payables' ? HLEDGER_PAYABLE : ref === 'tax-control' ? HLEDGER_TAX : names.money.get(ref!.slice('account:'.length))!;
    const lines = [...sheet.assets.lines.map((l) => [l, 1] as const), ...sheet.liabilities.lines.map((l) => [l, -1] as const)].filter(([l]) => l.amount !== 0);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const [line, sign] of lines) expect([line.name, sign * (valued.get(hledgerOf(line.ref)) ?? 0)]).toEqual([line.name, Math.round(line.amount * 100)]);

    await expect(desk('revalue', { date: end })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'revalued' } });
    await desk('undoRevaluation', { date: end });
    expect((await L.balanceSheet(ctx.ledger, org.seq, { date: end })).assets.lines.find((l) => l.name === 'Euro')!.amount * 100).toBeCloseTo((await held('Euro', end)).base, 6);
    await expect(desk('revalue', { date: '2025-06-30' })).rejects.toMatchObject({ details: { reason: 'rate_missing' } });
    expect((await L.listAudit(ctx.ledger, org.seq, { action: 'fx.revalued', limit: 5, offset: 0 })).entries[0].summary).toContain('unrealized');
  });
});

describe('the aging in the base currency', () => {
  it('holds documents in another currency at what they booked: its total is the balance sheet’s receivables; --currency shows one currency’s own', async () => {
    const date = '2026-01-31';
    const all = await L.aging(ctx.ledger, org.seq, 'receivables', date);
    const sheet = await L.balanceSheet(ctx.ledger, org.seq, { date });
    expect(all.currency).toBe('USD');
    expect(all.total).toBeCloseTo(sheet.assets.lines.find((l) => l.name === 'Accounts receivable')?.amount ?? 0, 2);
    const eur = await L.aging(ctx.ledger, org.seq, 'receivables', date, 'EUR');
    expect(eur).toMatchObject({ currency: 'EUR', total: 10 }); // the 10 EUR invoice of 2026-01-20, still open
    const payables = await L.aging(ctx.ledger, org.seq, 'payables', date);
    expect(payables.total).toBeCloseTo(sheet.liabilities.lines.find((l) => l.name === 'Accounts payable')?.amount ?? 0, 2);
    expect(payables.total).not.toBe(0);
  });
});

describe('invoices from a file in another currency', () => {
  it('takes a currency column (empty: the base currency); a code that is none is named by row and column, nothing written', async () => {
    const file = join(ctx.dataDir, 'invoices.csv');
    writeFileSync(
      file,
      'customer,reference,date,currency,description,quantity,unit price,category\nBerlin GmbH,1,2026-01-16,EUR,Work,1,200,4000\nBerlin GmbH,2,2026-01-16,,Work,1,50,4000\n',
    );
    const made = await desk<{ documents: { number: string }[] }>('importInvoices', { file });
    const docs = await mapInOrder(
      made.documents,
      async (d) => (await ctx.ledger.rows<{ currency: string }>('SELECT currency FROM documents WHERE number = ?', d.number))[0].currency,
    );
    expect(docs).toEqual(['EUR', 'USD']);
    const receivable = (
      await ctx.ledger.rows<{ b: number }>(
        "SELECT p.base_minor AS b FROM postings p JOIN documents d ON d.seq = p.document_seq WHERE d.number = ? AND p.kind = 'receivable'",
        made.documents[0].number,
      )
    )[0].b;
    expect(receivable).toBe(inUsd(20000, 'EUR', '2026-01-16'));
    writeFileSync(
      file,
      'customer,reference,date,currency,description,quantity,unit price,category\nBerlin GmbH,1,2026-01-16,EUR,Work,1,200,4000\nBerlin GmbH,2,2026-01-16,EUX,Work,1,50,4000\n',
    );
    const before = (await ctx.ledger.rows<{ n: number }>('SELECT count(*) AS n FROM documents'))[0].n;
    await expect(desk('importInvoices', { file })).rejects.toMatchObject({ details: [{ field: 'rows[3].currency', message: expect.stringContaining('EUX is not an ISO 4217') }] });
    expect((await ctx.ledger.rows<{ n: number }>('SELECT count(*) AS n FROM documents'))[0].n).toBe(before);
  });
});

describe('the VAT return in the base currency', () => {
  it('takes a EUR sale and a EUR invoice at their booked rates, beside the pounds; filing stamps the euro lines too', async () => {
    const uk = await L.createOrganization(ctx.ledger, { slug: 'uk-vat-co', currency: 'GBP' });
    await L.setupTaxSet(ctx.ledger, uk.seq, L.deskActor(), 'uk-vat');
    const on = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, uk.id, name, input);
    await steadyRate(ctx.ledger, uk.seq, 'EUR', '0.85', '2026-01-01', '2026-03-31');
    await on('createAccount', { name: 'Bank' });
    await on('createAccount', { name: 'Euro bank', currency: 'EUR' });
    await on('addTransaction', { account: 'Euro bank', date: '2026-02-02', amount: 120, description: 'EU SALE', categoryCode: '4000', taxCode: 'S' });
    await on('addTransaction', { account: 'Bank', date: '2026-02-03', amount: 240, description: 'UK SALE', categoryCode: '4000', taxCode: 'S' });
    await on('addContact', { name: 'Lyon SARL', customer: true });
    await on('createInvoice', { customer: 'Lyon SARL', currency: 'EUR', date: '2026-02-10', issue: true, lines: ['Work;1;1000;4000;S'] });
    const quarter = { from: '2026-01-01', to: '2026-03-31', basis: 'accrual' as const };
    const r = await L.taxReturn(ctx.ledger, uk.seq, quarter);
    // Box 1, VAT due on sales: 20.00 EUR and 200.00 EUR at 0.85 (17.00 + 170.00) and 40.00 GBP; box 6, sales net: 85 + 850 + 200.
    expect(r.currency).toBe('GBP');
    expect(r.boxes['1']).toBeCloseTo(227, 2);
    expect(r.boxes['6']).toBeCloseTo(1135, 2);
    await on('fileTaxReturn', quarter);
    const unstamped = (
      await ctx.ledger.rows<{ n: number }>(
        "SELECT count(*) AS n FROM lines WHERE org_seq = ? AND kind = 'category' AND tax_code_seq IS NOT NULL AND tax_return_seq IS NULL",
        uk.seq,
      )
    )[0].n;
    expect(unstamped).toBe(0);
  });
});

describe('the general ledger in books of several currencies', () => {
  it('opens a category’s lines in every currency at their base amounts, its ending balance the trial balance’s', async () => {
    const period = { from: '2026-01-01', to: '2026-01-31' };
    const gl = await L.generalLedger(ctx.ledger, org.seq, { account: '5100', ...period, limit: 500, offset: 0 });
    expect(gl.currency).toBe('USD');
    const tb = (await L.trialBalance(ctx.ledger, org.seq, period)).lines.find((l) => l.code === '5100')!;
    expect(gl.endingBalance).toBeCloseTo(tb.debit - tb.credit, 2);
    const euroRow = gl.data.find((p) => p.description === 'Euro 2026-01-12');
    expect(euroRow).toBeDefined(); // a EUR row's split line, in USD
    expect(gl.data.at(-1)!.balance).toBeCloseTo(gl.endingBalance, 2);
    const receivables = await L.generalLedger(ctx.ledger, org.seq, { account: 'receivables', from: '2025-01-01', to: '2026-01-31', limit: 500, offset: 0 });
    const sheet = await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-01-31' });
    expect(receivables.endingBalance).toBeCloseTo(sheet.assets.lines.find((l) => l.name === 'Accounts receivable')?.amount ?? 0, 2);
  });
});

describe('closing a period', () => {
  it('period lock --revalue revalues at the closing date and closes the books in one step', async () => {
    const r = await desk<{ lockedThrough: string; revalued: L.Revaluation | null }>('lockPeriod', { through: '2026-01-31', revalue: true });
    expect(r.lockedThrough).toBe('2026-01-31');
    expect(r.revalued?.id).toEqual(expect.any(String));
    expect((await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-01-31' })).assets.lines.find((l) => l.name === 'Euro')!.amount).not.toBe(
      (await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-02-01' })).assets.lines.find((l) => l.name === 'Euro')!.amount,
    );
    // Closed: the revaluation cannot be undone now.
    await expect(desk('undoRevaluation', { date: '2026-01-31' })).rejects.toMatchObject({ code: 'period_locked' });
    await desk('unlockPeriod', {});
  });
});
