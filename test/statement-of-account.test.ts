// A customer's statement of account (issue 53) on real books: the balance
// brought forward, each invoice, credit note and payment in date order with
// the running balance, the closing balance owed equal to the customer's line
// of the aging report (its buckets too), a part per currency the customer is
// invoiced in; its PDF the same bytes each time it is made, read back by
// pdftotext; sent by mail to a real SMTP server (STARTTLS, AUTH) and read back
// with mailparser, the attachment byte-equal to the PDF made again, recorded
// on the customer with its audit entry; a refused recipient records nothing;
// and the `ledgerdesk statement` command writing the PDF and sending it.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { statementPdf } from '../src/main/ledger/documents/pdf/statement';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import type { SentMessage } from '../src/main/ledger/mail/messages';
import { booksFlags } from './support/books';
import { deskAs } from './support/desk';
import { tempDir, tempLedger } from './support/env';
import { SMTP_PASSWORD, SMTP_USER, smtpServer, type TestSmtp } from './support/smtp';

const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
const PERIOD = { from: '2026-02-01', to: '2026-03-31' };
let ctx: DeskContext;
let org: L.Organization;
let smtp: TestSmtp;
let dir: string;
const numbers: Record<string, string> = {};
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const row = async (account: string, date: string, amount: string, description: string) => (await desk('addTransaction', { account, date, amount, description })).id as string;
const invoice = async (date: string, line: string, currency?: string) =>
  (await desk<L.Document>('createInvoice', { customer: 'Zoë Brontë', date, issue: true, lines: [line], ...(currency ? { currency } : {}) })).number;
const pdfMadeAgain = (s: L.StatementOfAccount) => ctx.ledger.forOrg(org.seq, () => statementPdf(ctx.ledger, org.seq, s));

