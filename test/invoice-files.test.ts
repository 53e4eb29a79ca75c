// Invoices and bills from a CSV file (issue 29): rows grouped into documents
// by customer and reference, numbered by the organization, issued at once;
// a bad cell named by its row and column with nothing written; a batch large
// enough to keep the totals itself agrees with the rows, and the triggers are
// back after it; bills keep their vendor's numbers; the owner command.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { ownerCommand, tempDir, tempLedger } from './support/env';

let ctx: DeskContext;
let org: L.Organization;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const file = (name: string, text: string) => {
  const path = join(ctx.dataDir, name);
  writeFileSync(path, text);
  return path;
};
const count = async (sql: string) => (await ctx.ledger.stmt(sql).pluck().get()) as number;
const receivables = async (date: string) => (await L.balanceSheet(ctx.ledger, org.seq, { date })).assets.lines.find((l) => l.name === 'Accounts receivable')?.amount ?? 0;

beforeAll(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'files', name: 'Files Ltd', currency: 'GBP' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await L.setupTaxSet(ledger, org.seq, L.deskActor(), 'uk-vat');
  await desk('addContact', { name: 'Zoë Café', customer: true, termsDays: 14 });
  await desk('addContact', { name: 'Acme', customer: true });
  await desk('addContact', { name: 'Paper Co', vendor: true });
});

