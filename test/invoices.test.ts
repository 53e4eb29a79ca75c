// Invoices and bills (issue 29) on a real file: numbered invoices with tax
// per line, issued into the books (receivables, revenue, the tax control
// account), paid by bank rows (in full, in part, two by one row, too much:
// a credit), a credit note, a void; bills through payables; the aging's
// buckets at their edges and its total equal to the balance sheet's
// receivables; the PDF read back by pdftotext; every total recounted.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { BEANCOUNT_PAYABLE, BEANCOUNT_RECEIVABLE } from '../src/main/exports/beancount';
import { HLEDGER_PAYABLE, HLEDGER_RECEIVABLE } from '../src/main/exports/hledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { ownerCommand, tempDir, tempLedger } from './support/env';

const tool = (name: string) => {
  const found = ['/usr/bin', '/usr/local/bin'].map((d) => join(d, name)).find((p) => existsSync(p));
  if (!found) throw new Error(`${name} is not installed: "sudo apt-get install -y hledger beancount poppler-utils" (Debian/Ubuntu). These tests run the real tools.`);
  return found;
};

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const row = async (date: string, amount: string, description: string) => (await desk('addTransaction', { account: 'Bank', date, amount, description })).id as string;
const bs = (date: string) => L.balanceSheet(ctx.ledger, org.seq, { date });
const lineOf = (sheet: L.BalanceSheet, name: string) => [...sheet.assets.lines, ...sheet.liabilities.lines].find((l) => l.name === name)?.amount ?? 0;

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'studio', name: 'Studio Ωmega', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await L.setupTaxSet(ledger, org.seq, L.deskActor(), 'uk-vat');
  await desk('createAccount', { name: 'Bank', type: 'checking', openingBalance: '1000', openingDate: '2025-12-31' });
  await desk('addContact', { name: 'Ζωή Ångström & Co', customer: true, address: '1 Rue de la Paix\nParis', taxNumber: 'FR123', termsDays: 14 });
  await desk('addContact', { name: 'Борис Ltd', customer: true });
  await desk('addContact', { name: 'Paper Supplies', vendor: true, termsDays: 30 });
  await L.updateOrganization(ctx.ledger, org.id, { address: '2 High Street, London', taxNumber: 'GB999', paymentInstructions: 'Sort code 00-00-00, account 12345678' });
});

