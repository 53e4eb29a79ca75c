// What an invoice or bill takes when the person leaves it (issue 50), through
// the desk operations the screens and owner commands run, on both engines: a
// line's tax code (the contact's default, else the category's: the screen asks
// the ledger, and a line sent without one takes it), and a void's date (the
// document's own while its period is open, else the first open day after the
// closing date or a filed return; a date named inside either is refused).
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { tempLedger } from './support/env';

let ctx: DeskContext;

/** A UK VAT organization of its own (each test its own closing date and returns), its revenue category standard-rated. */
async function organization(slug: string) {
  const org = await L.createOrganization(ctx.ledger, { slug, name: 'Hartley Studio', currency: 'GBP' });
  const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
  await L.setupTaxSet(ctx.ledger, org.seq, L.deskActor(), 'uk-vat');
  await L.updateTaxSettings(ctx.ledger, org.seq, L.deskActor(), { basis: 'accrual' });
  await desk('setCategoryTax', { categoryCode: '4000', taxCode: 'S' });
  await desk('addContact', { name: 'Northwind Ltd', customer: true });
  return { org, desk };
}

const lineOf = (sheet: L.BalanceSheet, name: string) => sheet.assets.lines.find((l) => l.name === name)?.amount ?? 0;

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
});

describe("a line's tax code when none is chosen", () => {
  it("is the contact's default, else the category's, as the screen is told and as a line sent without one takes it", async () => {
    const { org, desk } = await organization('lines');
    await desk('addContact', { name: 'Exporter GmbH', customer: true, country: 'DE', taxCode: 'Z' });
    expect(await desk('lineTaxDefaults', { categoryCodes: ['4000', '4010'] })).toEqual([
      { categoryCode: '4000', taxCode: 'S' },
      { categoryCode: '4010', taxCode: null },
    ]);
    expect(await desk('lineTaxDefaults', { contact: 'Northwind Ltd', categoryCodes: ['4000'] })).toEqual([{ categoryCode: '4000', taxCode: 'S' }]);
    expect(await desk('lineTaxDefaults', { contact: 'Exporter GmbH', categoryCodes: ['4000', '4010'] })).toEqual([
      { categoryCode: '4000', taxCode: 'Z' },
      { categoryCode: '4010', taxCode: 'Z' },
    ]);
    // What the Invoices screen sends: a line whose code the person did not pick names none; one set to "No tax" says null.
    const issued = await desk<L.Document>('createInvoice', {
      customer: 'Northwind Ltd',
      date: '2026-08-03',
      issue: true,
      lines: [
        { description: 'Brand strategy', quantity: '1', unitPrice: '3000', categoryCode: '4000' },
        { description: 'Printed samples', quantity: '1', unitPrice: '100', categoryCode: '4000', taxCode: null },
      ],
    });
    expect(issued).toMatchObject({ net: 3100, tax: 600, total: 3700 });
    expect(issued.lines.map((l) => [l.description, l.taxCode, l.tax])).toEqual([
      ['Brand strategy', 'S', 600],
      ['Printed samples', null, 0],
    ]);
    expect((await L.taxReturn(ctx.ledger, org.seq, { from: '2026-07-01', to: '2026-09-30' })).boxes['1']).toBe(600);
    await expect(desk('lineTaxDefaults', { contact: 'Nobody', categoryCodes: ['4000'] })).rejects.toMatchObject({ code: 'not_found' });
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe("a void's date", () => {
  it("is the invoice's own while its period is open: Q3 keeps no revenue, VAT or debtor of it", async () => {
    const { org, desk } = await organization('voids');
    const sale = (date: string) => desk<L.Document>('createInvoice', { customer: 'Northwind Ltd', date, issue: true, lines: ['Brand strategy;1;3000;4000'] }).then((d) => d.number);
    const inv = await sale('2026-08-03');
    expect(await desk('voidDate', { kind: 'invoice', number: inv })).toEqual({ date: '2026-08-03', issueDate: '2026-08-03', closed: null });
    // No date named (the command's `invoice void` alone): dated the invoice's own, not today (2026-11 when the firm voided it).
    const voided = await desk<L.Document>('voidInvoice', { number: inv, reason: 'wrong customer' });
    expect(voided).toMatchObject({ status: 'void', voidDate: '2026-08-03', balance: 0 });
    const q3 = { from: '2026-07-01', to: '2026-09-30' };
    expect((await L.profitAndLoss(ctx.ledger, org.seq, q3)).revenue).toBe(0);
    expect((await L.taxReturn(ctx.ledger, org.seq, q3)).boxes['1']).toBe(0);
    expect(lineOf(await L.balanceSheet(ctx.ledger, org.seq, { date: '2026-09-30' }), 'Accounts receivable')).toBe(0);
    // A date named is the date: the reversal in October, the sale in August.
    const other = await sale('2026-08-10');
    expect(await desk<L.Document>('voidInvoice', { number: other, date: '2026-10-05' })).toMatchObject({ voidDate: '2026-10-05' });
    expect((await L.profitAndLoss(ctx.ledger, org.seq, q3)).revenue).toBe(3000);
    expect((await L.profitAndLoss(ctx.ledger, org.seq, { from: '2026-10-01', to: '2026-10-31' })).revenue).toBe(-3000);
    await expect(desk('voidInvoice', { number: await sale('2026-08-12'), date: '2026-08-11' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'date' }],
    });
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('is the first open day when its own is on or before the closing date, or inside a filed return; a date named there is refused', async () => {
    const { org, desk } = await organization('closed');
    const sale = (date: string) => desk<L.Document>('createInvoice', { customer: 'Northwind Ltd', date, issue: true, lines: ['Design;1;500;4000'] }).then((d) => d.number);
    const june = await sale('2026-06-10');
    const july = await sale('2026-07-20');
    await desk('addContact', { name: 'Paper Co', vendor: true });
    const bill = (await desk<L.Document>('createBill', { vendor: 'Paper Co', number: 'PC-1', date: '2026-07-21', lines: ['Paper;1;50;5000'] })).number;
    await desk('fileTaxReturn', { from: '2026-04-01', to: '2026-06-30' });
    await L.lockPeriod(ctx.ledger, org.seq, L.deskActor(), '2026-07-31', 'July closed');
    expect(await desk('voidDate', { kind: 'invoice', number: june })).toEqual({
      date: '2026-08-01',
      issueDate: '2026-06-10',
      closed: { by: 'closing_date', through: '2026-07-31' },
    });
    expect(await desk('voidDate', { kind: 'bill', number: bill })).toMatchObject({ date: '2026-08-01', closed: { by: 'closing_date', through: '2026-07-31' } });
    await expect(desk('voidInvoice', { number: july, date: '2026-07-25' })).rejects.toMatchObject({ code: 'period_locked' });
    expect(await desk<L.Document>('voidInvoice', { number: july })).toMatchObject({ status: 'void', voidDate: '2026-08-01' });
    // Without the closing date, only the filed return holds June.
    await L.unlockPeriod(ctx.ledger, org.seq, L.deskActor(), 'reopened');
    expect(await desk('voidDate', { kind: 'invoice', number: june })).toEqual({
      date: '2026-07-01',
      issueDate: '2026-06-10',
      closed: { by: 'tax_return', through: '2026-06-30' },
    });
    await expect(desk('voidInvoice', { number: june, date: '2026-06-20' })).rejects.toMatchObject({ code: 'period_locked' });
    expect(await desk<L.Document>('voidInvoice', { number: june })).toMatchObject({ status: 'void', voidDate: '2026-07-01' });
    expect(await desk<L.Document>('voidBill', { number: bill })).toMatchObject({ status: 'void', voidDate: '2026-07-21' });
    await expectTotalsMatchRows(ctx.ledger);
  });
});
