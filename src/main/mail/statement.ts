// Sending a customer's statement of account (issue 53): the message as composed
// (ledger/mail/statement.ts) with what the person edited, the statement's PDF
// attached, through the organization's server; recorded on the customer with
// its audit entry only once the server accepted it. A failure records nothing
// and says what the server did, in words (transport.ts), as a document's does.
import type { Actor } from '../ledger/access/audit';
import { requireContactRow } from '../ledger/contacts/contacts';
import type { Ledger } from '../ledger/core/storage';
import type { StatementOfAccount, StatementPeriod } from '../ledger/documents/owed/account';
import { statementPdf } from '../ledger/documents/pdf/statement';
import { recordMessage, type SentMessage } from '../ledger/mail/messages';
import { addressed } from '../ledger/mail/settings';
import { composeStatement } from '../ledger/mail/statement';
import { deliverWithPdf } from './transport';

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
  const sent = await deliverWithPdf(ledger, orgSeq, addressed(m, { ...input, to: input.recipients }), m.attachment, () => statementPdf(ledger, orgSeq, m.statement));
  const contact = await requireContactRow(ledger, orgSeq, m.statement.customer.id);
  const { message } = await recordMessage(ledger, orgSeq, actor, { kind: 'statement', contactSeq: contact.seq, contact: { id: contact.id, name: contact.name }, ...sent });
  return { message, statement: m.statement };
}
