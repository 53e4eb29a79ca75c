// Every P&L figure opens the general-ledger postings that add up to it (issue
// 42): a split row with tax (net amounts, each line in its category), an
// invoice and a bill (on their dates, or on the cash basis at their payments'
// in the share each pays), a parent's subtotal (it and the categories reported
// under it), a cost of sales category under an ordinary expense parent, an
// unrealized revaluation in the base currency; every page of a ledger read
// alike. On a real ledger file, through the desk operations.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { generalLedgerCsv } from '../src/main/exports/books-csv';
import { deskAs } from './support/desk';
import { tempLedger } from './support/env';
import { steadyRate } from './support/rates';

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
/** In minor units, -0 as 0 (an empty sum turned). */
const cents = (n: number) => Math.round(n * 100) + 0;

/** Every posting of a ledger, page by page (a small page, so that pages start and end inside days). */
async function allPostings(query: Record<string, unknown>, limit = 2): Promise<{ gl: L.GeneralLedger; data: L.LedgerPosting[] }> {
  const first = await desk<L.GeneralLedger>('generalLedger', { ...query, limit, offset: 0 });
  const data = [...first.data];
  for (let offset = limit; offset < first.meta.totalCount; offset += limit) data.push(...(await desk<L.GeneralLedger>('generalLedger', { ...query, limit, offset })).data);
  return { gl: first, data };
}

/** The ledger a P&L line opens (as the Reports screen links it): the category, with those under it for a parent's subtotal. */
const ledgerOf = (pl: L.ProfitAndLoss, l: L.PlLine) => ({
  account: `category:${l.code}`,
  from: pl.from,
  to: pl.to,
  basis: pl.basis,
  ...(l.parent && !l.direct ? { withChildren: true } : {}),
});

/** Each P&L figure against its ledger: the postings (every page) add up to it, with the sign turned (debits positive), as does `net`. */
async function expectFiguresOpenTheirLines(pl: L.ProfitAndLoss) {
  expect(pl.lines.length).toBeGreaterThan(0);
  for (const l of pl.lines) {
    const { gl, data } = await allPostings(ledgerOf(pl, l));
    expect(data).toHaveLength(gl.meta.totalCount);
    const sum = data.reduce((s, p) => s + cents(p.amount), 0);
    expect([l.code, l.direct ?? false, -sum + 0]).toEqual([l.code, l.direct ?? false, cents(l.total)]);
    expect(cents(gl.net)).toBe(sum);
    expect(cents(gl.endingBalance - gl.startingBalance)).toBe(sum);
    // The running balance runs on from page to page.
    let balance = cents(gl.startingBalance);
    for (const p of data) {
      balance += cents(p.amount);
      expect(cents(p.balance)).toBe(balance);
    }
  }
}

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'drill', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await L.setupTaxSet(ledger, org.seq, L.deskActor(), 'uk-vat');
  await desk('createAccount', { name: 'Bank', type: 'checking', openingBalance: '5000', openingDate: '2025-12-31' });
  const add = async (date: string, amount: string, description: string, categoryCode: string, taxCode?: string) =>
    (await desk('addTransaction', { account: 'Bank', date, amount, description, categoryCode, ...(taxCode ? { taxCode } : {}) })).id as string;
  // A split row with tax: 5200 at its net (100 + 20 VAT), 5000 zero rated.
  const mixed = await add('2026-02-02', '-130.00', 'Supermarket: cleaning and food', '5200', 'S');
  await desk('splitTransaction', { id: mixed, lines: ['5200=-120:cleaning@S', '5000=-10:food@Z'] });
  await add('2026-02-03', '-60.00', 'Software', '5100', 'S');
  await add('2026-02-03', '-15.00', 'Cloud', '5300');
  await add('2026-02-03', '-9.00', 'Sundries', '5000');
  await add('2026-05-11', '240.00', 'Consulting', '4000', 'S');
  // Cost of sales under an ordinary expense parent: reported apart, above gross profit.
  await desk('addCategory', { code: '5020', name: 'Materials', type: 'expense', parent: '5000', costOfSales: true });
  await add('2026-02-04', '-70.00', 'Timber', '5020');
  await add('2026-02-05', '-30.00', 'Screws', '5020');
  // An invoice paid in part after its quarter, and a bill paid in its own.
  await desk('addContact', { name: 'Client', customer: true });
  await desk('addContact', { name: 'Supplier', vendor: true });
  await desk('createInvoice', { customer: 'Client', date: '2026-03-20', issue: true, lines: ['Project;1;1000;4000;S', 'Support;1;200;4010;S'] });
  await desk('createBill', { vendor: 'Supplier', number: 'B1', date: '2026-03-25', lines: ['Tools;1;100;5000;S'] });
  await desk('payBill', { numbers: ['B1'], transactionId: (await desk('addTransaction', { account: 'Bank', date: '2026-03-30', amount: '-120', description: 'Supplier B1' })).id });
  await desk('payInvoice', {
    numbers: ['INV-0001'],
    transactionId: (await desk('addTransaction', { account: 'Bank', date: '2026-04-05', amount: '720', description: 'Client part' })).id,
  });
  // A second currency revalued at the end of June: the unrealized gain is in the P&L of the base currency.
  await steadyRate(ledger, org.seq, 'EUR', '0.8', '2025-01-01', '2026-06-27');
  await steadyRate(ledger, org.seq, 'EUR', '0.9', '2026-06-28', '2026-12-31');
  await desk('createAccount', { name: 'Euro', type: 'checking', currency: 'EUR' });
  await desk('addTransaction', { account: 'Euro', date: '2026-02-10', amount: '500', description: 'Euro sale', categoryCode: '4000' });
  await desk('revalue', { date: '2026-06-30' });
});

