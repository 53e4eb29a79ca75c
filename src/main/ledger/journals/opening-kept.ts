// Setting the opening balances again (issue 43): the open invoices and bills
// nothing has settled since are taken out and written anew from what is given;
// one that was paid, credited, paid with a credit or voided since stays as it
// is (the payment rests on it), and so does the conversion date then.
import { appendAudit, type Human } from '../access/audit';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { fromMinor } from '../core/money';
import type { JournalRow } from './journals';
import { OPENING_DOCUMENTS_SQL, UNTOUCHED_SQL, type OpeningDocument } from './opening-documents';

export interface DocumentFacts {
  seq: number;
  id: string;
  kind: 'invoice' | 'bill';
  number: string;
  contact_seq: number;
  contact: string;
  issue_date: string;
  due_date: string;
  currency: string;
  total_minor: number;
  untouched: number;
}

/** The opening entry's documents, with whether anything settled them since. */
export async function openingDocumentRows(ledger: Ledger, orgSeq: number): Promise<DocumentFacts[]> {
  return ledger.rows<DocumentFacts>(
    `SELECT d.seq, d.id, d.kind, d.number, d.contact_seq, c.name AS contact, d.issue_date, d.due_date, d.currency, d.total_minor, (${UNTOUCHED_SQL}) AS untouched
     FROM documents d JOIN counterparties c ON c.seq = d.contact_seq WHERE d.seq IN (${OPENING_DOCUMENTS_SQL}) ORDER BY d.kind, d.issue_date, d.number`,
    orgSeq,
  );
}

const asOpening = (d: DocumentFacts): OpeningDocument => ({
  kind: d.kind,
  number: d.number,
  contactSeq: d.contact_seq,
  contact: d.contact,
  date: d.issue_date,
  dueDate: d.due_date,
  currency: d.currency,
  minor: d.total_minor,
});

/** A document's number as it is unique: an invoice's in the organization, a bill's with its vendor. */
const numberKey = (d: Pick<OpeningDocument, 'kind' | 'number' | 'contactSeq'>) => `${d.kind}:${d.kind === 'bill' ? d.contactSeq : ''}:${d.number.toLowerCase()}`;
const sameFigures = (a: OpeningDocument, b: OpeningDocument) => a.contactSeq === b.contactSeq && a.minor === b.minor && a.currency === b.currency && a.date === b.date;

export interface DocumentPlan {
  /** The entry's documents that stay: those something settled since, and those given again as they are. */
  keep: OpeningDocument[];
  remove: DocumentFacts[];
  add: OpeningDocument[];
}

/**
 * What setting the documents again does: a document something settled stays as it is (a new conversion date, or
 * other figures given for it, are refused); one given again as it is stays; the other untouched ones go, and what
 * is given anew is added.
 */
export async function planDocuments(ledger: Ledger, orgSeq: number, was: JournalRow | undefined, date: string, given: readonly OpeningDocument[]): Promise<DocumentPlan> {
  const rows = await openingDocumentRows(ledger, orgSeq);
  const touched = rows.filter((d) => !d.untouched);
  if (touched.length && was && was.date !== date)
    throw new LedgerError('conflict', `${touched[0].number} of the opening balances was paid or credited since: the conversion date stays ${was.date}.`, {
      field: 'date',
      number: touched[0].number,
    });
  const byNumber = new Map(given.map((g) => [numberKey(g), g]));
  for (const k of touched.map(asOpening)) {
    const named = byNumber.get(numberKey(k));
    if (named && !sameFigures(named, k))
      throw new LedgerError(
        'conflict',
        `${k.number} was paid or credited since: it stays in the opening balances as it is (${fromMinor(k.minor, k.currency).toFixed(2)} ${k.currency} owed at the conversion, dated ${k.date}).`,
        { field: `${k.kind}s`, number: k.number },
      );
  }
  const stays = (d: DocumentFacts) => {
    const named = byNumber.get(numberKey(asOpening(d)));
    return !d.untouched || (was?.date === date && named !== undefined && sameFigures(named, asOpening(d)) && named.dueDate === d.due_date);
  };
  const keep = rows.filter(stays).map(asOpening);
  const kept = new Set(keep.map(numberKey));
  return { keep, remove: rows.filter((d) => !stays(d)), add: given.filter((g) => !kept.has(numberKey(g))) };
}

/** Takes out documents of the entry nothing settled: their postings and themselves, each audited. */
export async function removeDocuments(ledger: Ledger, orgSeq: number, actor: Human, remove: readonly DocumentFacts[]): Promise<void> {
  for (const d of remove) {
    await ledger.stmt('DELETE FROM postings WHERE document_seq = ?').run(d.seq);
    await ledger.stmt('DELETE FROM documents WHERE seq = ?').run(d.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: `${d.kind}.removed`,
      targetType: d.kind,
      targetId: d.id,
      summary: `${d.kind === 'bill' ? 'Bill' : 'Invoice'} ${d.number} (${d.contact}) taken out of the opening balances as they were set again`,
    });
  }
}
