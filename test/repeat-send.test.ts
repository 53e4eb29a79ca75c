// "Approve and send" repeating invoices (issue 53) over a calendar the test
// moves, against a real SMTP server (smtp-server: STARTTLS, AUTH), each
// message read back: the pass (`invoice repeat run`, the job) sends each due
// invoice once with its PDF, marks it sent in the write that records its
// message; one made more than a period late is made, listed and held (not
// sent) until the person releases it; a refusal leaves the invoice issued and
// unsent with the reason kept and shown; two processes running the pass at
// once send each invoice once.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { documentPdf } from '../src/main/ledger/documents/pdf/pdf';
import { runAndSendRepeatingInvoices, type RepeatRun } from '../src/main/mail/repeats';
import { booksFlags, onPostgres, openBooksOf } from './support/books';
import { deskAs } from './support/desk';
import { tempLedger } from './support/env';
import { SMTP_PASSWORD, SMTP_USER, smtpServer, type TestSmtp } from './support/smtp';

let ctx: DeskContext;
let org: L.Organization;
let smtp: TestSmtp;
let dir: string;
const actor = L.deskActor();
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const run = (asOf: string, ledger = ctx.ledger) => runAndSendRepeatingInvoices(ledger, org.seq, asOf, actor);
const repeat = (name: string, customer: string, schedule: Record<string, unknown>) =>
  desk('createRepeatingInvoice', { name, customer, action: 'issue_and_send', lines: ['Retainer;1;500;4000;S'], ...schedule });
const occurrences = async (name: string) =>
  (await desk<L.RepeatingInvoice>('showRepeatingInvoice', { ref: name })).occurrences.map((o) => [o.date, o.invoice, o.sending, o.failure]);
const receivedFor = (number: string) => smtp.received.filter((m) => m.parsed.subject?.includes(number));
const pdfOf = async (number: string) => documentPdf(ctx.ledger, org.seq, await L.requireDocument(ctx.ledger, org.seq, ['invoice'], number));

function runCommand(args: string[]): Promise<string> {
  const bin = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args, ...booksFlags(dir)]);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });
}

beforeAll(async () => {
  smtp = await smtpServer();
  process.env.LEDGERDESK_MAIL_CA_FILE = smtp.certFile;
  const t = await tempLedger();
  dir = t.dir;
  org = await L.createOrganization(t.ledger, { slug: 'studio', name: 'Studio Ltd', currency: 'GBP' });
  ctx = { ledger: t.ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: actor };
  await L.setupTaxSet(t.ledger, org.seq, actor, 'uk-vat');
  await desk('setMailSettings', { host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: SMTP_USER, password: SMTP_PASSWORD, from: 'books@studio.example' });
  await desk('addContact', { name: 'Zoë Brontë', customer: true, email: 'zoe@bronte.example', termsDays: 14 });
  await desk('addContact', { name: 'Nowhere Ltd', customer: true, email: 'accounts@refused.example' });
});

