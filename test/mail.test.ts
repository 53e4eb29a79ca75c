// Sending invoices and credit notes by mail (issue 53), against a real SMTP
// server (smtp-server: STARTTLS on a certificate made here, AUTH), each message
// read back with mailparser: recipients, subject, the body's placeholders
// filled, non-ASCII names, the attached PDF's bytes the document's own; a
// refused sign-in, a refused recipient, a dropped connection, a certificate
// that does not verify and a silent server each leave the document unsent, in
// words. The password is sealed and found in no answer, audit entry or error.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import type { SentMessage } from '../src/main/ledger/mail/messages';
import { sealStoredSecrets } from '../src/main/ledger/core/secrets/sealed';
import { deskAs } from './support/desk';
import { mailBooks } from './support/mail-books';
import { closedPort, droppingServer, silentServer, SMTP_PASSWORD, SMTP_USER, smtpServer, type TestSmtp } from './support/smtp';

let ctx: DeskContext;
let org: L.Organization;
let smtp: TestSmtp;
let invoice: L.Document;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const settings = (changes: Record<string, unknown> = {}) =>
  desk('setMailSettings', { host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: SMTP_USER, from: 'Łódź Books <books@lodz.example>', ...changes });
const messagesOf = (number: string, kind = 'invoice') => desk<SentMessage[]>('documentMessages', { number, kind });

/** Everything an answer, the audit log and the stored settings hold, as text: the password must be in none of it. */
async function everythingSaid(...answers: unknown[]): Promise<string> {
  const audit = await L.listAudit(ctx.ledger, org.seq, { limit: 500, offset: 0 });
  const stored = await ctx.ledger.rows('SELECT * FROM mail_settings');
  return JSON.stringify([answers, audit, stored]);
}

beforeAll(async () => {
  ({ smtp, org, ctx } = await mailBooks());
  await desk('addContact', { name: 'Zoë Brontë', customer: true, email: 'zoe@bronte.example', termsDays: 14 });
  await desk('addContact', { name: 'Nowhere Ltd', customer: true, email: 'accounts@refused.example' });
  invoice = await desk<L.Document>('createInvoice', { customer: 'Zoë Brontë', date: '2026-03-02', lines: ['Żółć design;10;85.00;4000;S'], issue: true });
});

describe("an organization's mail settings", () => {
  it('keep the password sealed, answer only that one is kept, and are refused field by field', async () => {
    await expect(desk('setMailSettings', { host: 'bad host', port: 0, tls: 'starttls', from: 'not an address' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(settings({ from: 'nobody' })).rejects.toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'from' })] });
    const saved = await settings({ password: SMTP_PASSWORD });
    expect(saved).toMatchObject({ host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: SMTP_USER, passwordSet: true, from: 'Łódź Books <books@lodz.example>' });
    const stored = (await ctx.ledger.stmt('SELECT password FROM mail_settings').pluck().get()) as string;
    expect(stored.startsWith('ldk-sealed:v1:')).toBe(true);
    // Changed without a password: the one kept stays.
    expect(await settings({ replyTo: 'accounts@lodz.example' })).toMatchObject({ passwordSet: true, replyTo: 'accounts@lodz.example' });
    const shown = await desk('mailSettings');
    expect(await everythingSaid(saved, shown)).not.toContain(SMTP_PASSWORD);
  });

  it('send a test message through STARTTLS with the sign-in', async () => {
    const sent = await desk<SentMessage>('testMail', { to: 'zoe@bronte.example' });
    const got = smtp.received.at(-1)!;
    expect(got.parsed.subject).toBe('Ledgerdesk test message');
    expect(got.rcpt).toEqual(['zoe@bronte.example']);
    expect(got.parsed.from?.value[0]).toMatchObject({ name: 'Łódź Books', address: 'books@lodz.example' });
    expect(got.parsed.replyTo?.value[0].address).toBe('accounts@lodz.example');
    expect(sent.messageId).toBe(got.parsed.messageId);
    expect(sent.serverReply).toContain(got.queueId);
  });

  it('send a test message over TLS from the start (port 465), the connection opened with Nagle off, with the sign-in', async () => {
    const tls = await smtpServer({ secure: true });
    const ca = process.env.LEDGERDESK_MAIL_CA_FILE;
    process.env.LEDGERDESK_MAIL_CA_FILE = tls.certFile;
    try {
      await settings({ port: tls.port, tls: 'tls', password: SMTP_PASSWORD });
      const sent = await desk<SentMessage>('testMail', { to: 'zoe@bronte.example' });
      expect(tls.received.map((m) => [m.parsed.messageId, m.rcpt])).toEqual([[sent.messageId, ['zoe@bronte.example']]]);
    } finally {
      process.env.LEDGERDESK_MAIL_CA_FILE = ca;
      await settings({ password: SMTP_PASSWORD });
    }
  });

  it('keep a password found in clear (an earlier build) sealed when the books open, organization by organization', async () => {
    await ctx.ledger.forOrg(org.seq, () => ctx.ledger.write(() => ctx.ledger.stmt('UPDATE mail_settings SET password = ? WHERE org_seq = ?').run(SMTP_PASSWORD, org.seq)));
    expect(await sealStoredSecrets(ctx.ledger)).toBe(1);
    const stored = (await ctx.ledger.stmt('SELECT password FROM mail_settings').pluck().get()) as string;
    expect(stored.startsWith('ldk-sealed:v1:')).toBe(true);
    expect(await sealStoredSecrets(ctx.ledger)).toBe(0);
    await desk('testMail', { to: 'zoe@bronte.example' });
    expect(smtp.received.at(-1)!.parsed.subject).toBe('Ledgerdesk test message');
  });
});

