// Mail at the desk and as owner commands (issue 53): the organization's mail
// settings (`ledgerdesk mail set|show|test`), the wording per kind, and sending
// an invoice, credit note or quote (`ledgerdesk invoice send`, `quote send`:
// one send, the kind fixed for the quote's twin): the Send form first
// asks for the message filled (composeMessage), the person edits it, and it
// goes with the PDF attached. The password is taken, never given back.
import * as z from 'zod';
import { Line, Prose } from '../../api/fields';
import * as L from '../../ledger';
import { composeMessage, MAILABLE_KINDS, type MailableKind } from '../../ledger/mail/compose';
import { documentMessages, type SentMessage } from '../../ledger/mail/messages';
import { mailSettings, setMailSettings, type MailSettings } from '../../ledger/mail/settings';
import { mailTemplates, setMailTemplate, TEMPLATE_KINDS } from '../../ledger/mail/templates';
import { sendDocument, sendTestMessage } from '../../mail/send';
import { MAIL_TLS_MODES } from '../../../../db/values';
import { stdinPassword } from '../access/people';
import { op, Org, orgSeq, proposable, type DeskContext } from '../operation';
import { ANYONE, KEEPERS, OWNERS, PROPOSERS, STAFF } from '../roles';
import { Number_ } from '../documents/documents';

export const Address = Line(320).trim().min(3);
const Kind = z.enum(MAILABLE_KINDS).default('invoice').describe('invoice, credit_note or quote');

const settingsText = (s: MailSettings | null): string[] =>
  s
    ? [
        `SMTP ${s.host}:${s.port} (${s.tls})${s.user ? `, signing in as ${s.user}${s.passwordSet ? ' with a password' : ' without a password'}` : ', no sign-in'}`,
        `From ${s.from}${s.replyTo ? `, replies to ${s.replyTo}` : ''}`,
      ]
    : ['No mail settings yet: ledgerdesk mail set --host H --port P --tls starttls|tls|none --user U --password-stdin --from ADDRESS'];

const sentText = (m: SentMessage): string[] => [`Sent to ${m.to.join(', ')}${m.copyTo ? ` (a copy to ${m.copyTo})` : ''} at ${m.sentAt}: ${m.messageId}`];

/** Whose copy "copy to me" means: the person signed in, else (the machine's owner) the organization's own address. */
export async function senderAddress(ctx: DeskContext, seq: number): Promise<string> {
  return ctx.person?.email ?? (await mailSettings(ctx.ledger, seq))?.from ?? '';
}

/** What a send takes beyond the kind: the document and the message as the person edited it. */
const Sending = {
  number: Number_,
  to: z.array(Address).max(20).optional().describe("Whom to send it to (default: the customer's address)"),
  subject: Line(300).optional().describe("The subject (default: the organization's wording, filled)"),
  body: Prose(20_000).optional().describe("The message (default: the organization's wording, filled)"),
  copyMe: z.boolean().optional().describe('A copy to the sender'),
};
type SendingInput = { orgId: string; kind: MailableKind; number: string; to?: string[]; subject?: string; body?: string; copyMe?: boolean };

async function sendNow(ctx: DeskContext, { orgId, kind, number, copyMe, ...input }: SendingInput): Promise<SentMessage> {
  const seq = await orgSeq(ctx, orgId);
  return sendDocument(ctx.ledger, seq, ctx.reviewer, { kind, ref: number, ...input, copyTo: copyMe ? await senderAddress(ctx, seq) : null });
}

async function proposeSend(ctx: DeskContext, { orgId, kind, number, copyMe, ...input }: SendingInput): Promise<L.Proposal> {
  const seq = await orgSeq(ctx, orgId);
  return L.proposeDocumentSend(ctx.ledger, seq, ctx.reviewer, { kind, number, ...input, copyTo: copyMe ? await senderAddress(ctx, seq) : null });
}

