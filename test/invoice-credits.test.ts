// A contact's credit (an overpayment) applied to a later invoice or bill
// (issue 29) on a real file: what it may take (the date, the amount), the
// document's balance and status, the aging at dates around it (its total the
// balance sheet's receivables throughout), the cash basis recognizing the
// share it pays on its day, what it blocks (undoing the payment that left the
// credit, a void), taking it off, the same for a vendor's credit on a bill,
// and the owner command; every total recounted.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { ownerCommand, tempLedger } from './support/env';

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const row = async (date: string, amount: string, description: string) => (await desk('addTransaction', { account: 'Bank', date, amount, description })).id as string;
const receivables = async (date: string) => (await L.balanceSheet(ctx.ledger, org.seq, { date })).assets.lines.find((l) => l.name === 'Accounts receivable')?.amount ?? 0;
const agingOf = async (date: string, payables = false) => desk<L.Aging>('aging', { date, payables });

let overpaid: string;

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'credits', name: 'Credit Co', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await desk('createAccount', { name: 'Bank', type: 'checking', openingBalance: '1000', openingDate: '2025-12-31' });
  await desk('addContact', { name: 'Client', customer: true });
  await desk('addContact', { name: 'Supplier', vendor: true });
  await desk('createInvoice', { customer: 'Client', date: '2026-01-10', dueDate: '2026-01-31', issue: true, lines: ['Work;1;100;4000'] });
  overpaid = await row('2026-01-20', '150', 'CLIENT INV-0001');
  expect((await desk<L.PaymentResult>('payInvoice', { numbers: ['INV-0001'], transactionId: overpaid })).credit).toBe(50);
  await desk('createInvoice', { customer: 'Client', date: '2026-02-01', dueDate: '2026-02-28', issue: true, lines: ['More work;1;80;4000'] });
});