describe('sending an invoice', () => {
  it('composes the filled message to edit: the customer, the amount due, the due date, the organization; no payment link line without a link', async () => {
    const composed = await desk('composeMessage', { number: invoice.number });
    expect(composed).toMatchObject({ to: ['zoe@bronte.example'], subject: `Invoice ${invoice.number} from Łódź Sp. z o.o.`, attachment: `${invoice.number}.pdf` });
    expect(composed.body).toContain('Dear Zoë Brontë,');
    expect(composed.body).toContain(`invoice ${invoice.number} for 1,020.00 GBP, due on ${invoice.dueDate}`);
    expect(composed.body).not.toContain('Pay online');
    expect(composed.body).not.toMatch(/\{\w+\}/);
  });

  it('goes with the PDF attached, as edited, a copy to the sender, and is recorded on the invoice and in the log', async () => {
    const before = smtp.received.length;
    const sent = await desk<SentMessage>('sendDocument', {
      number: invoice.number,
      subject: `Invoice ${invoice.number}: Żółć design`,
      body: 'Dear Zoë Brontë,\n\nYour invoice is attached.\n\nŁódź Sp. z o.o.',
      copyMe: true,
    });
    expect(smtp.received.length).toBe(before + 1);
    const got = smtp.received.at(-1)!;
    expect(got.rcpt.sort()).toEqual(['books@lodz.example', 'zoe@bronte.example']);
    expect(got.parsed.to && 'value' in got.parsed.to ? got.parsed.to.value.map((a) => a.address) : []).toEqual(['zoe@bronte.example']);
    expect(got.parsed.cc && 'value' in got.parsed.cc ? got.parsed.cc.value.map((a) => a.address) : []).toEqual(['books@lodz.example']);
    expect(got.parsed.subject).toBe(`Invoice ${invoice.number}: Żółć design`);
    expect(got.parsed.text?.trim()).toBe('Dear Zoë Brontë,\n\nYour invoice is attached.\n\nŁódź Sp. z o.o.');
    expect(got.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`${invoice.number}.pdf`, 'application/pdf']]);
    const pdf = await ctx.ledger.forOrg(org.seq, async () => L.documentPdf(ctx.ledger, org.seq, await L.requireDocument(ctx.ledger, org.seq, ['invoice'], invoice.number)));
    expect(Buffer.compare(got.parsed.attachments[0].content, pdf)).toBe(0);
    expect(sent).toMatchObject({ kind: 'invoice', number: invoice.number, to: ['zoe@bronte.example'], copyTo: 'Łódź Books <books@lodz.example>', messageId: got.parsed.messageId });
    expect(sent.serverReply).toContain(`queued as ${got.queueId}`);
    expect(await messagesOf(invoice.number)).toEqual([sent]);
    const logged = (await L.listAudit(ctx.ledger, org.seq, { action: 'mail.sent', limit: 10, offset: 0 })).entries;
    expect(logged[0]).toMatchObject({ targetType: 'document', targetId: invoice.id });
    expect(logged[0].summary).toContain(`invoice ${invoice.number} to zoe@bronte.example`);
    expect(logged[0].summary).toContain(got.parsed.messageId!);
  });

  it('is sent again on request, each message recorded; a credit note too, from its own wording', async () => {
    await desk('sendDocument', { number: invoice.number, to: ['other@bronte.example'] });
    expect(smtp.received.at(-1)!.parsed.subject).toBe(`Invoice ${invoice.number} from Łódź Sp. z o.o.`);
    expect((await messagesOf(invoice.number)).map((m) => m.to)).toEqual([['zoe@bronte.example'], ['other@bronte.example']]);
    const note = await desk<L.Document>('creditInvoice', { number: invoice.number, date: '2026-03-05', lines: ['Żółć design;1;85.00;4000;S'] });
    const sent = await desk<SentMessage>('sendDocument', { kind: 'credit_note', number: note.number });
    const got = smtp.received.at(-1)!;
    expect(got.parsed.subject).toBe(`Credit note ${note.number} from Łódź Sp. z o.o.`);
    expect(got.parsed.text).toContain(`credit note ${note.number} for 102.00 GBP`);
    expect(got.parsed.attachments[0].filename).toBe(`${note.number}.pdf`);
    expect(await messagesOf(note.number, 'credit_note')).toEqual([sent]);
  });

  it("uses the organization's own wording when it keeps one", async () => {
    await desk('setMailTemplate', { kind: 'invoice', subject: '{organization}: {number} ({amountDue})', body: 'Hello {customer}, due {dueDate}.' });
    const composed = await desk('composeMessage', { number: invoice.number });
    expect(composed.subject).toBe(`Łódź Sp. z o.o.: ${invoice.number} (918.00 GBP)`);
    expect(composed.body).toBe(`Hello Zoë Brontë, due ${invoice.dueDate}.`);
    await desk('setMailTemplate', { kind: 'invoice', subject: null, body: null });
  });

  it('refuses a draft, and a customer without an address unless one is named', async () => {
    const draft = await desk<L.Document>('createInvoice', { customer: 'Zoë Brontë', date: '2026-03-03', lines: ['Draft;1;10.00;4000;S'] });
    await expect(desk('sendDocument', { number: draft.number })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'draft' } });
    await desk('addContact', { name: 'Silent Partner', customer: true });
    const mute = await desk<L.Document>('createInvoice', { customer: 'Silent Partner', date: '2026-03-03', lines: ['Work;1;10.00;4000;S'], issue: true });
    await expect(desk('sendDocument', { number: mute.number })).rejects.toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'to' })] });
  });
});

