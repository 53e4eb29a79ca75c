// What a message about a document says before anyone edits it (issue 53): its
// recipients (the contact's address), the organization's wording of its kind
// filled from the document, and the PDF it carries. One entry per kind of
// document that can be mailed (MAILABLE). A quote's state stays draft (it
// books nothing): what it is is its quote status, so a draft quote may go
// (sending is how it becomes sent) and an accepted, declined or expired one not.
import { writeAmount } from '../../../shared/amounts';
import { organizationBySeq, type Organization } from '../access/organizations';
import { LedgerError } from '../core/errors';
import type { Ledger } from '../core/storage';
import { KIND_NAMES, requireDocument, type DocumentKind, type DocumentRow } from '../documents/documents';
import { documentPdf } from '../documents/pdf/pdf';
import { quoteStatusOn } from '../documents/quotes';
import { today } from '../core/clock';
import { fillTemplate, mailTemplate, type Filling, type MailTemplate, type TemplateKind } from './templates';

/** A message ready to be edited and sent: whom it goes to, what it says, and what it carries. */
export interface Composed extends MailTemplate {
  kind: MailableKind;
  number: string;
  to: string[];
  /** The attachment's file name. */
  attachment: string;
  customer: string;
}

/** A composed message with what the sender needs beyond what a person sees and edits. */
export interface Mailable extends Composed {
  document: DocumentRow;
  values: Filling;
  pdf: () => Promise<Buffer>;
}

const money = (minor: number, currency: string, org: Organization) => `${writeAmount(minor, currency, org.decimalMark)} ${currency}`;

/** A document's placeholders: what is due and when, its link to pay (a field Stripe's links fill: empty until then), the names. */
export async function documentFilling(ledger: Ledger, org: Organization, row: DocumentRow): Promise<Filling> {
  const contact = (await ledger.stmt('SELECT name FROM counterparties WHERE seq = ?').get(row.contact_seq)) as { name: string };
  const due = row.kind === 'credit_note' || row.kind === 'quote' ? row.total_minor : row.total_minor - row.settled_minor;
  const link = (row as DocumentRow & { payment_link?: string | null }).payment_link;
  return {
    number: row.number,
    amountDue: money(due, row.currency, org),
    dueDate: row.due_date,
    paymentLink: link ?? '',
    organization: org.legalName ?? org.name,
    customer: contact.name,
  };
}

/** A quote goes while it is open: a draft or sent one not past its expiry (expired, accepted and declined are refused). */
function assertQuoteSendable(row: DocumentRow, what: string): void {
  const status = quoteStatusOn(row, today());
  if (status === 'draft' || status === 'sent') return;
  const why =
    status === 'expired'
      ? `was valid until ${row.due_date}: it is not sent (change its expiry date to send it)`
      : `was ${status}${row.decided_on ? ` on ${row.decided_on}` : ''}: it is not sent`;
  throw new LedgerError('conflict', `${what} ${why}.`, { reason: status, number: row.number });
}

async function documentMailable(ledger: Ledger, orgSeq: number, kind: DocumentKind & TemplateKind, ref: string): Promise<Mailable> {
  const row = await requireDocument(ledger, orgSeq, [kind], ref);
  const what = `${KIND_NAMES[kind]} ${row.number}`;
  if (kind === 'quote') assertQuoteSendable(row, what);
  else if (row.state === 'draft') throw new LedgerError('conflict', `${what} is a draft: issue it before sending it.`, { reason: 'draft', number: row.number });
  if (row.state === 'void') throw new LedgerError('conflict', `${what} is void: it is not sent.`, { reason: 'void', number: row.number });
  const org = await organizationBySeq(ledger, orgSeq);
  const values = await documentFilling(ledger, org, row);
  const email = ((await ledger.stmt('SELECT email FROM counterparties WHERE seq = ?').get(row.contact_seq)) as { email: string | null }).email;
  return {
    kind,
    number: row.number,
    to: email ? [email] : [],
    ...fillTemplate(await mailTemplate(ledger, orgSeq, kind), values),
    attachment: `${row.number}.pdf`,
    customer: values.customer!,
    document: row,
    values,
    pdf: () => documentPdf(ledger, orgSeq, row),
  };
}

/** Each kind of document that can be mailed, and how its message is made. */
export const MAILABLE = {
  invoice: (ledger: Ledger, orgSeq: number, ref: string) => documentMailable(ledger, orgSeq, 'invoice', ref),
  credit_note: (ledger: Ledger, orgSeq: number, ref: string) => documentMailable(ledger, orgSeq, 'credit_note', ref),
  quote: (ledger: Ledger, orgSeq: number, ref: string) => documentMailable(ledger, orgSeq, 'quote', ref),
} satisfies Record<string, (ledger: Ledger, orgSeq: number, ref: string) => Promise<Mailable>>;

export type MailableKind = keyof typeof MAILABLE;
export const MAILABLE_KINDS = Object.keys(MAILABLE) as MailableKind[];

/** The message a document would be sent in, filled, for a person to edit (nothing written). */
export async function composeMessage(ledger: Ledger, orgSeq: number, kind: MailableKind, ref: string): Promise<Composed> {
  const { kind: k, number, to, subject, body, attachment, customer } = await MAILABLE[kind](ledger, orgSeq, ref);
  return { kind: k, number, to, subject, body, attachment, customer };
}