export const mailOperations = {
  mailSettings: op(STAFF, z.strictObject({ ...Org }), async (ctx, { orgId }) => mailSettings(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'mail show',
    summary: "the organization's outgoing mail settings (never the password)",
    print: settingsText,
  }),
  setMailSettings: op(
    OWNERS,
    z.strictObject({
      ...Org,
      host: Line(253).trim().min(1).describe('The SMTP server'),
      port: z.int().min(1).max(65535).describe('Its port: 587 for STARTTLS, 465 for TLS'),
      tls: z.enum(MAIL_TLS_MODES).describe('starttls (upgrade a plain connection, required), tls (from the start) or none'),
      user: Line(320).trim().nullable().optional().describe('The user to sign in as'),
      password: Line(1000).nullable().optional().describe('The password (kept sealed; absent: the one kept stays)'),
      passwordStdin: z.boolean().optional().describe('(owner commands) read the password from standard input'),
      from: Address.describe('Who messages are from: "Name <address>" or an address'),
      replyTo: Address.nullable().optional().describe('Where replies go'),
    }),
    async (ctx, { orgId, passwordStdin, ...input }) =>
      setMailSettings(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { ...input, ...(passwordStdin ? { password: stdinPassword(ctx, true) } : {}) }),
    { name: 'mail set', summary: "set the organization's outgoing mail (SMTP) settings; --password-stdin reads the password", print: settingsText },
  ),
  testMail: op(
    KEEPERS,
    z.strictObject({ ...Org, to: Address.describe('Where the test message goes') }),
    async (ctx, { orgId, to }) => sendTestMessage(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, to),
    {
      name: 'mail test',
      summary: 'send a test message through the mail settings',
      print: sentText,
    },
  ),
  mailTemplates: op(STAFF, z.strictObject({ ...Org }), async (ctx, { orgId }) => mailTemplates(ctx.ledger, await orgSeq(ctx, orgId))),
  setMailTemplate: op(
    KEEPERS,
    z.strictObject({ ...Org, kind: z.enum(TEMPLATE_KINDS), subject: Line(300).nullable(), body: Prose(10_000).nullable() }),
    async (ctx, { orgId, kind, subject, body }) =>
      setMailTemplate(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, kind, subject === null || body === null ? null : { subject, body }),
  ),
  /** The Send form: the message as it would go, for the person to edit. */
  composeMessage: op(PROPOSERS, z.strictObject({ ...Org, kind: Kind, number: Number_ }), async (ctx, { orgId, kind, number }) => {
    const seq = await orgSeq(ctx, orgId);
    return { ...(await composeMessage(ctx.ledger, seq, kind, number)), copyTo: await senderAddress(ctx, seq) };
  }),
  /** A preparer's send waits in Approvals (issue 53): the message as it would go, sent when a bookkeeper approves it. */
  sendDocument: proposable(
    op(PROPOSERS, z.strictObject({ ...Org, kind: Kind, ...Sending }), sendNow, {
      name: 'invoice send',
      summary: 'send an invoice (or --kind credit_note|quote) with its PDF, by mail; again to resend',
      args: ['number'],
      print: sentText,
    }),
    proposeSend,
  ),
  /** `quote send`: the same send with the kind fixed, a quote's twin of `invoice send` (the screens call sendDocument). */
  mailQuote: proposable(
    op(PROPOSERS, z.strictObject({ ...Org, ...Sending }), (ctx, input) => sendNow(ctx, { ...input, kind: 'quote' }), {
      name: 'quote send',
      summary: 'send a quote with its PDF, by mail, and mark it sent; again to resend',
      args: ['number'],
      print: sentText,
    }),
    (ctx, input) => proposeSend(ctx, { ...input, kind: 'quote' }),
  ),
  /** The messages a document was sent in: whoever reads the document (a client too: their organization's invoices, read-only). */
  documentMessages: op(ANYONE, z.strictObject({ ...Org, kind: Kind, number: Number_ }), async (ctx, { orgId, kind, number }) => {
    const seq = await orgSeq(ctx, orgId);
    return documentMessages(ctx.ledger, seq, (await L.requireDocument(ctx.ledger, seq, [kind], number)).seq);
  }),
};
