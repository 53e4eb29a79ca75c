// Tax on lines and the return (issue 28): a quarter of UK books (standard,
// reduced, zero-rated, exempt and no-VAT sales and purchases; a split with two
// rates; a rate change inside the period; a reverse charge; a refund; a
// rounding) whose nine boxes were worked out by hand from HMRC's rules, equal
// to the report to the penny; an Australian BAS the same way; the tax control
// account in the hledger journal equal to what is payable; totals recounted.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';

async function books(slug: string, currency: string, set: string) {
  const { ledger, dir } = await tempLedger();
  const org = await L.createOrganization(ledger, { slug, currency });
  const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
  const add = async (date: string, amount: string, description: string, categoryCode: string, taxCode: string) =>
    (await desk('addTransaction', { account: 'Bank', date, amount, description, categoryCode, taxCode })).id as string;
  return { ledger, org, ctx, desk, add, setup: () => desk('setupTax', { set }) };
}

const uk = await books('uk', 'GBP', 'uk-vat');

describe('a UK VAT quarter', () => {
  const quarter = { from: '2026-01-01', to: '2026-03-31' };
  let ret: L.TaxReturn;

  beforeAll(async () => {
    await uk.setup();
    await uk.desk('createAccount', { name: 'Bank', type: 'checking', openingBalance: '5000', openingDate: '2025-12-31' });
    await uk.desk('setTaxRate', { code: 'R', from: '2026-02-15', rate: 10 }); // a rate change inside the quarter
    await uk.add('2026-01-05', '1200.00', 'Invoice 1 (standard)', '4000', 'S');
    await uk.add('2026-01-10', '105.00', 'Invoice 2 (reduced, 5%)', '4000', 'R');
    await uk.add('2026-02-20', '110.00', 'Invoice 3 (reduced, now 10%)', '4000', 'R');
    await uk.add('2026-01-12', '300.00', 'Export (zero rated)', '4010', 'Z');
    await uk.add('2026-01-15', '50.00', 'Exempt sale', '4000', 'E');
    await uk.add('2026-01-16', '20.00', 'Grant (outside the scope)', '4000', 'NV');
    await uk.add('2026-01-20', '-240.00', 'Software (standard)', '5100', 'S');
    const mixed = await uk.add('2026-02-02', '-130.00', 'Supermarket: cleaning and food', '5200', 'S');
    await uk.desk('splitTransaction', { id: mixed, lines: ['5200=-120:cleaning@S', '5000=-10:food@Z'] });
    await uk.add('2026-02-10', '-500.00', 'US consultancy (reverse charge)', '5100', 'RC');
    await uk.add('2026-03-01', '24.00', 'Software refund (standard)', '5100', 'S');
    await uk.add('2026-03-05', '-10.01', 'Cables (standard, rounding)', '5100', 'S');
    await uk.add('2026-04-02', '120.00', 'Next quarter', '4000', 'S');
    ret = await uk.desk('taxReport', quarter);
  });

  it('fills the nine boxes as HMRC Notice 700/12 says, to the penny', () => {
    // By hand: box 1 = 200 + 5 + 10 (sales) + 100 (reverse charge output); box 4 = 40 + 20 - 4 + 1.67 + 100;
    // box 6 = 1000 + 100 + 100 + 300 + 50 + 500 (reverse charge net); box 7 = 200 + 100 + 10 + 500 - 20 + 8.34.
    expect(ret.boxes).toEqual({ '1': 315, '2': 0, '3': 315, '4': 157.67, '5': 157.33, '6': 2050, '7': 798.34, '8': 0, '9': 0 });
    expect(ret.payable).toBe(157.33);
    expect(ret.codes.find((c) => c.code === 'R')).toMatchObject({ rate: 10, netSales: 200, taxSales: 15 });
    expect(ret.codes.find((c) => c.code === 'S')).toMatchObject({ netSales: 1000, taxSales: 200, netPurchases: 288.34, taxPurchases: 57.67 });
    expect(ret.codes.find((c) => c.code === 'NV')).toMatchObject({ netSales: 20, taxSales: 0 });
  });

  it('opens the lines behind every box: the tax audit report adds up to each figure', async () => {
    for (const [box, measure] of [
      ['1', 'tax'],
      ['4', 'tax'],
      ['6', 'net'],
      ['7', 'net'],
    ] as const) {
      const audit = await uk.desk<{ data: L.TaxAuditLine[] }>('taxAudit', { ...quarter, box, limit: 500 });
      const sum = audit.data.reduce((s, l) => s + Math.round(l[measure] * 100), 0) / 100;
      expect([box, sum]).toEqual([box, ret.boxes[box]]);
    }
    const reverse = await uk.desk<{ data: L.TaxAuditLine[] }>('taxAudit', { ...quarter, code: 'RC', limit: 10 });
    expect(reverse.data).toEqual([expect.objectContaining({ description: 'US consultancy (reverse charge)', side: 'purchases', net: 500, tax: 100, late: false })]);
  });

  it('posts the tax to the control account: the P&L sees net amounts, the balance sheet owes the tax, hledger agrees', async () => {
    const pl = await uk.desk<L.ProfitAndLoss>('profitAndLoss', quarter);
    expect(pl.revenue).toBe(1000 + 100 + 100 + 300 + 50 + 20);
    const bs = await uk.desk<L.BalanceSheet>('balanceSheet', { date: '2026-03-31' });
    expect(bs.liabilities.lines.find((l) => l.ref === 'tax-control')).toMatchObject({ name: 'Sales tax control', amount: 157.33 });
    expect(bs.assets.total).toBeCloseTo(bs.liabilitiesAndEquity, 6);
    const journal = join(tempDir(), 'uk.journal');
    await uk.desk('exportBooks', { format: 'hledger', out: journal, to: quarter.to });
    const bal = execFileSync('hledger', ['-f', journal, 'bal', '-N', '-O', 'csv', '-b', quarter.from, '-e', '2026-04-01', '^liabilities:sales tax control$'], { encoding: 'utf8' });
    expect(bal.trim().split('\n')[1]).toBe('"liabilities:sales tax control","-157.33 GBP"');
    const gl = await uk.desk<L.GeneralLedger>('generalLedger', { account: 'tax-control', from: quarter.from, to: quarter.to });
    expect(gl.endingBalance).toBe(-157.33);
    await expectTotalsMatchRows(uk.ledger);
  });

  it('keeps the lines summing to the row (half away from zero), re-taxes a row whose amount changes, and drops the tax when none is named', async () => {
    const id = await uk.add('2026-03-10', '-99.99', 'Chair', '5200', 'S');
    const lines = (await L.getTransaction(uk.ledger, uk.org.seq, id)).lines;
    expect(lines.map((l) => [l.kind, l.amount])).toEqual([
      ['category', -83.32],
      ['tax', -16.67], // 16.665: half away from zero
    ]);
    await uk.desk('editTransaction', { id, amount: '-120' });
    expect((await L.getTransaction(uk.ledger, uk.org.seq, id)).lines.map((l) => l.amount)).toEqual([-100, -20]);
    expect((await L.getTransaction(uk.ledger, uk.org.seq, id)).transaction).toMatchObject({ category: 'Office & rent', status: 'matched' });
    await uk.desk('categorizeTransactions', { ids: [id], categoryCode: '5200', taxCode: '' }); // no tax
    expect((await L.getTransaction(uk.ledger, uk.org.seq, id)).lines.map((l) => l.amount)).toEqual([-120]);
    await uk.desk('deleteTransaction', { id });
    // A hand entry typed net: the row is net + tax, the category line exactly the net.
    const typedNet = (
      await uk.desk('addTransaction', { account: 'Bank', date: '2026-03-11', amount: '-8.34', description: 'Net entry', categoryCode: '5100', taxCode: 'S', net: true })
    ).id;
    const entered = await L.getTransaction(uk.ledger, uk.org.seq, typedNet);
    expect([entered.transaction.amount, entered.lines.map((l) => l.amount)]).toEqual([-10.01, [-8.34, -1.67]]);
    await expect(uk.desk('addTransaction', { account: 'Bank', date: '2026-03-11', amount: '-5', description: 'No category', net: true })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'net', message: expect.stringContaining('needs a category') }],
    });
    await uk.desk('deleteTransaction', { id: typedNet });
    expect(L.taxInGross(-1001, 200_000)).toBe(-167);
    expect(L.taxInGross(-3, 200_000)).toBe(-1); // 0.5 of a penny, away from zero
    await expectTotalsMatchRows(uk.ledger);
  });
});

