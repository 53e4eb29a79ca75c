// Quotes sent by mail (issue 53), against the real SMTP server of
// test/support/smtp.ts, each message read back with mailparser: a quote goes
// with its own PDF and its wording (its total, valid until its expiry), and is
// marked sent in the write that records the message and its audit entry; a
// draft quote may go, an accepted or expired one is refused in words; a mail
// failure marks nothing. A preparer's send of a quote waits in Approvals;
// approved, it goes.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext, DeskPerson } from '../src/main/desk/operation';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import type { SentMessage } from '../src/main/ledger/mail/messages';
import { deskAs } from './support/desk';
import { mailBooks, mailSettingsFor } from './support/mail-books';
import { type TestSmtp } from './support/smtp';

let ctx: DeskContext;
let org: L.Organization;
let smtp: TestSmtp;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const settings = (changes: Record<string, unknown> = {}) => desk('setMailSettings', mailSettingsFor(smtp, changes));
// Valid until far ahead: a quote's expiry is read against today's clock.
const quote = (expiryDate = '2099-12-31') => desk<L.Quote>('createQuote', { customer: 'Zoë Brontë', date: '2026-03-02', expiryDate, lines: ['Żółć design;2;150.00;4000;S'] });
const statusOf = async (number: string) => (await desk<L.Quote>('showQuote', { number })).status;
const messagesOf = (number: string) => desk<SentMessage[]>('documentMessages', { kind: 'quote', number });
const auditCount = async () => (await L.listAudit(ctx.ledger, org.seq, { limit: 1, offset: 0 })).totalCount;

beforeAll(async () => {
  ({ smtp, org, ctx } = await mailBooks());
  await desk('addContact', { name: 'Zoë Brontë', customer: true, email: 'zoe@bronte.example' });
  await settings();
});

describe('sending a quote', () => {
  it("goes with the quote's PDF and wording, a draft marked sent with the message and its audit entry", async () => {
    const q = await quote();
    expect(q.status).toBe('draft');
    const sent = await desk<SentMessage>('mailQuote', { number: q.number, copyMe: true });
    const got = smtp.received.at(-1)!;
    expect(got.rcpt.sort()).toEqual(['books@lodz.example', 'zoe@bronte.example']);
    expect(got.parsed.subject).toBe(`Quote ${q.number} from Łódź Sp. z o.o.`);
    expect(got.parsed.text).toContain(`quote ${q.number} for 360.00 GBP, valid until 2099-12-31`);
    expect(got.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`${q.number}.pdf`, 'application/pdf']]);
    const pdf = await ctx.ledger.forOrg(org.seq, async () => L.documentPdf(ctx.ledger, org.seq, await L.requireQuote(ctx.ledger, org.seq, q.number)));
    expect(Buffer.compare(got.parsed.attachments[0].content, pdf)).toBe(0);
    expect(sent).toMatchObject({ kind: 'quote', number: q.number, to: ['zoe@bronte.example'], messageId: got.parsed.messageId });
    expect(await statusOf(q.number)).toBe('sent');
    expect(await messagesOf(q.number)).toEqual([sent]);
    const [logged] = (await L.listAudit(ctx.ledger, org.seq, { action: 'mail.sent', limit: 1, offset: 0 })).entries;
    expect(logged).toMatchObject({ targetType: 'document', targetId: q.id });
    expect(logged.summary).toContain(`quote ${q.number} to zoe@bronte.example`);
    // Sent again on request, through the one send of every kind.
    await desk('sendDocument', { kind: 'quote', number: q.number });
    expect((await messagesOf(q.number)).length).toBe(2);
  });

  it('refuses an accepted quote and an expired one with a conflict naming why, nothing sent', async () => {
    const accepted = await quote();
    await desk('acceptQuote', { number: accepted.number, date: '2026-03-05' });
    const expired = await quote('2026-03-31');
    const before = smtp.received.length;
    await expect(desk('mailQuote', { number: accepted.number })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'accepted' } });
    await expect(desk('mailQuote', { number: expired.number })).rejects.toMatchObject({
      code: 'conflict',
      message: `quote ${expired.number} was valid until 2026-03-31: it is not sent (change its expiry date to send it).`,
      details: { reason: 'expired' },
    });
    expect(smtp.received.length).toBe(before);
    expect(await statusOf(expired.number)).toBe('expired');
  });

  it('a mail failure marks nothing: the quote stays a draft, no message, no audit entry, the error in words', async () => {
    const q = await quote();
    await settings({ password: 'not the password' });
    try {
      const audit = await auditCount();
      await expect(desk('mailQuote', { number: q.number })).rejects.toMatchObject({ code: 'mail_failed', message: expect.stringMatching(/refused the sign-in/) });
      expect(await statusOf(q.number)).toBe('draft');
      expect(await messagesOf(q.number)).toEqual([]);
      expect(await auditCount()).toBe(audit);
    } finally {
      await settings();
    }
  });
});

describe("a preparer's send of a quote", () => {
  it('waits in Approvals as a document_send proposal, nothing sent until a bookkeeper approves it', async () => {
    await ctx.ledger.forOrg(org.seq, () =>
      addMember(ctx.ledger, org.seq, L.deskActor(), { email: 'pat@firm.example', name: 'Pat Junior', role: 'preparer', password: 'correct horse battery staple' }),
    );
    const row = (await personByEmail(ctx.ledger, 'pat@firm.example'))!;
    const pat: DeskPerson = { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: false };
    const q = await quote();
    const before = smtp.received.length;
    const { proposed } = await deskAs<{ proposed: L.Proposal[] }>({ ...ctx, mode: 'browser', person: pat }, org.id, 'mailQuote', { number: q.number });
    expect(proposed).toEqual([expect.objectContaining({ type: 'document_send', status: 'pending' })]);
    expect(smtp.received.length).toBe(before);
    expect(await statusOf(q.number)).toBe('draft');
    // Approved: the quote goes as proposed, and is sent.
    const [approved] = await desk<{ error: unknown }[]>('reviewProposals', { ids: [proposed[0].id], decision: 'approve' });
    expect(approved.error).toBeNull();
    expect(smtp.received.at(-1)!.parsed.subject).toBe(`Quote ${q.number} from Łódź Sp. z o.o.`);
    expect(await statusOf(q.number)).toBe('sent');
  });
});
