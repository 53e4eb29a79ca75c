// Setting the opening balances again (issue 43): the open invoices and bills
// nothing has settled since are taken out and written anew from what is given;
// one that was paid, credited, paid with a credit or voided since stays as it
// is (the payment rests on it), and so does the conversion date then. Its VAT
// alone may still be given or changed (issue 50: the tax return of its
// payment's period warns when an opening document has none), unless it was
// voided, or on the cash basis a filed return took its payment.
import { appendAudit, type Human } from '../access/audit';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { fromMinor } from '../core/money';
import type { JournalRow } from './journals';
import { conversionOf, OPENING_DOCUMENTS_SQL, UNTOUCHED_SQL, openingPostings, postOpeningDocument, vatWords, type OpeningDocument } from './opening-documents';
import { lastFiledTo } from '../tax/return';

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
  state: string;
  /** Its VAT (issue 50): the code on its opening posting and the amount, and whether it is due when paid (in the tax control account). */
  tax_code_seq: number | null;
  tax_code: string | null;
  tax_minor: number;
  vat_when_paid: number;
}

/** The taxed opening posting of a document (the first: a void's reversal copies it). */
const TAXED = `SELECT p.tax_code_seq FROM postings p WHERE p.document_seq = d.seq AND p.kind = 'opening' AND p.tax_code_seq IS NOT NULL ORDER BY p.seq LIMIT 1`;