/** A command as a child process, awaited (the SMTP server answers from this process's event loop). */
function ledgerdesk(args: string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, '--org', 'hartley', ...booksFlags(dir)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let [out, err] = ['', ''];
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

beforeAll(async () => {
  smtp = await smtpServer();
  process.env.LEDGERDESK_MAIL_CA_FILE = smtp.certFile;
  const t = await tempLedger();
  dir = t.dir;
  org = await L.createOrganization(t.ledger, { slug: 'hartley', name: 'Hartley Studio', currency: 'GBP' });
  ctx = { ledger: t.ledger, dataDir: t.dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  await L.setupTaxSet(t.ledger, org.seq, L.deskActor(), 'uk-vat');
  for (const d of ['2026-03-10']) await desk('setRate', { currency: 'EUR', date: d, rate: '0.86' });
  await desk('createAccount', { name: 'Bank', openingBalance: '0', openingDate: '2025-12-31' });
  await desk('addContact', { name: 'Zoë Brontë', customer: true, email: 'zoe@bronte.example', termsDays: 14, address: '3 Rue Żółć\nParis' });
  await desk('setMailSettings', { host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: SMTP_USER, password: SMTP_PASSWORD, from: 'Hartley Books <books@hartley.example>' });
  // Before the period: 120.00 owed, 50.00 of it paid in January.
  numbers.jan = await invoice('2026-01-10', 'January work;1;100;4000;S');
  await desk('payInvoice', { numbers: [numbers.jan], transactionId: await row('Bank', '2026-01-20', '50', 'Part payment') });
  // In the period: a February invoice (240.00), a credit note of 12.00 against it, March's payment of the January rest.
  numbers.feb = await invoice('2026-02-05', 'February work;2;100;4000;S');
  numbers.credit = (await desk<L.Document>('creditInvoice', { number: numbers.feb, date: '2026-02-20', lines: ['Discount;1;10;4000;S'] })).number;
  await desk('payInvoice', { numbers: [numbers.jan], transactionId: await row('Bank', '2026-03-03', '70', 'Zoë pays January') });
  numbers.mar = await invoice('2026-03-25', 'March work;1;50;4000;S');
  // And one in euros.
  numbers.eur = await invoice('2026-03-10', 'Paris show;1;300;4000;Z', 'EUR');
});

describe('a statement of account', () => {
  it('runs the balance from what was owed before the period to what is owed at its end, which is the aging report’s line for the customer', async () => {
    const s = (await desk<{ statement: L.StatementOfAccount }>('statementOfAccount', { customer: 'zoë brontë', ...PERIOD })).statement;
    expect(s.customer).toMatchObject({ name: 'Zoë Brontë', email: 'zoe@bronte.example' });
    expect(s.currencies.map((c) => c.currency)).toEqual(['GBP', 'EUR']);
    const [gbp, eur] = s.currencies;
    expect(gbp.opening).toBe(70);
    expect(gbp.lines.map((l) => [l.date, l.number, l.amount, l.balance])).toEqual([
      ['2026-02-05', numbers.feb, 240, 310],
      ['2026-02-20', numbers.credit, -12, 298],
      ['2026-03-03', numbers.jan, -70, 228],
      ['2026-03-25', numbers.mar, 60, 288],
    ]);
    expect(gbp.closing).toBe(288);
    const aged = await L.aging(ctx.ledger, org.seq, 'receivables', PERIOD.to, 'GBP');
    const line = aged.contacts.find((c) => c.name === 'Zoë Brontë')!;
    expect(gbp.closing).toBe(line.total);
    expect(gbp.aging).toEqual({
      current: line.current,
      days1to30: line.days1to30,
      days31to60: line.days31to60,
      days61to90: line.days61to90,
      over90: line.over90,
      credit: line.credit,
      total: line.total,
    });
    // The February invoice (due 19 February) is 40 days late on 31 March; March's is not due yet.
    expect(gbp.aging).toMatchObject({ current: 60, days31to60: 228 });
    expect(eur).toMatchObject({ opening: 0, closing: 300, aging: { current: 0, days1to30: 300, total: 300 } });
    expect(eur.closing).toBe((await L.aging(ctx.ledger, org.seq, 'receivables', PERIOD.to, 'EUR')).contacts[0].total);
  });

  it('is refused for a contact that is not a customer, and for a period that ends before it starts', async () => {
    await desk('addContact', { name: 'Paper Supplies', vendor: true });
    await expect(desk('statementOfAccount', { customer: 'Paper Supplies' })).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'customer' }] });
    await expect(desk('statementOfAccount', { customer: 'Zoë Brontë', from: '2026-04-01', to: '2026-03-31' })).rejects.toMatchObject({ details: [{ field: 'from' }] });
  });

  it('prints in the invoice’s layout, the same bytes each time, dated by the statement', async () => {
    const file = await desk<{ base64: string; fileName: string }>('statementPdfBytes', { customer: 'Zoë Brontë', ...PERIOD });
    const again = await desk<{ base64: string }>('statementPdfBytes', { customer: 'Zoë Brontë', ...PERIOD });
    expect(file.fileName).toBe('Statement 2026-03-31.pdf');
    expect(again.base64).toBe(file.base64);
    const bytes = Buffer.from(file.base64, 'base64');
    expect(bytes.toString('latin1')).toContain('D:20260331000000Z');
    const path = join(tempDir('ldk-statement-'), 'statement.pdf');
    writeFileSync(path, bytes);
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    for (const words of ['STATEMENT', 'Hartley Studio', 'Zoë Brontë', 'Balance brought forward 70.00', `Invoice ${numbers.feb}`, 'Balance owed 288.00', 'In EUR', '300.00'])
      expect(text).toContain(words);
    expect(text).toMatch(/Current 1-30 days 31-60 days 61-90 days Over 90 days Total GBP 60.00 0.00 228.00 0.00 0.00 288.00/);
  });
});