describe('filing a return', () => {
  it('keeps what was filed, refuses changes to its lines, puts a late row into the next return, refuses an overlap', async () => {
    const filed = await uk.desk<L.FiledReturn>('fileTaxReturn', { from: '2026-01-01', to: '2026-03-31' });
    expect(filed).toMatchObject({ from: '2026-01-01', to: '2026-03-31', payable: 157.33, lineCount: 12, filedBy: L.deskActor().name });
    expect(filed.report.boxes['5']).toBe(157.33);
    const software = (await uk.desk('register', { description: 'Software (standard)' })).data[0].id;
    await expect(uk.desk('categorizeTransactions', { ids: [software], categoryCode: '5000' })).rejects.toMatchObject({
      code: 'period_locked',
      details: { taxReturn: filed.id, from: '2026-01-01', to: '2026-03-31' },
    });
    await expect(uk.desk('editTransaction', { id: software, description: 'Software' })).rejects.toMatchObject({ code: 'period_locked' });
    // A row dated in the filed quarter, entered after filing: it goes into the next return, which says so.
    await uk.add('2026-03-28', '-60.00', 'Late invoice (standard)', '5100', 'S');
    const next = await uk.desk<L.TaxReturn>('taxReport', { from: '2026-04-01', to: '2026-06-30' });
    expect(next.lateLines).toBe(1);
    expect(next.boxes).toMatchObject({ '1': 20, '4': 10, '6': 100, '7': 50 });
    // A period that ends before it starts: said, for the report as for filing, not an empty return.
    for (const name of ['taxReport', 'fileTaxReturn'])
      await expect(uk.desk(name, { from: '2026-06-30', to: '2026-04-01' })).rejects.toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'to', message: 'is before from (2026-06-30)' }],
      });
    await expect(uk.desk('fileTaxReturn', { from: '2026-03-01', to: '2026-05-31' })).rejects.toMatchObject({ code: 'conflict' });
    const second = await uk.desk<L.FiledReturn>('fileTaxReturn', { from: '2026-04-01', to: '2026-06-30' });
    expect([second.lineCount, second.payable]).toEqual([2, 10]);
    expect((await uk.desk<L.FiledReturn[]>('listTaxReturns')).map((r) => r.to)).toEqual(['2026-06-30', '2026-03-31']);
    // The payment to HMRC, imported later, is matched with its return like a bill's payment.
    const hmrc = await uk.desk('addTransaction', { account: 'Bank', date: '2026-05-07', amount: '-157.33', description: 'HMRC VAT' });
    await uk.desk('addTransaction', { account: 'Bank', date: '2026-09-30', amount: '-157.33', description: 'TOO LATE' });
    const candidates = await uk.desk<L.TaxPaymentCandidate[]>('taxPaymentCandidates');
    expect(candidates.map((c) => [c.to, c.description])).toEqual([['2026-03-31', 'HMRC VAT']]);
    const paid = await uk.desk<L.FiledReturn>('payTaxReturn', { returnId: filed.id, transactionId: hmrc.id });
    expect(paid.paymentId).toBe(hmrc.id);
    expect((await L.getTransaction(uk.ledger, uk.org.seq, hmrc.id)).lines).toEqual([expect.objectContaining({ kind: 'tax', amount: -157.33 })]);
    // What is still owed: the second return's 10.00 only.
    const control = (await uk.desk<L.BalanceSheet>('balanceSheet', { date: '2026-06-30' })).liabilities.lines.find((l) => l.ref === 'tax-control')!;
    expect(control.amount).toBe(10);
    await expect(uk.desk('payTaxReturn', { returnId: filed.id, transactionId: hmrc.id })).rejects.toMatchObject({ code: 'conflict' });
    expect((await L.listAudit(uk.ledger, uk.org.seq, { action: 'tax.return_filed', limit: 5, offset: 0 })).entries.map((e) => e.summary)[1]).toBe(
      'Tax return filed for 2026-01-01 to 2026-03-31 (accrual basis): 12 line(s), payable 157.33 GBP',
    );
    await expectTotalsMatchRows(uk.ledger);
  });
});