describe("a customer's credit applied to a later invoice", () => {
  it('shows what could pay it; refuses a date before the invoice and more than the credit or the balance, naming the field', async () => {
    expect(await desk<L.Document>('showInvoice', { number: 'INV-0002' })).toMatchObject({ balance: 80, creditAvailable: 50 });
    expect((await desk<L.Document>('showInvoice', { number: 'INV-0001' })).creditAvailable).toBe(0); // paid
    await expect(desk('applyInvoiceCredit', { number: 'INV-0002', date: '2026-01-31' })).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'date' }] });
    await expect(desk('applyInvoiceCredit', { number: 'INV-0002', date: '2026-02-05', amount: '60' })).rejects.toMatchObject({
      details: [{ field: 'amount', message: expect.stringContaining('credit left on 2026-02-05 (50.00 GBP)') }],
    });
    await expect(desk('applyInvoiceCredit', { number: 'INV-0001' })).rejects.toMatchObject({ code: 'conflict', message: 'Invoice INV-0001 is paid.' });
    expect((await desk<L.Document>('showInvoice', { number: 'INV-0002' })).balance).toBe(80);
  });

  it('pays the invoice on its day: its balance, the aging around that day, receivables unchanged, the cash basis', async () => {
    const before = { aging: await agingOf('2026-02-04'), receivables: await receivables('2026-02-04') };
    const doc = await desk<L.Document>('applyInvoiceCredit', { number: 'INV-0002', date: '2026-02-05' });
    expect(doc).toMatchObject({ status: 'partially_paid', paid: 50, balance: 30, creditAvailable: 0 });
    expect(doc.settlements).toEqual([{ date: '2026-02-05', amount: 50, creditApplied: true }]);
    // The day before: the credit and the whole invoice; from its day: what is left of the invoice, no credit.
    expect(await agingOf('2026-02-04')).toEqual(before.aging);
    expect(before.aging.contacts[0]).toMatchObject({ name: 'Client', current: 80, credit: -50, total: 30 });
    const after = await agingOf('2026-02-05');
    expect(after.contacts[0]).toMatchObject({ current: 30, credit: 0, total: 30 });
    for (const date of ['2026-02-04', '2026-02-05', '2026-03-31']) expect(await receivables(date)).toBe((await agingOf(date)).total);
    expect(before.receivables).toBe(30);
    // Cash basis: the overpayment was nothing's revenue; the credit pays 50/80 of INV-0002 on the day it is applied.
    const cash = async (from: string, to: string) => (await L.profitAndLoss(ctx.ledger, org.seq, { from, to, basis: 'cash' })).revenue;
    expect([await cash('2026-01-01', '2026-01-31'), await cash('2026-02-01', '2026-02-04'), await cash('2026-02-05', '2026-02-28')]).toEqual([100, 0, 50]);
    expect(await desk<L.Aging>('aging', { date: '2026-02-05' })).toMatchObject({ total: 30 });
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('blocks what would take the applied credit away, and the void; taken off, the invoice asks it again', async () => {
    const credit = { code: 'conflict', message: expect.stringContaining('INV-0002') };
    await expect(desk('undoPayment', { transactionId: overpaid })).rejects.toMatchObject(credit);
    await expect(desk('categorizeTransactions', { ids: [overpaid], categoryCode: '4000' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(desk('deleteTransaction', { id: overpaid })).rejects.toMatchObject({ code: 'conflict' });
    await expect(desk('voidInvoice', { number: 'INV-0002', reason: 'wrong' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('unapply-credit INV-0002'),
    });
    // Nothing of those was written.
    expect((await desk<L.Document>('showInvoice', { number: 'INV-0001' })).status).toBe('paid');
    const back = await desk<L.Document>('unapplyInvoiceCredit', { number: 'INV-0002' });
    expect(back).toMatchObject({ status: 'sent', balance: 80, creditAvailable: 50, settlements: [] });
    expect((await agingOf('2026-02-05')).contacts[0]).toMatchObject({ current: 80, credit: -50, total: 30 });
    await expect(desk('unapplyInvoiceCredit', { number: 'INV-0002' })).rejects.toMatchObject({ code: 'conflict' });
    const log = (await L.listAudit(ctx.ledger, org.seq, { limit: 5, offset: 0 })).entries.map((e) => e.action);
    expect(log.slice(0, 2)).toEqual(['invoice.credit_unapplied', 'invoice.credit_applied']);
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('the owner command applies it, as the issue names the invoice commands', () => {
    const out = ownerCommand(ctx.dataDir)('invoice', 'apply-credit', 'INV-0002', '--amount', '20', '--date', '2026-02-10', '--org', 'credits', '--json');
    expect(JSON.parse(out)).toMatchObject({ number: 'INV-0002', balance: 60, creditAvailable: 30 });
  });
});

describe("a vendor's credit applied to a later bill", () => {
  it('a bill overpaid leaves a credit the next bill takes; payables unchanged', async () => {
    await desk('createBill', { vendor: 'Supplier', number: 'S-1', date: '2026-03-01', lines: ['Paper;1;40;5000'] });
    const paid = await row('2026-03-05', '-70', 'SUPPLIER S-1');
    expect((await desk<L.PaymentResult>('payBill', { numbers: ['S-1'], transactionId: paid })).credit).toBe(30);
    await desk('createBill', { vendor: 'Supplier', number: 'S-2', date: '2026-03-10', lines: ['Ink;1;25;5000'] });
    const before = await agingOf('2026-03-31', true);
    const bill = await desk<L.Document>('applyBillCredit', { number: 'S-2', date: '2026-03-12' });
    expect(bill).toMatchObject({ status: 'paid', balance: 0, paid: 25 });
    const after = await agingOf('2026-03-31', true);
    expect(after.contacts[0]).toMatchObject({ name: 'Supplier', current: 0, credit: -5, total: -5 });
    expect(after.total).toBe(before.total);
    await expect(desk('undoPayment', { transactionId: paid })).rejects.toMatchObject({ code: 'conflict' });
    await expectTotalsMatchRows(ctx.ledger);
  });
});