describe('approve and send: the pass sends what it made', () => {
  it('sends each due invoice once, with its PDF, and marks it sent; a rerun sends nothing', async () => {
    await repeat('Retainer', 'Zoë Brontë', { unit: 'month', day: 1, start: '2026-01-01' });
    const first = await run('2026-01-01');
    expect(first.made.map((m) => [m.date, m.sending])).toEqual([['2026-01-01', 'to_send']]);
    const number = first.made[0].invoice!;
    expect(first.sent).toEqual([{ invoice: number, to: ['zoe@bronte.example'], messageId: expect.any(String) }]);
    const got = receivedFor(number);
    expect(got.length).toBe(1);
    expect(got[0].rcpt).toEqual(['zoe@bronte.example']);
    expect(got[0].parsed.text).toContain('Dear Zoë Brontë');
    expect(Buffer.compare(got[0].parsed.attachments[0].content, await pdfOf(number))).toBe(0);
    expect(await run('2026-01-01')).toEqual({ made: [], sent: [], notSent: [] });
    expect(receivedFor(number).length).toBe(1);
    expect(await occurrences('Retainer')).toEqual([['2026-01-01', number, 'sent', null]]);
    const messages = await desk<{ messageId: string }[]>('documentMessages', { number });
    expect(messages.map((m) => m.messageId)).toEqual([first.sent[0].messageId]);
  });

  it('after the app was closed: the missed ones made and listed, held (not sent) until the person releases one', async () => {
    const before = smtp.received.length;
    const late = await run('2026-04-10');
    expect(late.made.map((m) => [m.date, m.late, m.sending])).toEqual([
      ['2026-02-01', true, 'held'],
      ['2026-03-01', true, 'held'],
      ['2026-04-01', false, 'to_send'],
    ]);
    // Only the latest went.
    expect(late.sent.map((s) => s.invoice)).toEqual([late.made[2].invoice]);
    expect(smtp.received.length).toBe(before + 1);
    expect((await occurrences('Retainer')).map((o) => o[2])).toEqual(['sent', 'held', 'held', 'sent']);
    await desk('releaseRepeatInvoice', { number: late.made[0].invoice });
    const released = await run('2026-04-10');
    expect(released).toEqual({ made: [], sent: [expect.objectContaining({ invoice: late.made[0].invoice })], notSent: [] });
    expect((await occurrences('Retainer')).map((o) => o[2])).toEqual(['sent', 'sent', 'held', 'sent']);
    // Sent by hand (Send… on the invoice): the held one is sent too.
    await desk('sendDocument', { number: late.made[1].invoice });
    expect((await occurrences('Retainer')).map((o) => o[2])).toEqual(['sent', 'sent', 'sent', 'sent']);
    await desk('pauseRepeatingInvoice', { ref: 'Retainer' });
  });

  it('a refusal leaves the invoice issued and unsent, the reason kept and shown; released, it is tried again', async () => {
    await repeat('Refused', 'Nowhere Ltd', { unit: 'month', day: 5, start: '2026-05-05', count: 1 });
    const refused = await run('2026-05-05');
    const number = refused.made[0].invoice!;
    expect(refused.sent).toEqual([]);
    expect(refused.notSent).toEqual([{ invoice: number, reason: expect.stringMatching(/accounts@refused\.example/) }]);
    expect(await desk<L.Document>('showInvoice', { number })).toMatchObject({ issueDate: '2026-05-05', status: 'sent', balance: 600 });
    expect(await desk('documentMessages', { number })).toEqual([]);
    const [[, , sending, failure]] = await occurrences('Refused');
    expect([sending, failure]).toEqual(['failed', refused.notSent[0].reason]);
    const audit = await L.listAudit(ctx.ledger, org.seq, { limit: 50, offset: 0 });
    expect(audit.entries).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'invoice_repeat.send_failed' })]));
    // Not retried by itself.
    expect((await run('2026-05-06')).notSent).toEqual([]);
    await desk('releaseRepeatInvoice', { number });
    expect((await run('2026-05-06')).notSent.map((n) => n.invoice)).toEqual([number]);
  });

  it('a refusal in the middle of a pass (the next invoice taken in its write): the ones before and after it sent, each once', async () => {
    const names = ['Mid A', 'Mid refused', 'Mid C'];
    for (const name of names) await repeat(name, name === 'Mid refused' ? 'Nowhere Ltd' : 'Zoë Brontë', { unit: 'month', day: 10, start: '2026-06-10', count: 1 });
    const pass = await run('2026-06-10');
    const [a, refused, c] = pass.made.map((m) => m.invoice!);
    expect(pass.made.map((m) => m.repeat.name)).toEqual(names);
    expect(pass.sent.map((s) => s.invoice)).toEqual([a, c]);
    expect(pass.notSent).toEqual([{ invoice: refused, reason: expect.stringMatching(/accounts@refused\.example/) }]);
    for (const number of [a, c]) expect(receivedFor(number).length).toBe(1);
    expect(receivedFor(refused)).toEqual([]);
    expect((await Promise.all(names.map(occurrences))).map((o) => o[0][2])).toEqual(['sent', 'failed', 'sent']);
    expect(await run('2026-06-10')).toEqual({ made: [], sent: [], notSent: [] });
  });

  it('two passes at once (PostgreSQL: two pools; either engine: two processes) send each invoice once', async () => {
    const names = ['Weekly A', 'Weekly B', 'Weekly C'];
    for (const name of names) await repeat(name, 'Zoë Brontë', { unit: 'week', start: '2027-01-04', count: 2 });
    if (onPostgres) {
      const other = await openBooksOf(dir);
      try {
        const [a, b] = await Promise.all([run('2027-01-04'), run('2027-01-04', other)]);
        expect([...a.sent, ...b.sent].map((s) => s.invoice).sort()).toEqual([...a.made, ...b.made].map((m) => m.invoice).sort());
      } finally {
        await other.end();
      }
    } else await run('2027-01-04');
    const pass = async () => JSON.parse(await runCommand(['invoice', 'repeat', 'run', '--org', 'studio', '--as-of', '2027-01-11', '--json'])) as RepeatRun;
    const [a, b] = await Promise.all([pass(), pass()]);
    expect([...a.sent, ...b.sent].length).toBe(3);
    for (const name of names) {
      const made = await occurrences(name);
      expect(made.map((o) => o[2])).toEqual(['sent', 'sent']);
      for (const [, number] of made) expect(receivedFor(number!).length).toBe(1);
    }
  });
});
