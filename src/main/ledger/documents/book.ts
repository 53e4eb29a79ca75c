// A document's entry in the books (issue 29): issuing books it as postings
// dated the issue date, at the document's rate (issue 30); voiding posts
// its reversal. Totals are kept by the postings' triggers, or by a run's
// Track when many documents are written at once (many.ts).
import type { Ledger } from '../core/sqlite/open';
import type { Valuer } from '../rates/valuer';
import { assertNotInFiledPeriod } from '../tax/return';
import type { Track } from '../totals/declared';
import { documentValue } from './currency';
import { KIND_NAMES, type DocumentRow } from './documents';
import type { WorkedDocument } from './draft';
import { refreshSettled } from './payments/settled';

const POSTING_COLUMNS = '(document_seq, org_seq, kind, category_seq, settles_seq, contact_seq, date, currency, amount_minor, base_minor, memo, tax_code_seq, tax_minor)';

/** The entry of a document (debits positive): per line its category and tax, and what the contact owes or is owed. */
async function postEntry(ledger: Ledger, doc: DocumentRow, worked: WorkedDocument, settles: number, track?: Track, valuer?: Valuer): Promise<void> {
  const insert = ledger.stmt(`INSERT INTO postings ${POSTING_COLUMNS} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // An invoice credits revenue; a credit note debits it back; a bill debits its costs.
  const s = doc.kind === 'invoice' ? -1 : 1;
  // Each posting at the document's own rate (currency.ts); what the contact owes balances them exactly.
  const value = await documentValue(ledger, doc, valuer);
  let baseSum = 0;
  const post = async (kind: string, amount: number, l: { categorySeq?: number; taxCodeSeq?: number | null; taxMinor?: number | null; memo?: string | null; settles?: number }) => {
    const baseMinor = l.settles === undefined ? await value(amount) : -baseSum;
    baseSum += baseMinor;
    track?.line({ orgSeq: doc.org_seq, currency: doc.currency, date: doc.issue_date, kind, categorySeq: l.categorySeq ?? null, amountMinor: amount, baseMinor });
    await insert.run(
      doc.seq,
      doc.org_seq,
      kind,
      l.categorySeq ?? null,
      l.settles ?? null,
      doc.contact_seq,
      doc.issue_date,
      doc.currency,
      amount,
      baseMinor,
      l.memo ?? null,
      l.taxCodeSeq ?? null,
      l.taxMinor ?? null,
    );
  };
  // The tax control account takes one posting per tax code (as Xero and QuickBooks post it per rate), named by
  // its line when there is one.
  const taxes = new Map<number | null, { minor: number; memos: string[] }>();
  for (const l of worked.lines) {
    const kept = doc.kind === 'bill' ? l.taxMinor - l.postedTaxMinor : 0;
    const lineTax = doc.kind === 'bill' ? l.postedTaxMinor + l.notionalMinor : l.taxMinor;
    await post('category', s * (l.netMinor + kept), {
      categorySeq: l.categorySeq,
      taxCodeSeq: l.taxCodeSeq,
      taxMinor: l.taxCodeSeq === null ? null : s * lineTax,
      memo: l.description,
    });
    if (l.postedTaxMinor === 0) continue;
    const tax = taxes.get(l.taxCodeSeq) ?? { minor: 0, memos: [] };
    taxes.set(l.taxCodeSeq, { minor: tax.minor + l.postedTaxMinor, memos: [...tax.memos, l.description] });
  }
  for (const [taxCodeSeq, { minor, memos }] of taxes)
    if (minor !== 0) await post('tax', s * minor, { taxCodeSeq, memo: memos.length === 1 ? memos[0] : `Tax on ${memos.length} lines` });
  await post(doc.kind === 'bill' ? 'payable' : 'receivable', -s * worked.totalMinor, { settles });
}

/** Whether a document's entry carries tax codes (its reversal then belongs in a return). */
export const hasTaxedEntry = async (ledger: Ledger, doc: Pick<DocumentRow, 'seq'>): Promise<boolean> =>
  Boolean(await ledger.stmt('SELECT 1 FROM postings WHERE document_seq = ? AND tax_code_seq IS NOT NULL LIMIT 1').get(doc.seq));

/** Reverses every posting of a document, dated `date`. */
export async function reverseEntry(ledger: Ledger, doc: DocumentRow, date: string): Promise<void> {
  if (await hasTaxedEntry(ledger, doc)) await assertNotInFiledPeriod(ledger, doc.org_seq, date, `the void of ${KIND_NAMES[doc.kind]} ${doc.number}`);
  await ledger
    .stmt(
      `INSERT INTO postings ${POSTING_COLUMNS}
       SELECT document_seq, org_seq, kind, category_seq, settles_seq, contact_seq, ?, currency, -amount_minor, -base_minor, memo, tax_code_seq, -tax_minor FROM postings WHERE document_seq = ? ORDER BY seq`,
    )
    .run(date, doc.seq);
}

/** Books an issued document's entry. A new invoice or bill owes its total (nothing settles it yet, unless it is for nothing); a credit note settles its invoice. */
export async function bookEntry(ledger: Ledger, issued: DocumentRow, worked: WorkedDocument, track?: Track, valuer?: Valuer): Promise<void> {
  if (worked.lines.some((l) => l.taxCodeSeq !== null)) await assertNotInFiledPeriod(ledger, issued.org_seq, issued.issue_date, `${KIND_NAMES[issued.kind]} ${issued.number}`);
  await postEntry(ledger, issued, worked, issued.credits_seq ?? issued.seq, track, valuer);
  if (issued.kind === 'credit_note' || worked.totalMinor === 0) await refreshSettled(ledger, [issued.credits_seq ?? issued.seq]);
  if (issued.kind === 'credit_note') await ledger.stmt('UPDATE documents SET settled_minor = total_minor, settled_on = issue_date WHERE seq = ?').run(issued.seq);
}