describe('a failure leaves the document unsent, in words', () => {
  async function fails(reason: string, number: string, setUp: () => Promise<unknown>, words: RegExp) {
    await setUp();
    const before = (await messagesOf(number)).length;
    const audit = (await L.listAudit(ctx.ledger, org.seq, { limit: 1, offset: 0 })).totalCount;
    const error = await desk('sendDocument', { number }).then(
      () => null,
      (e: { code: string; message: string; details: unknown }) => e,
    );
    expect(error).toMatchObject({ code: 'mail_failed', details: { reason } });
    expect(error!.message).toMatch(words);
    expect(error!.message).not.toMatch(/\n\s+at /);
    expect((await messagesOf(number)).length).toBe(before);
    expect((await L.listAudit(ctx.ledger, org.seq, { limit: 1, offset: 0 })).totalCount).toBe(audit);
    expect(JSON.stringify(error)).not.toContain(SMTP_PASSWORD);
  }

  it('a refused sign-in', () => fails('sign_in_refused', invoice.number, () => settings({ password: 'not the password' }), /refused the sign-in/));

  it('a refused recipient', async () => {
    const theirs = await desk<L.Document>('createInvoice', { customer: 'Nowhere Ltd', date: '2026-03-02', lines: ['Work;1;10.00;4000;S'], issue: true });
    await fails('recipient_refused', theirs.number, () => settings({ password: SMTP_PASSWORD }), /refused the recipient accounts@refused\.example/);
  });

  it('a connection dropped in the middle of the message', async () => {
    const port = await droppingServer();
    await fails('connection', invoice.number, () => settings({ port, tls: 'none', user: null, password: null }), /dropped|closed/i);
  });

  it('a certificate that does not verify', async () => {
    delete process.env.LEDGERDESK_MAIL_CA_FILE;
    try {
      await fails('certificate', invoice.number, () => settings({ password: SMTP_PASSWORD }), /certificate does not verify/);
    } finally {
      process.env.LEDGERDESK_MAIL_CA_FILE = smtp.certFile;
    }
  });

  it('a server that does not answer', async () => {
    const port = await silentServer();
    process.env.LEDGERDESK_MAIL_TIMEOUT_MS = '500';
    try {
      await fails('timeout', invoice.number, () => settings({ port, tls: 'starttls' }), /did not answer in time/);
    } finally {
      delete process.env.LEDGERDESK_MAIL_TIMEOUT_MS;
    }
  });

  it('a server that refuses the connection', async () => {
    const port = await closedPort();
    await fails('connection', invoice.number, () => settings({ port, tls: 'none', user: null, password: null }), /connection to the mail server 127\.0\.0\.1:\d+ failed/);
  });

  it('and the password is in no answer, audit entry or stored setting', async () => {
    const shown = await desk('mailSettings');
    expect(await everythingSaid(shown, await messagesOf(invoice.number))).not.toContain(SMTP_PASSWORD);
  });
});

describe("a document's PDF", () => {
  it('is the same bytes each time it is made, a second apart', async () => {
    const make = () => ctx.ledger.forOrg(org.seq, async () => L.documentPdf(ctx.ledger, org.seq, await L.requireDocument(ctx.ledger, org.seq, ['invoice'], invoice.number)));
    const first = await make();
    await new Promise((r) => setTimeout(r, 1100));
    const second = await make();
    expect(second.length).toBe(first.length);
    expect(Buffer.compare(first, second)).toBe(0);
  });
});
