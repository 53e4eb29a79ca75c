// Quotes (issue 53) on the run's engine: numbered in their own series beside
// invoices'; their PDF in the invoice's layout, read back by pdftotext; sent,
// expired on a later day, declined; accepted into a draft invoice with the same
// lines, linked both ways and audited, once; and absent from every report, the
// tax return, the aging, the statement, the invoice list and the export.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { deskAs } from './support/desk';
import { ownerCommand, tempLedger } from './support/env';

let ctx: DeskContext;
let org: L.Organization;
let dir: string;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const pdfText = (bytes: Buffer, name: string) => {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
};

/** Everything the books report for 2030 (ahead of today: the desk reads a quote's status for today): what a quote must leave as it is. */
async function reported() {
  const year = { from: '2030-01-01', to: '2030-12-31' };
  return {
    pl: await L.profitAndLoss(ctx.ledger, org.seq, year),
    plCash: await L.profitAndLoss(ctx.ledger, org.seq, { ...year, basis: 'cash' }),
    balanceSheet: await L.balanceSheet(ctx.ledger, org.seq, { date: year.to }),
    trialBalance: await L.trialBalance(ctx.ledger, org.seq, year),
    vat: await L.taxReturn(ctx.ledger, org.seq, year),
    vatCash: await L.taxReturn(ctx.ledger, org.seq, { ...year, basis: 'cash' }),
    aging: await L.aging(ctx.ledger, org.seq, 'receivables', year.to),
    statement: await L.contactStatement(ctx.ledger, org.seq, 'Hartley Café', year),
    invoices: await L.listDocuments(ctx.ledger, org.seq, { kinds: ['invoice', 'credit_note'] }),
    export: await L.exportBook(ctx.ledger, org.seq, year),
    postings: await ctx.ledger.stmt('SELECT count(*) FROM postings WHERE org_seq = ?').pluck().get(org.seq),
  };
}