describe('invoices', () => {
  it('numbers a draft from the sequence, works out tax per line, and keeps it out of the books until issued', async () => {
    const inv = await desk<L.Document>('createInvoice', {
      customer: 'ζωή ångström & co',
      date: '2026-01-10',
      lines: ['Design work;10;85.00;4000;S', 'Printed book;2;12.50;4000;Z'],
    });
    expect(inv).toMatchObject({ number: 'INV-0001', status: 'draft', dueDate: '2026-01-24', net: 875, tax: 170, total: 1045, balance: 0 });
    expect(inv.taxes).toEqual([
      { taxCode: 'S', rate: 20, net: 850, tax: 170 },
      { taxCode: 'Z', rate: 0, net: 25, tax: 0 },
    ]);
    expect(lineOf(await bs('2026-01-31'), 'Accounts receivable')).toBe(0);
    const issued = await desk<L.Document>('issueInvoice', { number: 'inv-0001' });
    expect(issued).toMatchObject({ status: 'sent', balance: 1045 });
    const sheet = await bs('2026-01-31');
    expect(lineOf(sheet, 'Accounts receivable')).toBe(1045);
    expect(lineOf(sheet, 'Sales tax control')).toBe(170);
    expect(sheet.assets.total).toBe(sheet.liabilitiesAndEquity);
    const pl = await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-01-01', to: '2026-01-31' });
    expect(pl.revenue).toBe(875);
    await expect(desk('issueInvoice', { number: 'INV-0001' })).rejects.toMatchObject({ code: 'conflict' });
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('refuses bad lines naming each field, and nothing is written', async () => {
    const before = (await desk<L.Document[]>('listInvoices')).length;
    await expect(desk('createInvoice', { customer: 'Борис Ltd', lines: ['Work;0;10;4000', 'Ink;1;5;5000', 'Other;1;abc;4000;XX'] })).rejects.toMatchObject({
      code: 'validation_failed',
      details: expect.arrayContaining([
        expect.objectContaining({ field: 'lines[0].quantity' }),
        expect.objectContaining({ field: 'lines[1].categoryCode' }),
        expect.objectContaining({ field: 'lines[2].unitPrice' }),
        expect.objectContaining({ field: 'lines[2].taxCode' }),
      ]),
    });
    await expect(desk('createInvoice', { customer: 'Paper Supplies', lines: ['Work;1;10;4000'] })).rejects.toMatchObject({ details: [{ field: 'customer' }] });
    expect((await desk<L.Document[]>('listInvoices')).length).toBe(before);
  });

  it('a bank row pays it in full: receivables back to zero, revenue counted once', async () => {
    const id = await row('2026-01-20', '1045.00', 'FASTER PAYMENT ANGSTROM INV-0001');
    const paid = await desk<L.PaymentResult>('payInvoice', { numbers: ['INV-0001'], transactionId: id });
    expect(paid.documents[0]).toMatchObject({ status: 'paid', paid: 1045, balance: 0 });
    expect(lineOf(await bs('2026-01-31'), 'Accounts receivable')).toBe(0);
    expect((await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-01-01', to: '2026-01-31' })).revenue).toBe(875);
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('part payments, two invoices paid by one row, and an overpayment left as a credit', async () => {
    const a = await desk<L.Document>('createInvoice', { customer: 'Борис Ltd', date: '2026-02-01', dueDate: '2026-02-28', issue: true, lines: ['Consulting;1;100;4000;S'] });
    const b = await desk<L.Document>('createInvoice', { customer: 'Борис Ltd', date: '2026-02-02', dueDate: '2026-02-28', issue: true, lines: ['Consulting;2;100;4000;S'] });
    expect([a.number, b.number, a.total, b.total]).toEqual(['INV-0002', 'INV-0003', 120, 240]);
    const part = await row('2026-02-10', '50', 'BORIS PART');
    expect((await desk<L.PaymentResult>('payInvoice', { numbers: ['INV-0002'], transactionId: part })).documents[0]).toMatchObject({ status: 'partially_paid', balance: 70 });
    await expect(desk('payInvoice', { numbers: ['INV-0003'], transactionId: part })).rejects.toMatchObject({ code: 'validation_failed' });
    const both = await row('2026-02-20', '320', 'BORIS INV-0002 INV-0003');
    const r = await desk<L.PaymentResult>('payInvoice', { numbers: ['INV-0002', 'INV-0003'], transactionId: both });
    expect(r.documents.map((d) => d.status)).toEqual(['paid', 'paid']);
    expect(r.credit).toBe(10);
    expect(lineOf(await bs('2026-02-28'), 'Accounts receivable')).toBe(-10);
    const aging = await desk<L.Aging>('aging', { date: '2026-02-28' });
    expect(aging.contacts).toEqual([expect.objectContaining({ name: 'Борис Ltd', credit: -10, total: -10 })]);
    // Undone: both invoices are owed again, the row uncategorized.
    await desk('undoPayment', { transactionId: both });
    expect((await desk<L.Document>('showInvoice', { number: 'INV-0003' })).status).toBe('sent');
    expect(lineOf(await bs('2026-02-28'), 'Accounts receivable')).toBe(310);
    await desk('payInvoice', { numbers: ['INV-0002', 'INV-0003'], transactionId: both });
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('a credit note reduces what is owed; a void reverses the entry and keeps the number', async () => {
    const c = await desk<L.Document>('createInvoice', { customer: 'Борис Ltd', date: '2026-03-01', issue: true, lines: ['Workshop;1;500;4000;S'] });
    const note = await desk<L.Document>('creditInvoice', { number: c.number, date: '2026-03-05', lines: ['Workshop discount;1;100;4000;S'] });
    expect(note).toMatchObject({ number: 'CN-0001', kind: 'credit_note', total: 120, credits: c.number });
    expect(await desk<L.Document>('showInvoice', { number: c.number })).toMatchObject({ credited: 120, balance: 480, status: 'partially_paid' });
    await expect(desk('creditInvoice', { number: c.number, lines: ['Too much;1;1000;4000;S'] })).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(desk('voidInvoice', { number: c.number })).rejects.toMatchObject({ code: 'conflict' });
    await desk('voidInvoice', { number: 'CN-0001', reason: 'issued in error', date: '2026-03-06' });
    const voided = await desk<L.Document>('voidInvoice', { number: c.number, reason: 'wrong customer', date: '2026-03-06' });
    expect(voided).toMatchObject({ status: 'void', balance: 0, voidReason: 'wrong customer' });
    // Boris's statement for March: what it owed, the invoice, its credit note and both voids, and the running balance.
    const st = await desk<L.ContactStatement>('contactStatement', { contact: 'Борис Ltd', from: '2026-03-01', to: '2026-03-31' });
    expect(st.lines.map((l) => [l.what, l.amount])).toEqual([
      [`Invoice ${c.number}`, 600],
      ['Credit note CN-0001', -120],
      ['Credit note CN-0001 voided', 120],
      [`Invoice ${c.number} voided`, -600],
    ]);
    expect([st.opening, st.closing]).toEqual([-10, -10]);
    expect((await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-03-01', to: '2026-03-31' })).revenue).toBe(0);
    const next = await desk<L.Document>('createInvoice', { customer: 'Борис Ltd', date: '2026-03-07', lines: ['Again;1;1;4000'] });
    expect(next.number).toBe('INV-0005');
    expect((await L.listAudit(ctx.ledger, org.seq, { limit: 50, offset: 0 })).entries.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'invoice.created',
        'invoice.issued',
        'invoice.voided',
        'credit_note.issued',
        'credit_note.voided',
        'transaction.payment',
        'transaction.payment_undone',
      ]),
    );
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('prints a PDF whose text a PDF tool reads: number, names in any script, totals', async () => {
    const out = join(tempDir(), 'inv.pdf');
    await desk('invoicePdf', { number: 'INV-0001', out });
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync(tool('pdftotext'), ['-layout', out, '-'], { encoding: 'utf8' });
    for (const expected of ['INVOICE', 'INV-0001', 'Studio Ωmega', 'Ζωή Ångström & Co', 'GB999', '1,045.00', 'Sort code 00-00-00', 'Design work']) expect(text).toContain(expected);
  });

  it('prints Chinese, Japanese and Korean names in a CJK font of the machine, as real text', async () => {
    if (!L.cjkFallback()) throw new Error('No CJK font on this machine: "sudo apt-get install -y fonts-wqy-microhei" (Debian/Ubuntu), or set LEDGERDESK_CJK_FONT.');
    await desk('addContact', { name: '山田商事株式会社', customer: true, address: '東京都千代田区丸の内1-1' });
    const inv = await desk<L.Document>('createInvoice', { customer: '山田商事株式会社', date: '2026-01-20', lines: ['設計作業 한국어 design;2;100;4000;S'], issue: true });
    const out = join(tempDir(), 'cjk.pdf');
    await desk('invoicePdf', { number: inv.number, out });
    const text = execFileSync(tool('pdftotext'), [out, '-'], { encoding: 'utf8' });
    for (const expected of ['山田商事株式会社', '東京都千代田区丸の内1-1', '設計作業 한국어 design', 'Studio Ωmega', '240.00']) expect(text).toContain(expected);
    expect(execFileSync(tool('pdffonts'), [out], { encoding: 'utf8' })).toMatch(/DejaVuSans[\s\S]*(WenQuanYi|NotoSansCJK|PingFang|YaHei|Gothic|Arial)/);
    await desk('voidInvoice', { number: inv.number });
  });
});

describe('bills and the aging', () => {
  it('a bill owes the vendor through payables; paid from the bank', async () => {
    const bill = await desk<L.Document>('createBill', { vendor: 'Paper Supplies', number: 'PS-77', date: '2026-01-05', lines: ['Paper;10;6.00;5000;S'] });
    expect(bill).toMatchObject({ status: 'open', total: 72, dueDate: '2026-02-04' });
    await expect(desk('createBill', { vendor: 'Paper Supplies', number: 'ps-77', lines: ['Paper;1;1;5000'] })).rejects.toMatchObject({ code: 'conflict' });
    expect(lineOf(await bs('2026-01-31'), 'Accounts payable')).toBe(72);
    const id = await row('2026-02-03', '-72', 'PAPER SUPPLIES PS-77');
    expect((await desk<L.PaymentResult>('payBill', { numbers: ['PS-77'], transactionId: id })).documents[0].status).toBe('paid');
    expect(lineOf(await bs('2026-02-28'), 'Accounts payable')).toBe(0);
    // Reverse charge on a bill: no tax charged, its notional tax on the line for the return; a share not recoverable stays in the cost.
    const rc = await desk<L.Document>('createBill', { vendor: 'Paper Supplies', number: 'PS-78', date: '2026-03-01', lines: ['Software;1;100;5000;RC'] });
    expect([rc.total, rc.tax]).toEqual([100, 0]);
    expect(await desk<L.Aging>('aging', { payables: true, date: '2026-06-30' })).toMatchObject({ total: 100, totals: { over90: 100 } });
    const vendor = await desk<L.ContactStatement>('contactStatement', { contact: 'Paper Supplies', from: '2026-02-01', to: '2026-03-31' });
    expect(vendor).toMatchObject({ side: 'payables', opening: 72, closing: 100 });
    expect(vendor.lines.map((l) => [l.date, l.amount, l.balance])).toEqual([
      ['2026-02-03', -72, 0],
      ['2026-03-01', 100, 100],
    ]);
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('buckets open invoices by days past due at their edges; the total is the balance sheet receivables', async () => {
    const due = (dueDate: string, n: number) =>
      desk<L.Document>('createInvoice', { customer: 'Ζωή Ångström & Co', date: '2026-01-01', dueDate, issue: true, lines: [`Item;1;${n};4000`] });
    await due('2026-06-30', 1); // due on the aging date: current
    await due('2026-06-29', 2); // 1 day past
    await due('2026-05-31', 4); // 30 days
    await due('2026-05-30', 8); // 31 days
    await due('2026-04-01', 16); // 90 days
    await due('2026-03-31', 32); // 91 days
    const aging = await desk<L.Aging>('aging', { receivables: true, date: '2026-06-30' });
    const zoe = aging.contacts.find((c) => c.name.startsWith('Ζωή'))!;
    expect([zoe.current, zoe.days1to30, zoe.days31to60, zoe.days61to90, zoe.over90]).toEqual([1, 6, 8, 16, 32]);
    expect(aging.total).toBe(lineOf(await bs('2026-06-30'), 'Accounts receivable'));
    const before = await desk<L.Aging>('aging', { date: '2026-01-15' });
    expect(before.contacts.find((c) => c.name.startsWith('Ζωή'))!.current).toBe(1045 + 63);
  });

  it("the general ledger opens receivables and revenue with the documents' postings beside bank lines, paged with a running balance", async () => {
    const date = '2026-06-30';
    const gl = (account: string, limit: number, offset: number) => L.generalLedger(ctx.ledger, org.seq, { account, to: date, limit, offset });
    const all = await gl('receivables', 500, 0);
    expect(all.account).toMatchObject({ ref: 'receivables', name: 'Accounts receivable', class: 'asset' });
    expect(all.endingBalance).toBe(lineOf(await bs(date), 'Accounts receivable'));
    expect(all.data.some((p) => p.document?.number === 'INV-0001' && p.other.startsWith('Invoice'))).toBe(true);
    expect(all.data.some((p) => p.transactionId && p.memo?.startsWith('Payment of invoice'))).toBe(true);
    // Paged: every page's running balance continues the one before.
    const [first, second] = [await gl('receivables', 7, 0), await gl('receivables', 7, 7)];
    expect([...first.data, ...second.data].map((p) => p.balance)).toEqual(all.data.slice(0, 14).map((p) => p.balance));
    expect(all.data.at(-1)!.balance).toBe(all.endingBalance);
    const revenue = await gl('4000', 500, 0);
    expect(revenue.data.filter((p) => p.document).length).toBeGreaterThan(5);
    expect(revenue.data.at(-1)!.balance).toBe(revenue.endingBalance);
  });

  it('the exports carry receivables and payables: hledger and bean-query read the aging totals', async () => {
    const date = '2026-06-30';
    const dir = tempDir();
    const journal = join(dir, 'books.journal');
    const beancount = join(dir, 'books.beancount');
    await desk('exportBooks', { format: 'hledger', out: journal });
    await desk('exportBooks', { format: 'beancount', out: beancount });
    const hledger = (account: string) =>
      Number(
        execFileSync(tool('hledger'), ['-f', journal, 'bal', account, '-e', '2026-07-01', '-N', '-O', 'csv'], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .at(-1)!
          .split(',')[1]
          ?.replace(/"/g, '')
          .replace(/[^0-9.-]/g, '') || 0,
      );
    const receivables = (await desk<L.Aging>('aging', { date })).total;
    const payables = (await desk<L.Aging>('aging', { payables: true, date })).total;
    expect(receivables).toBe(lineOf(await bs(date), 'Accounts receivable'));
    expect(hledger(HLEDGER_RECEIVABLE)).toBeCloseTo(receivables, 2);
    expect(-hledger(HLEDGER_PAYABLE)).toBeCloseTo(payables, 2);
    execFileSync(tool('bean-check'), [beancount]);
    const query = execFileSync(tool('bean-query'), ['-f', 'csv', beancount, `SELECT account, sum(number) AS total WHERE date <= ${date} GROUP BY account`], { encoding: 'utf8' });
    const totals = new Map(
      query
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => [l.split(',')[0].trim(), Number(l.split(',')[1])] as const),
    );
    expect(totals.get(BEANCOUNT_RECEIVABLE)).toBeCloseTo(receivables, 2);
    expect(-(totals.get(BEANCOUNT_PAYABLE) ?? 0)).toBeCloseTo(payables, 2);
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('accrual and cash basis', () => {
  it('the same quarter: accrual by invoice and bill dates, cash by payments in proportion, in the P&L and the tax return', async () => {
    const other = await L.createOrganization(ctx.ledger, { slug: 'cashco', currency: 'GBP' });
    const d = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, other.id, name, input);
    await L.setupTaxSet(ctx.ledger, other.seq, L.deskActor(), 'uk-vat');
    await d('createAccount', { name: 'Bank', type: 'checking' });
    await d('addContact', { name: 'Client', customer: true });
    await d('addContact', { name: 'Supplier', vendor: true });
    await d('createInvoice', { customer: 'Client', date: '2026-03-20', issue: true, lines: ['Project;1;1000;4000;S'] });
    await d('createBill', { vendor: 'Supplier', number: 'B1', date: '2026-03-25', lines: ['Tools;1;100;5000;S'] });
    const paidBill = (await d('addTransaction', { account: 'Bank', date: '2026-03-30', amount: '-120', description: 'Supplier B1' })).id;
    await d('payBill', { numbers: ['B1'], transactionId: paidBill });
    const half = (await d('addTransaction', { account: 'Bank', date: '2026-04-05', amount: '600', description: 'Client part' })).id;
    await d('payInvoice', { numbers: ['INV-0001'], transactionId: half });
    const q1 = { from: '2026-01-01', to: '2026-03-31' };
    const q2 = { from: '2026-04-01', to: '2026-06-30' };
    const pl = (q: { from: string; to: string }, basis: 'cash' | 'accrual') => L.profitAndLoss(ctx.ledger, other.seq, { ...q, basis });
    const vat = (q: { from: string; to: string }, basis: 'cash' | 'accrual') => L.taxReturn(ctx.ledger, other.seq, { ...q, basis });
    expect([(await pl(q1, 'accrual')).revenue, (await pl(q1, 'accrual')).expenses, (await pl(q2, 'accrual')).revenue]).toEqual([1000, -100, 0]);
    expect([(await pl(q1, 'cash')).revenue, (await pl(q1, 'cash')).expenses, (await pl(q2, 'cash')).revenue]).toEqual([0, -100, 500]);
    expect([(await vat(q1, 'accrual')).boxes['1'], (await vat(q1, 'accrual')).boxes['4'], (await vat(q1, 'accrual')).payable]).toEqual([200, 20, 180]);
    expect([(await vat(q1, 'cash')).boxes['1'], (await vat(q1, 'cash')).boxes['4'], (await vat(q1, 'cash')).payable]).toEqual([0, 20, -20]);
    expect([(await vat(q2, 'cash')).boxes['1'], (await vat(q2, 'cash')).boxes['6'], (await vat(q2, 'accrual')).boxes['1']]).toEqual([100, 500, 0]);
    // The tax audit lists the documents' lines behind each box, on the basis asked, adding up to the box.
    const audit = async (q: { from: string; to: string }, box: string, basis: 'cash' | 'accrual') =>
      (await d<{ data: L.TaxAuditLine[] }>('taxAudit', { ...q, box, basis, limit: 100 })).data;
    const box1 = await audit(q1, '1', 'accrual');
    expect(box1.map((l) => [l.document?.number, l.description, l.tax])).toEqual([['INV-0001', 'Invoice INV-0001 Client', 200]]);
    expect((await audit(q1, '4', 'accrual')).reduce((s, l) => s + l.tax, 0)).toBe(20);
    expect(await audit(q1, '1', 'cash')).toEqual([]);
    expect((await audit(q2, '1', 'cash')).map((l) => [l.document?.number, l.date, l.tax])).toEqual([['INV-0001', '2026-04-05', 100]]);
    // The organization's setting is the P&L's default; the command takes --basis.
    expect((await pl(q1, undefined as never)).basis).toBe('accrual');
    await L.updateOrganization(ctx.ledger, other.id, { reportBasis: 'cash' });
    expect(await L.profitAndLoss(ctx.ledger, other.seq, q2)).toMatchObject({ basis: 'cash', revenue: 500 });
    // Returns on the accrual basis: once Q1 is filed, an invoice (or a void) dated in it would be in no return: refused.
    await L.updateTaxSettings(ctx.ledger, other.seq, L.deskActor(), { basis: 'accrual' });
    const spare = await d<L.Document>('createInvoice', { customer: 'Client', date: '2026-03-21', issue: true, lines: ['Spare;1;10;4000;S'] });
    // Filed without naming a basis: the organization's (the Tax screen shows and files the same return).
    expect((await d<L.FiledReturn>('fileTaxReturn', q1)).report.basis).toBe('accrual');
    await expect(d('createInvoice', { customer: 'Client', date: '2026-03-28', issue: true, lines: ['Late;1;10;4000;S'] })).rejects.toMatchObject({
      code: 'period_locked',
      message: expect.stringContaining('would be in no return. Date it after 2026-03-31'),
    });
    await expect(d('voidInvoice', { number: spare.number, date: '2026-03-31' })).rejects.toMatchObject({ code: 'period_locked' });
    await d('voidInvoice', { number: spare.number, date: '2026-04-01' }); // its reversal in the next return
    await d('createInvoice', { customer: 'Client', date: '2026-04-02', issue: true, lines: ['On time;1;10;4000;S'] });
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('payments matched from an imported bank file', () => {
  it('pays the invoice a row names (exact and unique), suggests the one it only names by customer, undoable', async () => {
    const o = await L.createOrganization(ctx.ledger, { slug: 'matchco', currency: 'GBP' });
    const d = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, o.id, name, input);
    await d('createAccount', { name: 'Bank', type: 'checking' });
    await d('addContact', { name: 'Hargreaves Joinery Ltd', customer: true });
    await d('createInvoice', { customer: 'Hargreaves Joinery Ltd', date: '2026-05-01', issue: true, lines: ['Doors;2;150;4000'] });
    await d('createInvoice', { customer: 'Hargreaves Joinery Ltd', date: '2026-05-02', issue: true, lines: ['Frames;1;80;4000'] });
    const file = join(tempDir(), 'bank.csv');
    writeFileSync(file, 'Date,Description,Amount\n2026-05-20,HARGREAVES INV 0001,300.00\n2026-05-21,HARGREAVES JOINERY,80.00\n2026-05-22,COFFEE,-3.00\n');
    const r = await d<L.ImportResult>('importStatement', { file, account: 'Bank' });
    expect(r.payments).toEqual({ matched: 1, possible: 1 });
    expect((await d<L.Document>('showInvoice', { number: 'INV-0001' })).status).toBe('paid');
    const [s] = await d<L.PaymentSuggestion[]>('suggestPayments');
    expect(s).toMatchObject({ amount: 80, kind: 'invoice', exact: false, documents: [{ number: 'INV-0002' }] });
    await d('payInvoice', { numbers: ['INV-0002'], transactionId: s.transactionId });
    expect((await L.aging(ctx.ledger, o.seq, 'receivables', '2026-05-31')).total).toBe(0);
    const paid = (await d<L.Document>('showInvoice', { number: 'INV-0001' })).settlements[0].transactionId!;
    await d('undoPayment', { transactionId: paid });
    expect((await d<L.Document>('showInvoice', { number: 'INV-0001' })).status).toBe('sent');
    expect((await L.listAudit(ctx.ledger, o.seq, { limit: 20, offset: 0 })).entries.some((e) => e.summary.startsWith('Matched on import'))).toBe(true);
    // A payment by a person is work done on the import's rows (also one the import had made, undone and made
    // again by hand): the import is undone once those payments are.
    await d('payInvoice', { numbers: ['INV-0001'], transactionId: paid });
    await expect(d('undoImport', { batchId: r.batchId })).rejects.toMatchObject({ code: 'conflict', details: { categorized: 2 } });
    await d('undoPayment', { transactionId: paid });
    await d('undoPayment', { transactionId: s.transactionId });
    await d('undoImport', { batchId: r.batchId });
    expect((await L.aging(ctx.ledger, o.seq, 'receivables', '2026-05-31')).total).toBe(380);
    await expectTotalsMatchRows(ctx.ledger);

    // The payment the import made itself is its own work: undoing the import undoes it, the invoice owes again.
    const again = await d<L.ImportResult>('importStatement', { file, account: 'Bank' });
    expect(again.payments).toEqual({ matched: 1, possible: 1 });
    expect((await d<L.Document>('showInvoice', { number: 'INV-0001' })).status).toBe('paid');
    await d('undoImport', { batchId: again.batchId });
    expect(await d<L.Document>('showInvoice', { number: 'INV-0001' })).toMatchObject({ status: 'sent', balance: 300, settlements: [] });
    expect((await L.aging(ctx.ledger, o.seq, 'receivables', '2026-05-31')).total).toBe(380);
    expect((await L.listAudit(ctx.ledger, o.seq, { limit: 1, offset: 0 })).entries[0].summary).toMatch(/1 payment\(s\) it had matched undone/);
    // ... unless a person categorized the row since.
    const third = await d<L.ImportResult>('importStatement', { file, account: 'Bank' });
    const own = (await d<L.Document>('showInvoice', { number: 'INV-0001' })).settlements[0].transactionId!;
    await d('categorizeTransactions', { ids: [own], categoryCode: '4000' });
    await expect(d('undoImport', { batchId: third.batchId })).rejects.toMatchObject({ code: 'conflict', details: { categorized: 1 } });
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('from the command line', () => {
  it('contact add, invoice create/issue/show/pdf/pay, report aging and pl --basis, as the issue names them', () => {
    const data = tempDir();
    const run = ownerCommand(data);
    run('account', 'create', 'Bank', '--type', 'checking');
    run('contact', 'add', 'Globex', '--kind', 'both', '--terms', '14', '--address', '1 Main St, Springfield');
    const made = JSON.parse(run('invoice', 'create', '--customer', 'Globex', '--date', '2026-02-01', '--line', 'Design; 10; 85.00; 4000', '--line', 'Hosting;1;20;4010', '--json'));
    expect(made).toMatchObject({ number: 'INV-0001', status: 'draft', net: 870, tax: 0, total: 870, dueDate: '2026-02-15' });
    expect(run('invoice', 'create', '--customer', 'Globex', '--date', '2026-02-02', '--line', 'More;1;5;4000')).toMatch(/^INV-0002\n/);
    run('invoice', 'issue', 'INV-0001');
    const out = join(data, 'inv.pdf');
    run('invoice', 'pdf', 'INV-0001', '--out', out);
    expect(execFileSync(tool('pdftotext'), [out, '-'], { encoding: 'utf8' })).toContain('870.00');
    const id = JSON.parse(run('tx', 'add', '--account', 'Bank', '--date', '2026-02-10', '--amount', '500', '--description', 'GLOBEX', '--json')).id;
    run('invoice', 'pay', 'INV-0001', '--transaction', id, '--amount', '500');
    expect(JSON.parse(run('invoice', 'show', 'INV-0001', '--json'))).toMatchObject({ status: 'partially_paid', total: 870, paid: 500, balance: 370, dueDate: '2026-02-15' });
    expect(JSON.parse(run('invoice', 'list', '--status', 'partially_paid', '--json')).map((d: L.Document) => d.number)).toEqual(['INV-0001']);
    const aging = JSON.parse(run('report', 'aging', '--receivables', '--date', '2026-03-01', '--json'));
    expect(aging).toMatchObject({ contacts: [{ name: 'Globex', current: 0, days1to30: 370, days31to60: 0, days61to90: 0, over90: 0, total: 370 }], total: 370 });
    expect(JSON.parse(run('report', 'pl', '--from', '2026-02-01', '--to', '2026-02-28', '--basis', 'cash', '--json')).revenue).toBe(500);
    expect(JSON.parse(run('report', 'pl', '--from', '2026-02-01', '--to', '2026-02-28', '--basis', 'accrual', '--json')).revenue).toBe(870);
    run('bill', 'create', '--vendor', 'Globex', '--number', 'G-1', '--date', '2026-02-03', '--line', 'Licence;1;50;5100');
    expect(run('bill', 'list')).toContain('G-1');
    expect(run('invoice', 'void', 'INV-0002', '--reason', 'duplicate')).toContain('void');
  });
});