/** The opening entry's documents, with whether anything settled them since. */
export async function openingDocumentRows(ledger: Ledger, orgSeq: number): Promise<DocumentFacts[]> {
  return ledger.rows<DocumentFacts>(
    `SELECT d.seq, d.id, d.kind, d.number, d.contact_seq, c.name AS contact, d.issue_date, d.due_date, d.currency, d.total_minor, (${UNTOUCHED_SQL}) AS untouched,
       d.state, (${TAXED}) AS tax_code_seq, (SELECT t.code FROM tax_codes t WHERE t.seq = (${TAXED})) AS tax_code, d.tax_minor,
       CASE WHEN EXISTS (SELECT 1 FROM postings v WHERE v.document_seq = d.seq AND v.kind = 'tax') THEN 1 ELSE 0 END AS vat_when_paid
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
  taxCodeSeq: d.tax_code_seq,
  taxCode: d.tax_code,
  taxMinor: d.tax_minor,
  vatWhenPaid: d.vat_when_paid === 1,
});

/** A document's number as it is unique: an invoice's in the organization, a bill's with its vendor. */
const numberKey = (d: Pick<OpeningDocument, 'kind' | 'number' | 'contactSeq'>) => `${d.kind}:${d.kind === 'bill' ? d.contactSeq : ''}:${d.number.toLowerCase()}`;
const sameFigures = (a: OpeningDocument, b: OpeningDocument) => a.contactSeq === b.contactSeq && a.minor === b.minor && a.currency === b.currency && a.date === b.date;
const sameTax = (a: OpeningDocument, b: OpeningDocument) => a.taxCodeSeq === b.taxCodeSeq && a.taxMinor === b.taxMinor;

export interface DocumentPlan {
  /** The entry's documents that stay: those something settled since, and those given again as they are. */
  keep: OpeningDocument[];
  remove: DocumentFacts[];
  add: OpeningDocument[];
  /** Documents something settled, given again with other VAT: their VAT postings are written anew (in `keep` as they will be). */
  retax: { was: DocumentFacts; now: OpeningDocument }[];
}

/**
 * What setting the documents again does: a document something settled stays as it is (a new conversion date, or
 * other figures given for it, are refused); one given again as it is stays; the other untouched ones go, and what
 * is given anew is added.
 */
export async function planDocuments(ledger: Ledger, orgSeq: number, was: JournalRow | undefined, dated: string, given: readonly OpeningDocument[]): Promise<DocumentPlan> {
  const rows = await openingDocumentRows(ledger, orgSeq);
  const touched = rows.filter((d) => !d.untouched);
  if (touched.length && was && was.date !== dated)
    throw new LedgerError('conflict', `${touched[0].number} of the opening balances was paid or credited since: the conversion date stays ${conversionOf(was.date)}.`, {
      field: 'date',
      number: touched[0].number,
    });
  const byNumber = new Map(given.map((g) => [numberKey(g), g]));
  const retax: DocumentPlan['retax'] = [];
  for (const d of touched) {
    const k = asOpening(d);
    const named = byNumber.get(numberKey(k));
    if (named && !sameFigures(named, k))
      throw new LedgerError(
        'conflict',
        `${k.number} was paid or credited since: it stays in the opening balances as it is (${fromMinor(k.minor, k.currency).toFixed(2)} ${k.currency} owed at the conversion, dated ${k.date}).`,
        { field: `${k.kind}s`, number: k.number },
      );
    if (named && !sameTax(named, k)) retax.push({ was: d, now: { ...named, vatWhenPaid: undefined } });
  }
  const stays = (d: DocumentFacts) => {
    const named = byNumber.get(numberKey(asOpening(d)));
    const same = named !== undefined && sameFigures(named, asOpening(d)) && named.dueDate === d.due_date && sameTax(named, asOpening(d));
    return !d.untouched || (was?.date === dated && same);
  };
  const retaxed = new Map(retax.map((r) => [r.was.seq, r.now]));
  const keep = rows.filter(stays).map((d) => retaxed.get(d.seq) ?? asOpening(d));
  const kept = new Set(keep.map(numberKey));
  return { keep, remove: rows.filter((d) => !stays(d)), add: given.filter((g) => !kept.has(numberKey(g))), retax };
}

/**
 * Gives documents something settled their VAT anew (their VAT and opening postings written again, what is owed
 * untouched): refused for a voided one, and on the cash basis for one whose payment a filed return took (its VAT
 * was due in that return).
 */
export async function retaxDocuments(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  plan: DocumentPlan['retax'],
  dated: string,
  value: (minor: number, currency: string) => number | Promise<number>,
  vatWhenPaid: boolean,
): Promise<void> {
  const filedTo = await lastFiledTo(ledger, orgSeq);
  for (const { was, now } of plan) {
    if (was.state === 'void') throw new LedgerError('conflict', `${was.number} was voided since: its VAT stays as it is.`, { field: `${was.kind}s`, number: was.number });
    const paid = (await ledger
      .stmt('SELECT min(date) FROM (SELECT date FROM lines WHERE settles_seq = ? UNION ALL SELECT date FROM credit_applications WHERE document_seq = ?) AS sub')
      .pluck()
      .get(was.seq, was.seq)) as string | null;
    if ((vatWhenPaid || was.vat_when_paid) && paid !== null && paid <= filedTo)
      throw new LedgerError(
        'period_locked',
        `${was.number} was paid on ${paid}, in a period a filed tax return covers: on the cash basis its VAT was due in that return, so it stays as it is.`,
        { field: `${was.kind}s`, number: was.number, date: paid },
      );
    await ledger.stmt("DELETE FROM postings WHERE document_seq = ? AND kind IN ('opening', 'tax')").run(was.seq);
    const owed = (await openingPostings(now, value, vatWhenPaid)).filter((p) => p.kind === 'opening' || p.kind === 'tax');
    await postOpeningDocument(ledger, orgSeq, was.seq, now, owed, dated);
    await ledger.stmt('UPDATE documents SET net_minor = ?, tax_minor = ? WHERE seq = ?').run(now.minor - now.taxMinor, now.taxMinor, was.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: `${was.kind}.opening_vat`,
      targetType: was.kind,
      targetId: was.id,
      summary: `${was.kind === 'bill' ? 'Bill' : 'Invoice'} ${was.number} (${was.contact}, open at the conversion, settled since): ${vatWords(now)} (was: ${vatWords(asOpening(was))})`,
    });
  }
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