beforeAll(async () => {
  const made = await tempLedger();
  dir = made.dir;
  org = await L.createOrganization(made.ledger, { slug: 'studio', name: 'Studio Ωmega', currency: 'GBP' });
  ctx = { ledger: made.ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await L.setupTaxSet(made.ledger, org.seq, L.deskActor(), 'uk-vat');
  await desk('addContact', { name: 'Hartley Café', customer: true, address: '3 Mill Lane\nLeeds', termsDays: 14 });
  await desk('createInvoice', { customer: 'Hartley Café', date: '2030-02-01', issue: true, lines: ['Earlier work;1;200;4000;S'] });
});

describe('quotes', () => {
  it('are numbered in their own series, with tax per line, and post nothing to any report or return', async () => {
    const before = await reported();
    const first = await desk<L.Quote>('createQuote', {
      customer: 'Hartley Café',
      date: '2030-03-02',
      expiryDate: '2030-03-31',
      lines: ['Brand design;10;85.00;4000;S', 'Printed guide;2;12.50;4000;Z'],
    });
    expect(first).toMatchObject({ number: 'QU-0001', status: 'draft', date: '2030-03-02', expiryDate: '2030-03-31', net: 875, tax: 170, total: 1045, invoice: null });
    const second = await desk<L.Quote>('createQuote', { customer: 'Hartley Café', date: '2030-03-03', lines: ['Photography;1;400;4000'] });
    // Thirty days unless given (not the customer's 14-day payment terms).
    expect(second).toMatchObject({ number: 'QU-0002', expiryDate: '2030-04-02' });
    await desk('sendQuote', { number: 'QU-0001' });
    await desk('declineQuote', { number: 'QU-0002', date: '2030-03-10', reason: 'Too dear' });
    expect(await reported()).toEqual(before);
    // The invoices' series did not move: the next invoice is the second.
    expect((await desk<L.Document>('createInvoice', { customer: 'Hartley Café', date: '2030-03-05', lines: ['Consulting;1;10;4000'] })).number).toBe('INV-0002');
  });

  it("prints in the invoice's layout as a quote: valid until, no time of supply, nothing due", async () => {
    const row = await L.requireQuote(ctx.ledger, org.seq, 'QU-0001');
    const text = pdfText(await L.documentPdf(ctx.ledger, org.seq, row), 'QU-0001.pdf');
    expect(text).toContain('QUOTE');
    expect(text).toMatch(/Quote number QU-0001/);
    expect(text).toMatch(/Valid until 31 March 2030/);
    expect(text).toContain('Hartley Café');
    expect(text).toContain('Brand design');
    expect(text).toMatch(/Total GBP 1,045\.00/);
    expect(text).not.toMatch(/Time of supply|Amount due|INVOICE/);
  });

  it('is expired past its expiry date until accepted or declined (read, not stored)', async () => {
    expect((await L.listQuotes(ctx.ledger, org.seq, '2030-03-31')).map((q) => [q.number, q.status])).toEqual([
      ['QU-0002', 'declined'],
      ['QU-0001', 'sent'],
    ]);
    expect((await L.listQuotes(ctx.ledger, org.seq, '2030-04-01', { status: 'expired' })).map((q) => q.number)).toEqual(['QU-0001']);
  });

  it('accepted, becomes a draft invoice with its lines, linked both ways and audited, once', async () => {
    const { quote, invoice } = await desk<{ quote: L.Quote; invoice: L.Document }>('acceptQuote', { number: 'QU-0001', date: '2030-03-20' });
    expect(quote).toMatchObject({ status: 'accepted', decidedOn: '2030-03-20', invoice: invoice.number });
    expect(invoice).toMatchObject({ number: 'INV-0003', status: 'draft', issueDate: '2030-03-20', quote: 'QU-0001', net: 875, tax: 170, total: 1045 });
    expect(invoice.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.categoryCode, l.taxCode])).toEqual([
      ['Brand design', 10, 85, '4000', 'S'],
      ['Printed guide', 2, 12.5, '4000', 'Z'],
    ]);
    expect((await desk<L.Document>('showInvoice', { number: invoice.number })).quote).toBe('QU-0001');
    const log = await L.listAudit(ctx.ledger, org.seq, { action: 'quote.accepted', limit: 50, offset: 0 });
    expect(log.entries.map((e) => e.summary)).toEqual(['quote QU-0001 accepted on 2030-03-20: draft invoice INV-0003 made from it']);
    await expect(desk('acceptQuote', { number: 'QU-0001' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(desk('declineQuote', { number: 'QU-0001' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(desk('acceptQuote', { number: 'QU-0002' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(desk('editQuote', { number: 'QU-0001', notes: 'late' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('refuses a bad line naming its field, and writes nothing', async () => {
    await expect(desk('createQuote', { customer: 'Hartley Café', lines: ['Work;1;10;9999'] })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'lines[0].categoryCode' }],
    });
    expect((await L.listQuotes(ctx.ledger, org.seq, '2030-03-01')).length).toBe(2);
  });

  it('as commands: quote create, list, mark-sent, accept and pdf', async () => {
    const run = ownerCommand(dir);
    expect(run('quote', 'create', '--org', 'studio', '--customer', 'Hartley Café', '--date', '2030-05-01', '--line', 'Survey;1;300;4000;S').split('\n')[0]).toBe('QU-0003');
    run('quote', 'mark-sent', 'QU-0003', '--org', 'studio');
    expect(run('quote', 'list', '--org', 'studio', '--status', 'sent')).toMatch(/QU-0003 .*sent/);
    expect(run('quote', 'accept', 'QU-0003', '--org', 'studio', '--date', '2030-05-02')).toMatch(/Draft invoice INV-0004 made from it/);
    const out = join(dir, 'q3.pdf');
    run('quote', 'pdf', 'QU-0003', '--org', 'studio', '--out', out);
    expect(execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' })).toMatch(/Quote number\s+QU-0003/);
  }, 180_000);
});
