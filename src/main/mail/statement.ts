// Sending a customer's statement of account (issue 53): the message as composed
// (ledger/mail/statement.ts) with what the person edited, the statement's PDF
// attached, through the organization's server; recorded on the customer with
// its audit entry only once the server accepted it. A failure records nothing
// and says what the server did, in words (transport.ts), as a document's does.
import type { Actor } from '../ledger/access/audit';
import { requireContactRow } from '../ledger/contacts/contacts';
import { invalid } from '../ledger/core/errors';
import type { Ledger } from '../ledger/core/storage';
import type { StatementOfAccount, StatementPeriod } from '../ledger/documents/owed/account';
import { statementPdf } from '../ledger/documents/pdf/statement';
import { recordMessage, type SentMessage } from '../ledger/mail/messages';
import { checkAddresses, mailServer } from '../ledger/mail/settings';
import { composeStatement } from '../ledger/mail/statement';
import { deliver } from './transport';

export interface StatementSend extends StatementPeriod {
  /** The customer: its name or id. */
  customer: string;
  /** Whom it goes to; absent: the customer's address. */
  recipients?: string[];
  /** Absent: the organization's `statement` wording, filled. */
  subject?: string;
  body?: string;
  copyTo?: string | null;
}

/** Sends a customer's statement and records the message on it; `mail_failed` in words, nothing recorded, when the server does not take it. */
export async function sendStatement(ledger: Ledger, orgSeq: number, actor: Actor, input: StatementSend): Promise<{ message: SentMessage; statement: StatementOfAccount }> {
  const m = await composeStatement(ledger, orgSeq, input.customer, { from: input.from, to: input.to, currency: input.currency });
  const to = checkAddresses('to', input.recipients ?? m.to);
  if (!to.length) throw invalid([{ field: 'to', message: `${m.customer} has no email address: name whom to send it to` }]);
  const copyTo = input.copyTo ? checkAddresses('copyTo', [input.copyTo])[0] : null;
  const subject = (input.subject ?? m.subject).trim();
  if (!subject) throw invalid([{ field: 'subject', message: 'is empty' }]);
  const body = input.body ?? m.body;
  const server = await mailServer(ledger, orgSeq);
  const pdf = await statementPdf(ledger, orgSeq, m.statement);
  const sent = await deliver(server, { to, cc: copyTo, subject, text: body, attachments: [{ filename: m.attachment, content: pdf, contentType: 'application/pdf' }] });
  const contact = await requireContactRow(ledger, orgSeq, m.statement.customer.id);
  const { message } = await recordMessage(ledger, orgSeq, actor, {
    kind: 'statement',
    contactSeq: contact.seq,
    contact: { id: contact.id, name: contact.name },
    to: to.filter((a) => !sent.rejected.includes(a)),
    copyTo,
    subject,
    body,
    attachment: m.attachment,
    messageId: sent.messageId,
    serverReply: sent.response,
  });
  return { message, statement: m.statement };
}
