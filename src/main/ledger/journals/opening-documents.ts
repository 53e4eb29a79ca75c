// The open invoices and bills of the opening entry (issue 43): documents as
// any other (their number, customer or vendor, issue and due dates, what is
// still owed), so that the aging, payment matching, statements and payments
// work on them from the first day. They carry no lines of revenue or cost and
// no tax (those were in the books before): each posts what is owed against the
// opening balances' equity, dated the conversion date, when it entered these
// books. One that was paid or credited since stays as it is when the opening
// balances are set again; the others are replaced by what is given.
import { appendAudit, type Human } from '../access/audit';
import { newTimeOrderedId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError } from '../core/errors';
import { fromMinor, typedToMinor, type TypedMoney } from '../core/money';
import { contactFor, dueDateOf } from '../documents/draft';
import { lookups, type Lookups } from '../documents/lookups';
import { requireCurrency } from '../rates/currencies';
import type { Track } from '../totals/declared';
import { isCalendarDate } from '../../../shared/dates';

export interface OpeningDocumentInput {
  /** Its number: the invoice's own (from the system the books come from), or the vendor's for a bill. */
  number: string;
  /** The customer (an invoice) or vendor (a bill), by name or id. */
  contact: string;
  date: string;
  /** Default: the date plus the contact's terms (else 30 days). */
  dueDate?: string;
  /** What is still owed at the conversion, in its currency. */
  outstanding: TypedMoney;
  /** Default: the organization's. */
  currency?: string;
}

export type OpeningKind = 'invoice' | 'bill';

/** An open document checked and ready to write. */
export interface OpeningDocument {
  kind: OpeningKind;
  number: string;
  contactSeq: number;
  contact: string;
  date: string;
  dueDate: string;
  currency: string;
  minor: number;
}

/** Whether nothing has settled a document but its own opening posting (no payment, credit note, applied credit or void). */
export const UNTOUCHED_SQL = `d.state = 'issued' AND d.settled_minor = 0
  AND NOT EXISTS (SELECT 1 FROM lines l WHERE l.settles_seq = d.seq) AND NOT EXISTS (SELECT 1 FROM postings q WHERE q.settles_seq = d.seq AND q.document_seq <> d.seq)
  AND NOT EXISTS (SELECT 1 FROM credit_applications a WHERE a.document_seq = d.seq)`;

/** The documents of the opening entry: those posting to the opening balances. */
export const OPENING_DOCUMENTS_SQL = `SELECT DISTINCT document_seq FROM postings INDEXED BY postings_kind_date WHERE org_seq = ? AND kind = 'opening' AND document_seq IS NOT NULL`;

/** One open document as given, checked (its fields named `invoices[3].customer`...). */
async function checkOne(look: Lookups, kind: OpeningKind, d: OpeningDocumentInput, at: string, conversion: string): Promise<OpeningDocument> {
  const party = kind === 'bill' ? 'vendor' : 'customer';
  const number = d.number.trim();
  if (!number) throw invalid([{ field: `${at}.number`, message: 'is empty' }]);
  if (!isCalendarDate(d.date) || d.date > conversion) throw invalid([{ field: `${at}.date`, message: `must be a date on or before the conversion date ${conversion}` }]);
  let contact;
  try {
    contact = await contactFor(look, kind, d.contact);
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    const message = error.code === 'not_found' ? `"${d.contact}" is not a contact of this organization (ledgerdesk contact add "${d.contact}" --kind ${party})` : error.message;
    throw invalid([{ field: `${at}.${party}`, message }]);
  }
  const currency = d.currency ? requireCurrency(d.currency, `${at}.currency`) : look.org.currency;
  if (d.dueDate !== undefined && !isCalendarDate(d.dueDate)) throw invalid([{ field: `${at}.dueDate`, message: 'must be a date, YYYY-MM-DD' }]);
  let dueDate: string;
  try {
    dueDate = dueDateOf({ dueDate: d.dueDate }, d.date, contact);
  } catch {
    throw invalid([{ field: `${at}.dueDate`, message: `is before its date ${d.date}` }]);
  }
  const minor = typedToMinor(d.outstanding, currency, look.org.decimalMark, `${at}.outstanding`);
  if (minor <= 0) throw invalid([{ field: `${at}.outstanding`, message: 'is what is still owed: more than zero' }]);
  return { kind, number, contactSeq: contact.seq, contact: contact.name, date: d.date, dueDate, currency, minor };
}

