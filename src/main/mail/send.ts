// Sending a document (issue 53): its message as composed (ledger/mail/compose.ts)
// with what the person edited (recipients, subject, body), its PDF attached,
// through the organization's server; recorded on the document with its audit
// entry only once the server accepted it. A failure records nothing.
import type { Actor } from '../ledger/access/audit';
import { invalid } from '../ledger/core/errors';
import type { Ledger } from '../ledger/core/storage';
import { setQuoteSent } from '../ledger/documents/quotes';
import { markRepeatInvoiceSent } from '../ledger/documents/repeats/sending';
import { MAILABLE, type MailableKind } from '../ledger/mail/compose';
import { recordMessage, type SentMessage } from '../ledger/mail/messages';
import { addressed, checkAddresses, mailServer } from '../ledger/mail/settings';
import { deliver, deliverWithPdf } from './transport';

export interface SendInput {
  kind: MailableKind;
  /** The document's number or id. */
  ref: string;
  /** Absent: the contact's address. */
  to?: string[];
  /** Absent: the organization's wording, filled. */
  subject?: string;
  body?: string;
  /** A copy to this address (the sender's), on request. */
  copyTo?: string | null;
}

/**
 * Sends a document and records the message; a `mail_failed` error in words, nothing recorded, when the server does not
 * accept it. `alsoInTheWrite`: what the caller commits with the record (the repeating pass takes its next invoice).
 */
export async function sendDocument(ledger: Ledger, orgSeq: number, actor: Actor, input: SendInput, alsoInTheWrite?: () => Promise<void>): Promise<SentMessage> {
  const m = await MAILABLE[input.kind](ledger, orgSeq, input.ref);
  const sent = await deliverWithPdf(ledger, orgSeq, addressed(m, input), m.attachment, m.pdf);
  // One write: the message, its audit entry and, for an invoice a repeating invoice made, its sending marked sent; a quote, sent.
  const { message } = await ledger.write(async () => {
    await alsoInTheWrite?.();
    if (m.kind === 'invoice') await markRepeatInvoiceSent(ledger, m.document.seq);
    if (m.kind === 'quote') await setQuoteSent(ledger, m.document.seq);
    return recordMessage(ledger, orgSeq, actor, {
      kind: m.kind,
      document: { seq: m.document.seq, id: m.document.id, number: m.document.number },
      contactSeq: m.document.contact_seq,
      ...sent,
    });
  });
  return message;
}

/** A test message to an address: the settings proven; recorded (kind "test") with its audit entry. */
export async function sendTestMessage(ledger: Ledger, orgSeq: number, actor: Actor, address: string): Promise<SentMessage> {
  const [to] = checkAddresses('to', [address]);
  if (!to) throw invalid([{ field: 'to', message: 'is empty' }]);
  const server = await mailServer(ledger, orgSeq);
  const subject = 'Ledgerdesk test message';
  const body = `This message was sent to test the mail settings: ${server.host}:${server.port} (${server.tls}), from ${server.from}.`;
  const sent = await deliver(server, { to: [to], subject, text: body });
  return (await recordMessage(ledger, orgSeq, actor, { kind: 'test', to: [to], subject, body, messageId: sent.messageId, serverReply: sent.response })).message;
}