describe('a P&L figure and its general ledger', () => {
  it('reports a cost of sales category apart from its ordinary expense parent, with a gross profit', async () => {
    const pl = await desk<L.ProfitAndLoss>('profitAndLoss', { from: '2026-01-01', to: '2026-12-31' });
    expect(pl.sections.map((s) => s.section)).toEqual(['revenue', 'cost_of_sales', 'expenses']);
    expect(pl.lines.filter((l) => l.section === 'cost_of_sales').map((l) => [l.code, l.depth, l.total])).toEqual([['5020', 0, -100]]);
    const parent = pl.lines.find((l) => l.code === '5000' && !l.direct)!;
    expect(parent).toMatchObject({ section: 'expenses', parent: true });
    expect(parent.total).toBe(-(10 + 9 + 100 + 50 + 100 + 15)); // its own (split line, sundries, the bill) and 5100, 5200, 5300: not 5020
    expect(pl.grossProfit!.total).toBe(pl.revenue - 100);
  });

  it('adds up, on the accrual basis, to every figure: a split with tax, an invoice, a parent, an unrealized gain', async () => {
    for (const period of [
      { from: '2026-01-01', to: '2026-12-31' },
      { from: '2026-02-03', to: '2026-03-25' },
      { from: '2026-04-01', to: '2026-06-30' },
    ]) {
      await expectFiguresOpenTheirLines(await desk<L.ProfitAndLoss>('profitAndLoss', { ...period, basis: 'accrual' }));
    }
    const split = await desk<L.GeneralLedger>('generalLedger', { account: 'category:5200', from: '2026-02-01', to: '2026-02-28', limit: 10 });
    expect(split.data.map((p) => [p.description, p.memo, p.amount])).toEqual([['Supermarket: cleaning and food', 'cleaning', 100]]);
    const revalued = await desk<L.GeneralLedger>('generalLedger', { account: 'Unrealized exchange gains and losses', from: '2026-06-01', to: '2026-06-30', limit: 10 });
    expect(revalued.data.map((p) => [p.date, p.amount])).toEqual([['2026-06-30', -50]]);
  });

  it('adds up on the cash basis: documents at their payments, in the share each pays', async () => {
    for (const period of [
      { from: '2026-01-01', to: '2026-03-31' },
      { from: '2026-04-01', to: '2026-06-30' },
      { from: '2026-01-01', to: '2026-12-31' },
    ]) {
      await expectFiguresOpenTheirLines(await desk<L.ProfitAndLoss>('profitAndLoss', { ...period, basis: 'cash' }));
    }
    const revenue = await desk<L.GeneralLedger>('generalLedger', { account: 'category:4000', from: '2026-04-01', to: '2026-06-30', basis: 'cash', withChildren: true, limit: 10 });
    expect(revenue).toMatchObject({ basis: 'cash', account: { code: '4000', includes: [{ code: '4010', name: 'SaaS subscriptions' }] } });
    expect(revenue.data.map((p) => [p.date, p.category?.code, p.document?.number, p.other, p.amount])).toEqual([
      ['2026-04-05', '4000', 'INV-0001', 'Invoice INV-0001, paid', -500],
      ['2026-04-05', '4010', 'INV-0001', 'Invoice INV-0001, paid', -100],
      ['2026-05-11', '4000', undefined, 'Bank', -200],
    ]);
    // Its CSV names each posting's category.
    const csv = generalLedgerCsv(revenue).split('\r\n');
    expect(csv[0]).toBe('date,transaction,category,description,memo,other side,debit,credit,balance');
    expect(csv[3]).toMatch(/^2026-04-05,,4010 SaaS subscriptions,Client INV-0001,/);
  });

  it('refuses what only a category ledger takes, naming the field', async () => {
    await expect(desk('generalLedger', { account: 'Bank', withChildren: true, limit: 5 })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'withChildren' }],
    });
    await expect(desk('generalLedger', { account: 'suspense', basis: 'cash', limit: 5 })).rejects.toMatchObject({ details: [{ field: 'basis' }] });
  });
});