describe('an Australian BAS', async () => {
  const au = await books('au', 'AUD', 'au-gst');

  it('fills G1 (sales with GST), 1A and 1B', async () => {
    await au.setup();
    await au.desk('createAccount', { name: 'Bank', type: 'checking' });
    await au.add('2026-07-03', '1100.00', 'Consulting', '4000', 'GST');
    await au.add('2026-07-04', '500.00', 'Export', '4000', 'FRE');
    await au.add('2026-07-05', '-330.00', 'Laptop', '5100', 'GST');
    await au.add('2026-07-06', '-200.00', 'Bank fees', '5000', 'INP');
    const bas = await au.desk<L.TaxReturn>('taxReport', { from: '2026-07-01', to: '2026-09-30' });
    expect(bas.boxes).toEqual({ G1: 1600, '1A': 100, '1B': 30 });
    expect(bas.payable).toBe(70);
    await expectTotalsMatchRows(au.ledger);
  });
});

describe('rules on taxed categories', () => {
  it("apply the category's default code: a rule categorizing at once writes net and tax lines, a split rule taxes each share", async () => {
    const books2 = await books('rules', 'GBP', 'uk-vat');
    await books2.setup();
    await books2.desk('createAccount', { name: 'Bank', type: 'checking' });
    await books2.desk('setCategoryTax', { categoryCode: '5100', taxCode: 'S' });
    const phone = await books2.desk('addTransaction', { account: 'Bank', date: '2026-02-01', amount: '-60', description: 'PHONE BILL 0042' });
    const tools = await books2.desk('addTransaction', { account: 'Bank', date: '2026-02-02', amount: '-120', description: 'FIGMA.COM 1234' });
    await books2.desk('createRule', { rule: { matchKind: 'contains', matchText: 'FIGMA', categoryCode: '5100', mode: 'apply' } });
    expect((await L.getTransaction(books2.ledger, books2.org.seq, tools.id)).lines.map((l) => [l.kind, l.amount])).toEqual([
      ['category', -100],
      ['tax', -20],
    ]);
    await books2.desk('createRule', {
      rule: {
        matchKind: 'contains',
        matchText: 'PHONE BILL',
        categoryCode: '5100',
        mode: 'apply',
        split: [
          { categoryCode: '5100', percent: 70 },
          { categoryCode: '5000', percent: 30 },
        ],
      },
    });
    expect((await L.getTransaction(books2.ledger, books2.org.seq, phone.id)).lines.map((l) => [l.kind, l.categoryCode, l.amount])).toEqual([
      ['category', '5100', -35],
      ['tax', null, -7],
      ['category', '5000', -18],
    ]);
    // A rule naming its own code: applied at once, and suggested (the approval takes the rule's code).
    const fuel = await books2.desk('addTransaction', { account: 'Bank', date: '2026-02-03', amount: '-105', description: 'HOME FUEL 77' });
    await books2.desk('createRule', { rule: { matchKind: 'contains', matchText: 'HOME FUEL', categoryCode: '5100', taxCode: 'r', mode: 'apply' } });
    expect((await L.getTransaction(books2.ledger, books2.org.seq, fuel.id)).lines.map((l) => l.amount)).toEqual([-100, -5]);
    const heat = await books2.desk('addTransaction', { account: 'Bank', date: '2026-02-04', amount: '-210', description: 'HEATING OIL 9' });
    await books2.desk('createRule', { rule: { matchKind: 'contains', matchText: 'HEATING OIL', categoryCode: '5100', taxCode: 'R', mode: 'suggest' } });
    const pending = (await L.listPendingProposals(books2.ledger, books2.org.seq, { limit: 5, offset: 0 })).proposals.find(
      (p) => 'transactionId' in p.payload && p.payload.transactionId === heat.id,
    )!;
    expect(pending.payload).toMatchObject({ categoryCode: '5100', taxCode: 'R' });
    await L.reviewProposal(books2.ledger, books2.org.seq, pending.id, 'approve', L.deskActor());
    expect((await L.getTransaction(books2.ledger, books2.org.seq, heat.id)).lines.map((l) => l.amount)).toEqual([-200, -10]);
    expect((await L.listRules(books2.ledger, books2.org.seq)).map((r) => r.taxCode)).toEqual([null, null, 'R', 'R']);
    await expectTotalsMatchRows(books2.ledger);
  });
});

describe("the benchmark's taxed books", () => {
  it('are balanced entries whose totals recount; the control account equals what the returns say is payable', async () => {
    const { fillDemo, BENCH_SHAPE } = await import('../src/main/demo');
    const t = await books('taxed', 'GBP', 'uk-vat');
    await t.setup();
    for (const [category, code] of [
      ['4000', 'S'],
      ['5100', 'S'],
      ['5200', 'R'],
      ['5300', 'RC'],
      ['5000', 'E'],
    ])
      await t.desk('setCategoryTax', { categoryCode: category, taxCode: code });
    await fillDemo(t.ledger, t.org.seq, 'taxed', 3000, 'GBP', { ...BENCH_SHAPE, tax: true });
    await expectTotalsMatchRows(t.ledger);
    const ret = await t.desk<L.TaxReturn>('taxReport', { from: '2023-01-01', to: '2026-12-31' });
    const bs = await t.desk<L.BalanceSheet>('balanceSheet', { date: '2026-12-31' });
    expect(bs.liabilities.lines.find((l) => l.ref === 'tax-control')!.amount).toBeCloseTo(ret.payable, 6);
    expect(bs.assets.total).toBeCloseTo(bs.liabilitiesAndEquity, 6);
  });
});
