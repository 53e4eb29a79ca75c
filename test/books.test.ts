// Double-entry books as an accountant checks them: splits, transfers (matched
// and in transit), opening balances, asset/liability/equity categories and a
// closed year; the balance sheet, trial balance and general ledger equal what
// hledger and bean-query read from the exports, to the cent; the closing date
// refuses every write in the closed period; every total recounted.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import { BEANCOUNT_IN_TRANSIT, BEANCOUNT_SUSPENSE, beancountAccountNames } from '../src/main/exports/beancount';
import { HLEDGER_IN_TRANSIT, HLEDGER_SUSPENSE, hledgerAccountNames } from '../src/main/exports/hledger';
import * as L from '../src/main/ledger';
import { TRANSFER_WINDOW_DAYS } from '../src/main/ledger/transfers/candidates';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';

const tool = (name: string) => {
  const found = ['/usr/bin', '/usr/local/bin'].map((d) => join(d, name)).find((p) => existsSync(p));
  if (!found) throw new Error(`${name} is not installed: "sudo apt-get install -y hledger beancount" (Debian/Ubuntu). The books tests run the real tools.`);
  return found;
};

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const ids: Record<string, string> = {};
const accounts: Record<string, string> = {};

async function add(key: string, account: string, date: string, amount: string, description: string, categoryCode?: string) {
  ids[key] = (await desk('addTransaction', { account, date, amount, description, categoryCode })).id;
}

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  for (const [name, type, openingBalance] of [
    ['Checking', 'checking', '5000'],
    ['Savings', 'savings', '1000'],
    ['Card', 'credit_card', '-250'],
  ])
    accounts[name] = (await desk('createAccount', { name, type, openingBalance, openingDate: '2024-12-31' })).id;
  await desk('addCategory', { code: '1500', name: 'Equipment', type: 'asset' });
  await desk('addCategory', { code: '2100', name: 'Bank loan', type: 'liability' });
  await desk('addCategory', { code: '3100', name: "Owner's drawings", type: 'equity' });
  await add('invoice', 'Checking', '2025-02-03', '3000', 'Client A invoice 17', '4010');
  await add('hardware', 'Checking', '2025-03-10', '-120', 'HARDWARE STORE 0042');
  await desk('splitTransaction', { id: ids.hardware, lines: ['5100=-70:paint', { categoryCode: '5200', amount: '-50', memo: 'shelf' }] });
  await add('cloud', 'Card', '2025-04-05', '-89.99', 'CLOUD HOSTING', '5300');
  await add('payment', 'Checking', '2025-05-01', '-500', 'CARD PAYMENT');
  await add('thanks', 'Card', '2025-05-03', '500', 'PAYMENT THANK YOU');
  await add('laptop', 'Checking', '2025-06-01', '-1000', 'Laptop', '1500');
  await add('loan', 'Checking', '2025-07-01', '2000', 'Loan advance', '2100');
  await add('sale', 'Checking', '2026-01-15', '1500', 'Client B', '4000');
  await add('toSavings', 'Checking', '2026-02-01', '-300', 'TO SAVINGS');
  await add('interest', 'Savings', '2026-02-20', '0.77', 'INTEREST');
  await add('drawings', 'Checking', '2026-03-01', '-200', 'Owner draw', '3100');
  await add('misc', 'Checking', '2026-03-05', '-45.50', 'Sundries', '5000');
  await add('advance', 'Card', '2026-03-10', '-60', 'CASH ADVANCE');
  await add('advanceIn', 'Checking', '2026-03-12', '60', 'DEPOSIT');
});

