// Sending a document (issue 53): a preparer's "Send…" on an invoice, credit
// note or quote (each of MAILABLE) waits in Approvals as this proposal, the message resolved as it would
// go (recipients, subject, body, the copy), so the reviewer approves exactly
// what goes. Approval sends it through the organization's server (the desk
// hands in the sender) and records the message, in the review's transaction:
// a refusal undoes the approval, and the proposal stays pending with the
// reason (desk/proposals/review.ts notes it). A message sent cannot be taken
// back, so its approval is not reversed. A kind of the desk's, not the agent
// API's (the spec's proposal types are exact): kinds/index.ts keeps it apart.
import * as z from 'zod';
import { LedgerError } from '../../core/errors';
import { fromMinor } from '../../core/money';
import { KIND_NAMES } from '../../documents/documents';
import { MAILABLE, MAILABLE_KINDS, type MailableKind } from '../../mail/compose';
import { addressed } from '../../mail/settings';
import { NO_VIEW, type DocumentSendRequest, type ProposalKind } from '../kind';

export interface DocumentSendInput {
  kind: MailableKind;
  number: string;
  to?: string[];
  subject?: string;
  body?: string;
  copyTo?: string | null;
}

const Payload = z
  .object({
    kind: z.enum(MAILABLE_KINDS),
    documentId: z.uuid(),
    number: z.string(),
    to: z.array(z.string()),
    subject: z.string(),
    body: z.string(),
    copyTo: z.string().nullable(),
  })
  .meta({ id: 'DocumentSendPayload', description: 'type document_send' });
export type DocumentSendPayload = z.infer<typeof Payload>;

interface Outcome {
  kind: 'document_send';
  messageId: string;
}

const what = (p: DocumentSendPayload) => `${KIND_NAMES[p.kind]} ${p.number}`;

export const documentSend: ProposalKind<'document_send', DocumentSendInput, DocumentSendPayload, Outcome> = {
  type: 'document_send',
  approvedAs: 'sendDocument',
  payload: Payload,

  async draft({ ledger, orgSeq }, input) {
    // Refused now as sending it would be: a draft, a void document, no address, an address that is not one.
    const m = await MAILABLE[input.kind](ledger, orgSeq, input.number);
    const { to, copyTo, subject, body } = addressed(m, input);
    const payload = { kind: input.kind, documentId: m.document.id, number: m.number, to, subject, body, copyTo };
    return { payload, transactionSeq: null, summary: `Proposed sending ${what(payload)} to ${to.join(', ')}: "${subject}"` };
  },

  changeKey: (p) => `document_send|${p.documentId}|${JSON.stringify([p.to, p.subject, p.body, p.copyTo])}`,
  transactionId: () => null,

  async apply(_ctx, _row, p, { send }) {
    if (!send) throw new LedgerError('conflict', `Sending ${what(p)} is approved at the desk, where the mail goes from.`, { reason: 'no_mailer' });
    const request: DocumentSendRequest = { kind: p.kind, ref: p.documentId, to: p.to, subject: p.subject, body: p.body, copyTo: p.copyTo };
    const sent = await send(request);
    return { summary: `${what(p)} sent to ${sent.to.join(', ')}: message ${sent.messageId}`, outcome: { kind: 'document_send', messageId: sent.messageId } };
  },

  async undo(_ctx, row) {
    throw new LedgerError('conflict', 'This approval cannot be reversed: a message sent cannot be taken back (send a correction instead).', {
      id: row.id,
      reason: 'message_sent',
    });
  },

  async view({ ledger, orgSeq }, p) {
    const doc = (await ledger.stmt('SELECT issue_date, total_minor, currency FROM documents WHERE org_seq = ? AND id = ?').get(orgSeq, p.documentId)) as
      { issue_date: string; total_minor: number; currency: string } | undefined;
    const subject = doc
      ? { id: null, date: doc.issue_date, description: what(p), amount: fromMinor(doc.total_minor, doc.currency), currency: doc.currency, account: null, category: null }
      : null;
    const copy = p.copyTo ? ` (a copy to ${p.copyTo})` : '';
    return { ...NO_VIEW, lead: `Send by mail to ${p.to.join(', ')}${copy}`, subject, quote: `${p.subject}\n\n${p.body}` };
  },
};