/** The open documents as given, checked; numbers once each (an invoice's per organization, a bill's per vendor). */
export async function checkOpeningDocuments(
  ledger: Ledger,
  orgSeq: number,
  given: { invoices?: readonly OpeningDocumentInput[]; bills?: readonly OpeningDocumentInput[] },
  conversion: string,
): Promise<OpeningDocument[]> {
  const look = await lookups(ledger, orgSeq);
  const out: OpeningDocument[] = [];
  const seen = new Set<string>();
  for (const kind of ['invoice', 'bill'] as const) {
    for (const [i, d] of ((kind === 'bill' ? given.bills : given.invoices) ?? []).entries()) {
      const at = `${kind}s[${i}]`;
      const doc = await checkOne(look, kind, d, at, conversion);
      const key = `${kind}:${kind === 'bill' ? doc.contactSeq : ''}:${doc.number.toLowerCase()}`;
      if (seen.has(key)) throw invalid([{ field: `${at}.number`, message: `${doc.number} is given twice` }]);
      seen.add(key);
      out.push(doc);
    }
  }
  return out;
}

/** Refuses a number another document of the organization already has (an invoice's) or its vendor already used (a bill's). */
export async function assertNumbersFree(ledger: Ledger, orgSeq: number, docs: readonly OpeningDocument[]): Promise<void> {
  const invoice = ledger.stmt("SELECT 1 FROM documents WHERE org_seq = ? AND kind <> 'bill' AND kind = 'invoice' AND lower(number) = lower(?)");
  const bill = ledger.stmt("SELECT 1 FROM documents WHERE contact_seq = ? AND kind = 'bill' AND lower(number) = lower(?)");
  for (const d of docs) {
    const taken = d.kind === 'bill' ? await bill.get(d.contactSeq, d.number) : await invoice.get(orgSeq, d.number);
    if (taken)
      throw new LedgerError('conflict', `${d.kind === 'bill' ? `${d.contact} already has a bill` : 'An invoice is already'} numbered ${d.number}.`, {
        field: 'number',
        number: d.number,
      });
  }
}

const INSERT_DOCUMENT = `INSERT INTO documents (id, org_seq, kind, state, issued_at, contact_seq, number, issue_date, due_date, currency, tax_inclusive, net_minor, tax_minor, total_minor, notes, created_at)
  VALUES (?, ?, ?, 'issued', ?, ?, ?, ?, ?, ?, 0, ?, 0, ?, 'Open at the conversion (opening balances)', ?)`;
const INSERT_POSTING = `INSERT INTO postings (document_seq, org_seq, kind, settles_seq, contact_seq, date, currency, amount_minor, base_minor, memo)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Writes the open documents, each owing its amount against the opening balances on the conversion date, with its audit entry. */
export async function writeOpeningDocuments(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  docs: readonly OpeningDocument[],
  conversion: string,
  value: (d: OpeningDocument) => number | Promise<number>,
  track?: Track,
): Promise<void> {
  const doc = ledger.stmt(INSERT_DOCUMENT);
  const post = ledger.stmt(INSERT_POSTING);
  const at = nowIso();
  for (const d of docs) {
    const id = newTimeOrderedId();
    const seq = Number(await doc.insert(id, orgSeq, d.kind, at, d.contactSeq, d.number, d.date, d.dueDate, d.currency, d.minor, d.minor, at));
    // An invoice is owed to us (a debit); a bill we owe (a credit); the opening balances take the other side.
    const owed = d.kind === 'bill' ? -d.minor : d.minor;
    const base = d.kind === 'bill' ? -(await value(d)) : await value(d);
    await post.run(seq, orgSeq, d.kind === 'bill' ? 'payable' : 'receivable', seq, d.contactSeq, conversion, d.currency, owed, base, 'Open at the conversion');
    await post.run(
      seq,
      orgSeq,
      'opening',
      null,
      d.contactSeq,
      conversion,
      d.currency,
      -owed,
      -base,
      `${d.kind === 'bill' ? 'Bill' : 'Invoice'} ${d.number} open at the conversion`,
    );
    for (const [kind, minor, baseMinor] of [
      [d.kind === 'bill' ? 'payable' : 'receivable', owed, base],
      ['opening', -owed, -base],
    ] as const)
      track?.line({ orgSeq, currency: d.currency, date: conversion, kind, categorySeq: null, amountMinor: minor, baseMinor });
    await appendAudit(ledger, orgSeq, actor, {
      action: `${d.kind}.opened`,
      targetType: d.kind,
      targetId: id,
      summary: `${d.kind === 'bill' ? 'Bill' : 'Invoice'} ${d.number} ${d.kind === 'bill' ? 'from' : 'for'} ${d.contact}: ${fromMinor(d.minor, d.currency).toFixed(2)} ${d.currency} open at the conversion ${conversion} (dated ${d.date}, due ${d.dueDate})`,
    });
  }
}
