// Quotes (estimates, issue 53): a document of its own kind to a customer, with
// lines, tax codes, currency and an expiry date (its due date), numbered in its
// own series (QU-0001). A quote books nothing: its stored state stays draft
// (so no report, return, aging or payment match reads it) and its life is
// quote_status: draft -> sent -> accepted or declined. Expired is read, not
// stored: a quote not yet accepted or declined whose expiry date is before the
// day asked about (nothing happens at expiry, so nothing is written then).
// Accepting makes a draft invoice with the quote's lines, linked both ways (the
// invoice names its quote; at most one invoice per quote, a unique index), in
// one write with the audit entries of both.
import type { Human } from '../access/audit';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { mapInOrder } from '../core/in-order';
import type { QuoteStatus } from '../../../../db/values';
import { documentBySeq, requireDocument, toDocument, type Document, type DocumentRow } from './documents';
import type { DocumentInput } from './draft';
import { audit, createRow, currentLines, money, updateDraft } from './entry';
import { lookups } from './lookups';

export type QuoteState = QuoteStatus | 'expired';

/** A quote as read: its lines and totals as an invoice's, its status on the day asked, the invoice it became. */
export interface Quote {
  id: string;
  number: string;
  status: QuoteState;
  contact: { id: string; name: string };
  date: string;
  expiryDate: string;
  currency: string;
  taxInclusive: boolean;
  lines: Document['lines'];
  taxes: Document['taxes'];
  net: number;
  tax: number;
  total: number;
  notes: string | null;
  /** The day it was accepted or declined. */
  decidedOn: string | null;
  /** The draft invoice made when it was accepted. */
  invoice: string | null;
}

const QUOTE: readonly ['quote'] = ['quote'];

/** Its status on `on`: expired when it was not decided and its expiry date is before that day. */
export function quoteStatusOn(row: Pick<DocumentRow, 'quote_status' | 'due_date'>, on: string): QuoteState {
  const status = row.quote_status ?? 'draft';
  return (status === 'draft' || status === 'sent') && row.due_date < on ? 'expired' : status;
}

export async function toQuote(ledger: Ledger, row: DocumentRow, on: string): Promise<Quote> {
  const d = await toDocument(ledger, row);
  const invoice = (await ledger.stmt('SELECT number FROM documents WHERE quote_seq = ?').pluck().get(row.seq)) as string | undefined;
  return {
    id: d.id,
    number: d.number,
    status: quoteStatusOn(row, on),
    contact: d.contact,
    date: d.issueDate,
    expiryDate: d.dueDate,
    currency: d.currency,
    taxInclusive: d.taxInclusive,
    lines: d.lines,
    taxes: d.taxes,
    net: d.net,
    tax: d.tax,
    total: d.total,
    notes: d.notes,
    decidedOn: row.decided_on ?? null,
    invoice: invoice ?? null,
  };
}

export const requireQuote = (ledger: Ledger, orgSeq: number, ref: string): Promise<DocumentRow> => requireDocument(ledger, orgSeq, QUOTE, ref);

/** A new quote (a draft: not sent yet), committed with its audit entry. `on`: the day its status is read for. */
export async function createQuote(ledger: Ledger, orgSeq: number, actor: Human, input: DocumentInput, on: string): Promise<Quote> {
  return ledger.write(async () => toQuote(ledger, await createRow(await lookups(ledger, orgSeq), actor, input, { kind: 'quote' }), on));
}

/** Quotes newest first, with their status on `on`; `status` filters on it. */
export async function listQuotes(ledger: Ledger, orgSeq: number, on: string, q: { status?: QuoteState; contactSeq?: number } = {}): Promise<Quote[]> {
  const rows = await ledger.rows<DocumentRow>(
    `SELECT * FROM documents WHERE org_seq = ? AND kind = 'quote'${q.contactSeq ? ' AND contact_seq = ?' : ''} ORDER BY issue_date DESC, seq DESC`,
    orgSeq,
    ...(q.contactSeq ? [q.contactSeq] : []),
  );
  return mapInOrder(
    rows.filter((r) => q.status === undefined || quoteStatusOn(r, on) === q.status),
    (r) => toQuote(ledger, r, on),
  );
}

/** A quote not yet accepted or declined (its lines change, it is sent, accepted or declined); else a conflict naming what it is. */
function assertOpenQuote(row: DocumentRow, doing: string): void {
  const status = row.quote_status ?? 'draft';
  if (status === 'accepted' || status === 'declined')
    throw new LedgerError('conflict', `Quote ${row.number} was ${status}${row.decided_on ? ` on ${row.decided_on}` : ''}: it is not ${doing}.`, { number: row.number, status });
}