describe('a statement of account by mail', () => {
  it('goes to the customer with its PDF, in the statement wording with the closing balance owed, and is recorded on the customer', async () => {
    const composed = await desk('composeStatement', { customer: 'Zoë Brontë', ...PERIOD });
    expect(composed).toMatchObject({ kind: 'statement', to: ['zoe@bronte.example'], subject: 'Statement of account from Hartley Studio', messages: [] });
    expect(composed.body).toContain('statement of account to 2026-03-31: 288.00 GBP and 300.00 EUR is owed.');
    const before = smtp.received.length;
    const r = await desk<{ statement: L.StatementOfAccount; sent: SentMessage }>('statementOfAccount', { customer: 'Zoë Brontë', ...PERIOD, send: true, copyMe: true });
    expect(smtp.received.length).toBe(before + 1);
    const got = smtp.received.at(-1)!;
    expect(got.rcpt.sort()).toEqual(['books@hartley.example', 'zoe@bronte.example']);
    expect(got.parsed.subject).toBe('Statement of account from Hartley Studio');
    expect(got.parsed.text).toContain('Dear Zoë Brontë,');
    expect(got.parsed.text).toContain('288.00 GBP and 300.00 EUR is owed');
    expect(got.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([['Statement 2026-03-31.pdf', 'application/pdf']]);
    expect(Buffer.compare(got.parsed.attachments[0].content, await pdfMadeAgain(r.statement))).toBe(0);
    expect(r.sent).toMatchObject({ kind: 'statement', number: null, to: ['zoe@bronte.example'], messageId: got.parsed.messageId });
    expect(r.sent.serverReply).toContain(got.queueId);
    expect((await desk('composeStatement', { customer: 'Zoë Brontë', ...PERIOD })).messages).toEqual([r.sent]);
    const contact = (await desk<L.Contact[]>('listContacts', {})).find((c) => c.name === 'Zoë Brontë')!;
    const [logged] = (await L.listAudit(ctx.ledger, org.seq, { action: 'mail.sent', limit: 1, offset: 0 })).entries;
    expect(logged).toMatchObject({ targetType: 'contact', targetId: contact.id });
    expect(logged.summary).toContain('statement of account of Zoë Brontë to zoe@bronte.example');
  });

  it('refused by the server, records nothing and says so in words', async () => {
    const audit = (await L.listAudit(ctx.ledger, org.seq, { limit: 1, offset: 0 })).totalCount;
    await expect(desk('statementOfAccount', { customer: 'Zoë Brontë', ...PERIOD, send: true, sendTo: ['nobody@refused.example'] })).rejects.toMatchObject({
      code: 'mail_failed',
      details: { reason: 'recipient_refused' },
    });
    expect((await L.listAudit(ctx.ledger, org.seq, { limit: 1, offset: 0 })).totalCount).toBe(audit);
    expect((await desk('composeStatement', { customer: 'Zoë Brontë', ...PERIOD })).messages).toHaveLength(1);
    await expect(desk('statementOfAccount', { customer: 'Zoë Brontë', sendTo: ['a@b.example'] })).rejects.toMatchObject({ details: [{ field: 'send' }] });
  });

  it('is read by a preparer and a client, and sent by neither: nothing goes', async () => {
    for (const role of ['preparer', 'client'] as const) {
      const email = `${role}@hartley.example`;
      await ctx.ledger.forOrg(org.seq, () => addMember(ctx.ledger, org.seq, L.deskActor(), { email, name: role, role, password: 'correct horse battery staple' }));
      const row = (await personByEmail(ctx.ledger, email))!;
      const as: DeskContext = { ...ctx, person: { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: false } };
      const read = await deskAs<{ statement: L.StatementOfAccount }>(as, org.id, 'statementOfAccount', { customer: 'Zoë Brontë', ...PERIOD });
      expect(read.statement.currencies[0].closing).toBe(288);
      const before = smtp.received.length;
      await expect(deskAs(as, org.id, 'statementOfAccount', { customer: 'Zoë Brontë', ...PERIOD, send: true })).rejects.toMatchObject({
        code: 'forbidden',
        details: { reason: 'send', role },
      });
      await expect(deskAs(as, org.id, 'composeStatement', { customer: 'Zoë Brontë' })).rejects.toMatchObject({ code: 'forbidden' });
      expect(smtp.received.length).toBe(before);
    }
  });

  it('is written and sent by `ledgerdesk statement`', async () => {
    const out = join(tempDir('ldk-statement-cmd-'), 'zoe.pdf');
    const r = await ledgerdesk([
      'statement',
      'Zoë Brontë',
      '--from',
      PERIOD.from,
      '--to',
      PERIOD.to,
      '--currency',
      'GBP',
      '--pdf',
      out,
      '--send',
      '--send-to',
      'accounts@bronte.example',
    ]);
    expect(r.err).not.toContain('Error');
    expect(r.status).toBe(0);
    expect(r.out).toContain('Statement of account of Zoë Brontë, 2026-02-01 to 2026-03-31');
    expect(r.out).toContain('Balance owed');
    expect(r.out).toContain(`Wrote ${out}`);
    const got = smtp.received.at(-1)!;
    expect(got.rcpt).toEqual(['accounts@bronte.example']);
    expect(got.parsed.text).toContain('288.00 GBP is owed');
    expect(Buffer.compare(got.parsed.attachments[0].content, readFileSync(out))).toBe(0);
    expect(r.out).toContain(got.parsed.messageId!);
  });
});