describe('splits and transfers', () => {
  it('split a row into lines that add up to it, refuse one that does not, unsplit and split again', async () => {
    const detail = await L.getTransaction(ctx.ledger, org.seq, ids.hardware);
    expect(detail.transaction).toMatchObject({ category: 'Software & tools', status: 'matched' });
    expect(detail.lines.map((l) => [l.categoryCode, l.amount, l.memo])).toEqual([
      ['5100', -70, 'paint'],
      ['5200', -50, 'shelf'],
    ]);
    await expect(desk('splitTransaction', { id: ids.misc, lines: ['5100=-40', '5200=-5'] })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'lines', message: expect.stringContaining('0.50 USD left to assign') }],
    });
    await desk('splitTransaction', { id: ids.misc, lines: ['5100=-40', '5200=-5.50'] });
    // Unsplit puts back what it was before its split (issue 42), not its largest line's category.
    expect(await desk('unsplitTransaction', { id: ids.misc })).toMatchObject({ category: 'Operating expenses', status: 'matched' });
    await desk('categorizeTransactions', { ids: [ids.misc], categoryCode: '5000' });
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('the register marks a possible transfer with its other side on a page spanning months', async () => {
    const page = await desk<L.RegisterPage>('register', { limit: 50, offset: 0 });
    expect(new Set(page.data.map((r) => r.date.slice(0, 4)))).toEqual(new Set(['2025', '2026']));
    expect(page.data.find((r) => r.id === ids.payment)?.possibleTransfer).toEqual({ id: ids.thanks, date: '2025-05-03', accountName: 'Card', candidates: 1 });
    expect(page.data.find((r) => r.id === ids.thanks)?.possibleTransfer).toMatchObject({ id: ids.payment, accountName: 'Checking' });
  });

  it('match a transfer with its other side, wait in transit without one, suggest, match and undo', async () => {
    expect(await desk('makeTransfer', { id: ids.payment, account: 'Card' })).toEqual({ id: ids.payment, counterpartId: ids.thanks, candidates: 1 });
    expect(await desk('makeTransfer', { id: ids.toSavings, account: 'Savings' })).toEqual({ id: ids.toSavings, counterpartId: null, candidates: 0 });
    const suggested = await desk<{ data: L.PossibleTransfer[] }>('suggestTransfers');
    expect(suggested.data.map((p) => [p.from.id, p.to.id, p.daysApart])).toEqual([[ids.advance, ids.advanceIn, 2]]);
    await desk('matchTransfer', { id: ids.advance, other: ids.advanceIn });
    expect(await desk('undoTransfer', { id: ids.advanceIn })).toEqual({ id: ids.advanceIn, counterpartId: ids.advance });
    expect((await L.getTransaction(ctx.ledger, org.seq, ids.advance)).transaction).toMatchObject({ category: null, status: 'uncategorized' });
    await desk('matchTransfer', { id: ids.advance, other: ids.advanceIn });
    await expect(desk('categorizeTransactions', { ids: [ids.advance], categoryCode: '5000' })).rejects.toMatchObject({ code: 'conflict' });
    expect((await L.getTransaction(ctx.ledger, org.seq, ids.payment)).lines).toEqual([
      { kind: 'transfer', categoryCode: null, accountId: accounts.Card, counterpartId: ids.thanks, amount: -500, memo: null },
    ]);
    // Never revenue or expense.
    const pl = await desk<L.ProfitAndLoss>('profitAndLoss', { from: '2025-01-01', to: '2026-12-31' });
    expect([pl.revenue, pl.expenses, pl.uncategorized.amount]).toEqual([4500, -255.49, 0.77]);
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('a closing date', () => {
  it('refuses every write dated in the closed period, naming the date, and is audited', async () => {
    await desk('lockPeriod', { through: '2025-12-31', reason: '2025 filed' });
    const refused = { code: 'period_locked', details: { lockedThrough: '2025-12-31' } };
    await expect(desk('addTransaction', { account: 'Checking', date: '2025-12-31', amount: '-1', description: 'late' })).rejects.toMatchObject(refused);
    await expect(desk('editTransaction', { id: ids.laptop, description: 'Laptop (Pro)' })).rejects.toMatchObject(refused);
    await expect(desk('deleteTransaction', { id: ids.loan })).rejects.toMatchObject(refused);
    await expect(desk('categorizeTransactions', { ids: [ids.cloud], categoryCode: '5100' })).rejects.toMatchObject(refused);
    await expect(desk('splitTransaction', { id: ids.cloud, lines: ['5100=-80', '5300=-9.99'] })).rejects.toMatchObject(refused);
    await expect(desk('undoTransfer', { id: ids.payment })).rejects.toMatchObject(refused);
    await expect(desk('addTransaction', { account: 'Checking', date: '2026-01-01', amount: '-1', description: 'open' })).resolves.toBeTruthy();
    await desk('deleteTransaction', { id: (await desk('register', { description: 'open' })).data[0].id });
    const log = await desk('listAudit', { action: 'period.locked' });
    expect(log.entries[0].summary).toBe('Books closed through 2025-12-31: 2025 filed');
    expect((await L.organizationBySeq(ctx.ledger, org.seq)).lockedThrough).toBe('2025-12-31');
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('reports an accountant signs, read back by hledger and bean-query', () => {
  const date = '2026-06-30';
  let bs: L.BalanceSheet;
  let tb: L.TrialBalance;
  let journal: string;
  let beancount: string;
  const hledger = (...args: string[]) =>
    new Map(
      execFileSync(tool('hledger'), ['-f', journal, 'bal', '--flat', '-N', '-O', 'csv', ...args], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => JSON.parse(`[${line}]`) as [string, string])
        .map(([account, amount]) => [account, amount === '0' ? 0 : Number(amount.replace(/ USD$/, ''))]),
    );
  /** The hledger account of a report line. */
  const hledgerName = async (ref: string | undefined) => {
    const names = hledgerAccountNames(await L.exportBook(ctx.ledger, org.seq, {}));
    if (ref === 'in-transit') return HLEDGER_IN_TRANSIT;
    if (ref === 'suspense') return HLEDGER_SUSPENSE;
    if (ref === 'opening-balances') return 'equity:opening balances';
    if (ref?.startsWith('account:')) return names.money.get(ref.slice(8))!;
    const category = (await L.listCategories(ctx.ledger, org.seq)).find((c) => `category:${c.code}` === ref)!;
    return names.categories.get(category.name)!;
  };

  beforeAll(async () => {
    bs = await desk('balanceSheet', { date });
    tb = await desk('trialBalance', { from: '2026-01-01', to: date });
    journal = join(tempDir(), 'books.journal');
    beancount = join(tempDir(), 'books.beancount');
    await desk('exportBooks', { format: 'hledger', out: journal });
    await desk('exportBooks', { format: 'beancount', out: beancount });
  });

  it('balance sheet: assets = liabilities + equity, each line as hledger bal reads it, earnings split at the fiscal year', async () => {
    expect(bs.assets.total).toBeCloseTo(bs.liabilitiesAndEquity, 6);
    expect(bs.assets.lines.find((l) => l.name === 'Transfers in transit')).toEqual({ name: 'Transfers in transit', amount: 300, ref: 'in-transit' });
    expect(bs.liabilities.lines.find((l) => l.code === '2100')).toMatchObject({ name: 'Bank loan', amount: 2000 });
    expect(bs.equity.lines.find((l) => l.ref === 'opening-balances')).toMatchObject({ amount: 5750 });
    expect(bs.equity.lines.find((l) => l.ref === 'suspense')).toMatchObject({ amount: 0.77 });
    expect(bs.retainedEarnings).toBeCloseTo(3000 - 70 - 50 - 89.99, 6);
    expect(bs.currentYearEarnings).toBeCloseTo(1500 - 45.5, 6);
    const balances = hledger('-e', '2026-07-01');
    for (const section of ['assets', 'liabilities', 'equity'] as const)
      for (const l of bs[section].lines.filter((x) => x.ref)) {
        const expected = (section === 'assets' ? 1 : -1) * (balances.get(await hledgerName(l.ref)) ?? 0);
        expect([l.name, l.amount]).toEqual([l.name, expected]);
      }
    // hledger's own balance sheet: its totals are the app's (liabilities shown owed, positive), its net the equity.
    const sheet = execFileSync(tool('hledger'), ['-f', journal, 'bs', '-e', '2026-07-01', '-O', 'csv'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(`[${line}]`) as [string, string]);
    const figure = (text: string) => (text === '0' ? 0 : Number(text.replace(/ USD$/, '')));
    const totals = sheet.filter(([name]) => name === 'total').map(([, amount]) => figure(amount));
    expect(totals).toEqual([bs.assets.total, bs.liabilities.total]);
    expect(figure(sheet.find(([name]) => name === 'Net:')![1])).toBeCloseTo(bs.equity.total, 6);
    const earnings = (args: string[]) => -[...hledger(...args, 'income', 'expenses').values()].reduce((s, n) => s + n, 0);
    expect(bs.retainedEarnings).toBeCloseTo(earnings(['-e', '2026-01-01']), 6);
    expect(bs.currentYearEarnings).toBeCloseTo(earnings(['-b', '2026-01-01', '-e', '2026-07-01']), 6);
  });

  it('trial balance: the columns agree, each line what hledger bal says (the year for income and expenses)', async () => {
    expect(tb.totalDebit).toBeCloseTo(tb.totalCredit, 6);
    const cumulative = hledger('-e', '2026-07-01');
    const year = hledger('-b', '2026-01-01', '-e', '2026-07-01');
    for (const l of tb.lines.filter((x) => x.ref)) {
      const name = await hledgerName(l.ref);
      const from = /^(income|expenses):/.test(name) ? year : cumulative;
      expect([l.name, Math.round((l.debit - l.credit) * 100)]).toEqual([l.name, Math.round((from.get(name) ?? 0) * 100)]);
    }
    expect(tb.lines.find((l) => l.name === 'Retained earnings')).toMatchObject({ debit: 0, credit: bs.retainedEarnings });
  });

  it('general ledger: running balances page by page, equal to hledger reg', async () => {
    const whole = await desk<L.GeneralLedger>('generalLedger', { account: 'Checking', to: date, limit: 500 });
    const page = await desk<L.GeneralLedger>('generalLedger', { account: `account:${accounts.Checking}`, to: date, limit: 3, offset: 4 });
    expect(page.data).toEqual(whole.data.slice(4, 7));
    expect(whole.startingBalance).toBe(5000);
    expect(whole.endingBalance).toBe(bs.assets.lines.find((l) => l.name === 'Checking')!.amount);
    expect(whole.data.find((p) => p.transactionId === ids.hardware)!.other).toBe('Split: Software & tools, Office & rent');
    expect(whole.data.find((p) => p.transactionId === ids.toSavings)!.other).toBe('Transfer to Savings (transfers in transit)');
    const reg = execFileSync(tool('hledger'), ['-f', journal, 'reg', '-O', 'csv', '-e', '2026-07-01', `^${await hledgerName(`account:${accounts.Checking}`)}$`], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(`[${line}]`) as string[]);
    expect(reg).toHaveLength(whole.meta.totalCount + 1); // hledger's first posting is the opening balance
    expect(Number(reg.at(-1)!.at(-1)!.replace(/ USD$/, ''))).toBe(whole.endingBalance);
    const amounts = (rows: { date: string; amount: number }[]) => rows.map((r) => `${r.date} ${r.amount.toFixed(2)}`).sort();
    expect(amounts(reg.slice(1).map((r) => ({ date: r[1], amount: Number(r.at(-2)!.replace(/ USD$/, '')) })))).toEqual(amounts(whole.data));
    const software = await desk<L.GeneralLedger>('generalLedger', { account: '5100', from: '2025-01-01', to: date });
    expect(software.data.map((p) => [p.date, p.memo, p.debit, p.other, p.balance])).toEqual([['2025-03-10', 'paint', 70, 'Checking', 70]]);
    const transit = await desk<L.GeneralLedger>('generalLedger', { account: 'in-transit', to: date });
    expect(transit.endingBalance).toBe(300);
    await expect(desk('generalLedger', { account: 'Nowhere' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('bean-query balances equal the balance sheet', async () => {
    const names = beancountAccountNames(await L.exportBook(ctx.ledger, org.seq, {}));
    const query = execFileSync(tool('bean-query'), ['-f', 'csv', beancount, `SELECT account, sum(number) AS total WHERE date <= ${date} GROUP BY account`], { encoding: 'utf8' });
    const totals = new Map(
      query
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',').map((c) => c.trim()))
        .map(([account, total]) => [account, Number(total)]),
    );
    const nameOf = async (ref: string) =>
      ref === 'in-transit'
        ? BEANCOUNT_IN_TRANSIT
        : ref === 'suspense'
          ? BEANCOUNT_SUSPENSE
          : ref === 'opening-balances'
            ? 'Equity:Opening-Balances'
            : ref.startsWith('account:')
              ? names.money.get(ref.slice(8))!
              : names.categories.get((await L.listCategories(ctx.ledger, org.seq)).find((c) => `category:${c.code}` === ref)!.name)!;
    for (const section of ['assets', 'liabilities', 'equity'] as const)
      for (const l of bs[section].lines.filter((x) => x.ref))
        expect([l.name, l.amount]).toEqual([l.name, Math.round((section === 'assets' ? 1 : -1) * (totals.get(await nameOf(l.ref!)) ?? 0) * 100) / 100]);
  });
});

describe('the benchmark books (a fifth split, one in twenty a transfer)', () => {
  it('are balanced entries whose totals recount, with a balance sheet that balances', async () => {
    const { fillDemo } = await import('../src/main/demo');
    const { ledger } = await tempLedger();
    const demo = await L.createOrganization(ledger, { slug: 'shaped' });
    await fillDemo(ledger, demo.seq, demo.slug, 4000, 'USD', { splitEvery: 5, transferEvery: 20 });
    await expectTotalsMatchRows(ledger);
    const kinds = await ledger.stmt('SELECT kind, count(*) AS n, count(counterpart_seq) AS matched FROM lines GROUP BY kind ORDER BY kind').all();
    expect(kinds).toEqual([
      { kind: 'category', n: expect.any(Number), matched: 0 },
      { kind: 'suspense', n: expect.any(Number), matched: 0 },
      { kind: 'transfer', n: 400, matched: 400 },
    ]);
    const splits = (await ledger.stmt('SELECT count(*) FROM (SELECT transaction_seq FROM lines GROUP BY transaction_seq HAVING count(*) > 1) AS sub').pluck().get()) as number;
    expect(splits).toBeGreaterThan(400);
    const bs = await L.balanceSheet(ledger, demo.seq, { date: '2026-06-30' });
    expect(bs.assets.total).toBeCloseTo(bs.liabilitiesAndEquity, 6);
    expect(bs.assets.lines.find((l) => l.ref === 'in-transit')).toBeUndefined();
    const tb = await L.trialBalance(ledger, demo.seq, { from: '2026-01-01', to: '2026-06-30' });
    expect(tb.totalDebit).toBeCloseTo(tb.totalCredit, 6);
  });
});

describe('transfers and the closing date at import', () => {
  const csv = (rows: string[]) => {
    const file = join(tempDir(), 'card.csv');
    writeFileSync(file, `Date,Description,Amount\n${rows.join('\n')}\n`);
    return file;
  };
  let books: DeskContext;
  let acme: L.Organization;
  const run = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(books, acme.id, name, input);

  beforeAll(async () => {
    const { ledger, dir } = await tempLedger();
    acme = await L.createOrganization(ledger, { slug: 'imports' });
    books = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
    await run('createAccount', { name: 'Checking', type: 'checking' });
    await run('createAccount', { name: 'Card', type: 'credit_card' });
    await run('createAccount', { name: 'Savings', type: 'savings' });
  });

  it("matches a declared transfer in transit when the other account's statement brings the one row that fits, and undoing the import puts it back in transit", async () => {
    const payment = await run('addTransaction', { account: 'Checking', date: '2026-04-01', amount: '-300', description: 'CARD PAYMENT' });
    await run('makeTransfer', { id: payment.id, account: 'Card' });
    const preview = await run<L.ImportResult>('importStatement', { file: csv(['2026-04-03,PAYMENT RECEIVED,300.00', '2026-04-04,COFFEE,-4.50']), account: 'Card', dryRun: true });
    expect(preview.transfers).toEqual({ matched: 1, possible: 0 });
    expect(preview.preview.find((r) => r.amount === 300)!.transfer).toMatchObject({ kind: 'matched', with: { id: payment.id, account: 'Checking' } });
    const done = await run<L.ImportResult>('importStatement', { file: csv(['2026-04-03,PAYMENT RECEIVED,300.00', '2026-04-04,COFFEE,-4.50']), account: 'Card' });
    expect(done.transfers.matched).toBe(1);
    const line = (await L.getTransaction(books.ledger, acme.seq, payment.id)).lines[0];
    expect(line).toMatchObject({ kind: 'transfer', counterpartId: expect.any(String) });
    await expectTotalsMatchRows(books.ledger);
    await run('undoImport', { batchId: done.batchId });
    expect((await L.getTransaction(books.ledger, acme.seq, payment.id)).lines[0]).toMatchObject({ kind: 'transfer', counterpartId: null });
    await expectTotalsMatchRows(books.ledger);
  });

  it('shows a possible transfer, imported as it is unless the decision says transfer', async () => {
    const out = await run('addTransaction', { account: 'Checking', date: '2026-05-02', amount: '-120', description: 'TO SAVINGS' });
    const file = csv(['2026-05-04,FROM CHECKING,120.00']);
    const preview = await run<L.ImportResult>('importStatement', { file, account: 'Savings', dryRun: true });
    const row = preview.preview.find((r) => r.amount === 120)!;
    expect([preview.transfers, row.transfer?.kind, row.transfer?.with.id]).toEqual([{ matched: 0, possible: 1 }, 'possible', out.id]);
    const done = await run<L.ImportResult>('importStatement', { file, account: 'Savings', decisions: { [String(row.n)]: 'transfer' } });
    expect(done.transfers.matched).toBe(1);
    expect((await L.getTransaction(books.ledger, acme.seq, out.id)).lines[0]).toMatchObject({ kind: 'transfer', counterpartId: expect.any(String) });
    await expectTotalsMatchRows(books.ledger);
  });

  it(`finds an imported row's possible other sides up to ${TRANSFER_WINDOW_DAYS} days either way, of its currency and opposite amount, not one day more`, async () => {
    const day = '2026-05-15';
    const shift = (days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const w = TRANSFER_WINDOW_DAYS;
    const ids = [];
    for (const [days, amount] of [
      [-w - 1, -77],
      [-w, -77],
      [w, -77],
      [w + 1, -77],
      [0, 77],
      [0, -78],
    ] as const)
      ids.push((await run('addTransaction', { account: 'Checking', date: shift(days), amount: String(amount), description: `OUT ${days}` })).id as string);
    const file = csv([`${day},IN 77,77.00`, `${day},IN 78,-78.00`, `${shift(40)},ELSEWHERE,77.00`]);
    const preview = await run<L.ImportResult>('importStatement', { file, account: 'Savings', dryRun: true });
    const of = (description: string) => preview.preview.find((r) => r.description === description)!.transfer;
    // Two rows fit (the window's first and last day): the older one shown, two candidates.
    expect(of('IN 77')).toMatchObject({ kind: 'possible', candidates: 2, with: { id: ids[1] } });
    expect(of('IN 78')).toBeNull(); // -78 in Checking: the same sign, not the opposite
    expect(of('ELSEWHERE')).toBeNull();
    expect(preview.transfers).toEqual({ matched: 0, possible: 1 });
  });

  it('refuses the rows of a closed period by line, or leaves them out with skipLocked', async () => {
    await run('lockPeriod', { through: '2026-05-31' });
    const file = csv(['2026-05-30,LATE FEE,-10.00', '2026-06-02,LUNCH,-12.00']);
    const refused = await run<L.ImportResult>('importStatement', { file, account: 'Card' });
    expect(refused.batchId).toBeNull();
    expect(refused.errors).toEqual([{ line: 2, field: 'date', message: expect.stringContaining('closing date 2026-05-31') }]);
    const skipped = await run<L.ImportResult>('importStatement', { file, account: 'Card', skipLocked: true });
    expect([skipped.imported, skipped.skipped]).toEqual([1, 1]);
    await expectTotalsMatchRows(books.ledger);
  });
});