/** Changes a quote not yet decided: any field, the lines as a whole. */
export async function editQuote(ledger: Ledger, orgSeq: number, actor: Human, ref: string, input: Partial<DocumentInput>, on: string): Promise<Quote> {
  return ledger.write(async () => {
    assertOpenQuote(await requireQuote(ledger, orgSeq, ref), 'changed');
    const was = await requireQuote(ledger, orgSeq, ref);
    // Its expiry stays unless given (a new date alone would otherwise take the contact's payment terms).
    await updateDraft(ledger, orgSeq, actor, QUOTE, ref, { ...input, dueDate: input.dueDate ?? (input.termsDays === undefined ? was.due_date : undefined) });
    return toQuote(ledger, await documentBySeq(ledger, was.seq), on);
  });
}

/** A quote's status set to sent: by hand (below) or in the write that records the message it was mailed in (mail/send.ts). */
export async function setQuoteSent(ledger: Ledger, seq: number): Promise<void> {
  await ledger.stmt("UPDATE documents SET quote_status = 'sent' WHERE seq = ?").run(seq);
}

/** Marks a quote sent by hand (mailed from elsewhere; `quote send` mails it and marks it so): from draft, or again when sent. */
export async function markQuoteSent(ledger: Ledger, orgSeq: number, actor: Human, ref: string, on: string): Promise<Quote> {
  return ledger.write(async () => {
    const row = await requireQuote(ledger, orgSeq, ref);
    assertOpenQuote(row, 'sent');
    await setQuoteSent(ledger, row.seq);
    await audit(ledger, actor, row, 'sent', `quote ${row.number} to ${await contactName(ledger, row)} marked sent: ${money(row.total_minor, row.currency)}`);
    return toQuote(ledger, await documentBySeq(ledger, row.seq), on);
  });
}

const contactName = async (ledger: Ledger, row: DocumentRow) => (await ledger.stmt('SELECT name FROM counterparties WHERE seq = ?').pluck().get(row.contact_seq)) as string;

/** Declines a quote on `date` (the customer's answer). */
export async function declineQuote(ledger: Ledger, orgSeq: number, actor: Human, ref: string, date: string, reason?: string): Promise<Quote> {
  return ledger.write(async () => {
    const row = await requireQuote(ledger, orgSeq, ref);
    assertOpenQuote(row, 'declined');
    await ledger.stmt("UPDATE documents SET quote_status = 'declined', decided_on = ? WHERE seq = ?").run(date, row.seq);
    await audit(ledger, actor, row, 'declined', `quote ${row.number} declined by ${await contactName(ledger, row)} on ${date}${reason?.trim() ? `: ${reason.trim()}` : ''}`);
    return toQuote(ledger, await documentBySeq(ledger, row.seq), date);
  });
}

/**
 * Accepts a quote on `date`: a draft invoice dated that day with the quote's lines (its tax worked out again at that
 * date, as issuing does), naming the quote, in the same write. An expired quote may be accepted (the customer agreed
 * late; the person accepting decides), a declined one not.
 */
export async function acceptQuote(ledger: Ledger, orgSeq: number, actor: Human, ref: string, date: string): Promise<{ quote: Quote; invoice: Document }> {
  return ledger.write(async () => {
    const row = await requireQuote(ledger, orgSeq, ref);
    assertOpenQuote(row, 'accepted');
    await ledger.stmt("UPDATE documents SET quote_status = 'accepted', decided_on = ? WHERE seq = ?").run(date, row.seq);
    const look = await lookups(ledger, orgSeq);
    const input: DocumentInput = {
      contact: (await ledger.stmt('SELECT id FROM counterparties WHERE seq = ?').pluck().get(row.contact_seq)) as string,
      date,
      currency: row.currency,
      taxInclusive: row.tax_inclusive === 1,
      lines: await currentLines(ledger, row),
      notes: row.notes,
    };
    const invoice = await createRow(look, actor, input, { kind: 'invoice' }, { quoteSeq: row.seq });
    await audit(ledger, actor, row, 'accepted', `quote ${row.number} accepted on ${date}: draft invoice ${invoice.number} made from it`);
    return { quote: await toQuote(ledger, await documentBySeq(ledger, row.seq), date), invoice: await toDocument(ledger, invoice) };
  });
}