describe('a file of invoices', () => {
  it('groups rows by customer and reference in any order, numbers and issues each, one audit entry each', async () => {
    const csv = [
      'Customer,Reference,Date,Description,Quantity,Unit price,Category,Tax code',
      'Zoë Café,A,2026-03-01,"Design, first part",10,85.00,4000,S',
      'Acme,A,2026-03-02,Hosting,1,20,4010,',
      'Zoë Café,A,2026-03-01,Printed book,2,12.50,4000,Z',
      'Acme,B,2026-03-05,Consulting,1.5,100,4000,none',
    ].join('\n');
    const audited = await count('SELECT count(*) FROM audit_log');
    const made = await desk('importInvoices', { file: file('invoices.csv', csv) });
    expect(made).toMatchObject({ created: 3, status: 'sent' });
    expect(made.documents.map((d: { number: string; total: number }) => [d.number, d.total])).toEqual([
      ['INV-0001', 1045],
      ['INV-0002', 20],
      ['INV-0003', 150],
    ]);
    const first = await desk<L.Document>('showInvoice', { number: 'INV-0001' });
    expect(first).toMatchObject({ status: 'sent', dueDate: '2026-03-15', contact: { name: 'Zoë Café' }, tax: 170 });
    expect(first.lines.map((l) => l.description)).toEqual(['Design, first part', 'Printed book']);
    expect((await desk<L.Document>('showInvoice', { number: 'INV-0003' })).tax).toBe(0);
    expect((await count('SELECT count(*) FROM audit_log')) - audited).toBe(3);
    expect(await receivables('2026-03-31')).toBe(1215);
    await expectTotalsMatchRows(ctx.ledger);
  });

  it('names a bad cell by its row and column, and writes nothing (numbers included)', async () => {
    const before = await count('SELECT count(*) FROM documents');
    const csv = [
      'customer,reference,date,description,quantity,unit price,category',
      'Acme,X,2026-04-01,Fine,1,10,4000',
      'Acme,Y,2026-04-01,Wrong category,1,10,5000',
      'Acme,Y,2026-04-01,Bad price,1,abc,4000',
    ].join('\n');
    await expect(desk('importInvoices', { file: file('bad.csv', csv) })).rejects.toMatchObject({
      code: 'validation_failed',
      details: expect.arrayContaining([expect.objectContaining({ field: 'rows[3].category' }), expect.objectContaining({ field: 'rows[4].unit price' })]),
    });
    await expect(desk('importInvoices', { file: file('date.csv', 'customer,date,description,unit price,category\nAcme,2026-02-30,X,1,4000') })).rejects.toMatchObject({
      details: [{ field: 'rows[2].date' }],
    });
    await expect(desk('importInvoices', { file: file('cols.csv', 'customer,amount\nAcme,1') })).rejects.toMatchObject({ details: [{ field: 'file' }] });
    await expect(desk('importInvoices', { file: file('who.csv', 'customer,description,unit price,category\nNobody,X,1,4000') })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('row 2'),
    });
    expect(await count('SELECT count(*) FROM documents')).toBe(before);
    const next = await desk<L.Document>('createInvoice', { customer: 'Acme', date: '2026-04-02', lines: ['One;1;1;4000'] });
    expect(next.number).toBe('INV-0004');
  });

  it('a batch large enough to keep the totals itself agrees with its rows, and the triggers keep them again after', async () => {
    const n = L.BULK_DOCUMENTS + 10;
    const rows = Array.from({ length: n }, (_, i) => `${i % 2 ? 'Acme' : 'Zoë Café'},2026-05-${String((i % 28) + 1).padStart(2, '0')},Work ${i},1,${(i % 90) + 10}.25,4000,S`);
    const was = await receivables('2026-12-31');
    const made = await desk('importInvoices', { file: file('many.csv', ['customer,date,description,quantity,unit price,category,tax code', ...rows].join('\n')) });
    expect(made.created).toBe(n);
    const total = made.documents.reduce((s: number, d: { total: number }) => s + Math.round(d.total * 100), 0) / 100;
    expect(await receivables('2026-12-31')).toBeCloseTo(was + total, 2);
    await expectTotalsMatchRows(ctx.ledger);
    await desk('createInvoice', { customer: 'Acme', date: '2026-05-30', lines: ['After;1;100;4000;S'], issue: true });
    expect(await receivables('2026-12-31')).toBeCloseTo(was + total + 120, 2);
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('a file of invoices out of date order', () => {
  it('numbers them in the order of their dates (ties: the file order), and posts tax once per tax code', async () => {
    const next = await count(`SELECT invoice_next FROM organizations WHERE seq = ${org.seq}`);
    const csv = [
      'Customer,Reference,Date,Description,Quantity,Unit price,Category,Tax code',
      'Acme,late,2026-06-20,Late,1,10,4000,S',
      'Acme,early,2026-06-02,Design,1,100,4000,S',
      'Acme,early,2026-06-02,Book,1,10,4000,Z',
      'Acme,early,2026-06-02,Licence,2,25,4010,S',
      'Acme,same,2026-06-20,Same day,1,10,4000,S',
    ].join('\n');
    const made = await desk<{ documents: { number: string; issueDate: string }[] }>('importInvoices', { file: file('unordered.csv', csv) });
    const numbered = (k: number) => `INV-${String(next + k).padStart(4, '0')}`;
    expect(made.documents.map((d) => [d.number, d.issueDate])).toEqual([
      [numbered(0), '2026-06-02'],
      [numbered(1), '2026-06-20'],
      [numbered(2), '2026-06-20'],
    ]);
    expect((await desk<L.Document>('showInvoice', { number: numbered(1) })).lines.map((l) => l.description)).toEqual(['Late']);
    const postings = (number: string) =>
      ctx.ledger
        .stmt("SELECT p.kind, p.amount_minor AS amount, p.memo FROM postings p JOIN documents d ON d.seq = p.document_seq WHERE d.number = ? AND p.kind = 'tax'")
        .all(number);
    // 100 and 2 x 25 at 20%: one posting to the tax control account, naming how many lines it covers.
    expect(await postings(numbered(0))).toEqual([{ kind: 'tax', amount: -3000, memo: 'Tax on 2 lines' }]);
    expect(await postings(numbered(1))).toEqual([{ kind: 'tax', amount: -200, memo: 'Late' }]);
    await expectTotalsMatchRows(ctx.ledger);
  });
});

describe('a file of bills', () => {
  it("keeps each vendor's number, drafts when asked, and refuses a number the vendor already used", async () => {
    const csv = ['Vendor,Number,Date,Description,Unit price,Category,Tax code', 'Paper Co,P-1,2026-03-03,Paper,50,5000,S', 'Paper Co,P-2,2026-03-04,Ink,20,5000,S'].join('\n');
    expect(await desk('importBills', { file: file('bills.csv', csv), draft: true })).toMatchObject({ created: 2, status: 'draft' });
    expect((await desk<L.Document>('showBill', { number: 'P-2' })).status).toBe('draft');
    await expect(desk('importBills', { file: file('again.csv', csv) })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('row 2') });
    await expect(desk('importBills', { file: file('nonum.csv', 'vendor,description,unit price,category\nPaper Co,X,1,5000') })).rejects.toMatchObject({
      details: [{ field: 'file', message: expect.stringContaining('number') }],
    });
  });
});

describe('from the command line', () => {
  it('invoice import <file> --json', () => {
    const data = tempDir();
    const run = ownerCommand(data);
    run('contact', 'add', 'Globex', '--kind', 'customer');
    const path = join(data, 'in.csv');
    writeFileSync(path, 'customer,reference,date,description,quantity,unit price,category\nGlobex,1,2026-02-01,Design,2,100,4000\nGlobex,2,2026-02-03,Hosting,1,20,4010\n');
    expect(run('invoice', 'import', path)).toMatch(/^2 invoices issued: INV-0001 to INV-0002\./);
    expect(JSON.parse(run('invoice', 'show', 'INV-0002', '--json'))).toMatchObject({ status: 'sent', total: 20, dueDate: '2026-03-05' });
  });
});
