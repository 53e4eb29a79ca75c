// The open documents of the opening balances without their VAT (issue 50). On
// the cash basis the VAT inside an open invoice or bill is due when it is
// paid, in that period's return; one given no tax code puts nothing there.
// Said where it can be mended: Opening balances (the screen and `opening-
// balances show`, every such document) and the tax return of a period (those
// paid in it: their VAT would be in this return). An organization without tax
// codes, or on the accrual basis (the VAT was declared before these books), is
// told nothing. Only ledger/core here: the tax return reads it too.
import type { Ledger } from '../core/sqlite/open';

/** The documents of the opening entry: those posting to the opening balances. */
export const OPENING_DOCUMENTS_SQL = `SELECT DISTINCT document_seq FROM postings INDEXED BY postings_kind_date WHERE org_seq = ? AND kind = 'opening' AND document_seq IS NOT NULL`;

export interface OpeningVatWarning {
  code: 'opening_without_vat';
  message: string;
  /** Their numbers, invoices first. */
  documents: string[];
}

const PAID_IN = `(EXISTS (SELECT 1 FROM lines l WHERE l.settles_seq = d.seq AND l.date BETWEEN ? AND ?)
  OR EXISTS (SELECT 1 FROM credit_applications a WHERE a.document_seq = d.seq AND a.date BETWEEN ? AND ?))`;

/**
 * The warning, or null: on the cash basis (the organization's, or the return's), the open documents given no tax
 * code (of all of them, or those paid in a period).
 */
export async function openingVatWarning(ledger: Ledger, orgSeq: number, paid?: { from: string; to: string; basis: string }): Promise<OpeningVatWarning | null> {
  const basis = paid?.basis ?? ((await ledger.stmt('SELECT tax_basis FROM organizations WHERE seq = ?').pluck().get(orgSeq)) as string);
  if (basis !== 'cash' || !(await ledger.stmt('SELECT 1 FROM tax_codes WHERE org_seq = ? LIMIT 1').get(orgSeq))) return null;
  const numbers = (await ledger
    .stmt(
      `SELECT d.number FROM documents d WHERE d.seq IN (${OPENING_DOCUMENTS_SQL}) AND d.state = 'issued'
       AND NOT EXISTS (SELECT 1 FROM postings p WHERE p.document_seq = d.seq AND p.kind = 'opening' AND p.tax_code_seq IS NOT NULL)${paid ? ` AND ${PAID_IN}` : ''}
       ORDER BY d.kind DESC, d.number`,
    )
    .pluck()
    .all(orgSeq, ...(paid ? [paid.from, paid.to, paid.from, paid.to] : []))) as string[];
  if (!numbers.length) return null;
  const which = `${numbers.length} open invoice(s) or bill(s) of the opening balances${paid ? ' paid in this period' : ''} carry no VAT (${numbers.slice(0, 10).join(', ')}${numbers.length > 10 ? ', ...' : ''})`;
  return {
    code: 'opening_without_vat',
    documents: numbers,
    message: `${which}: on the cash basis the VAT inside them is due when they are paid. Give each its tax code and VAT in Opening balances (zero-rated: Z and 0)${paid ? ' before filing' : ''}.`,
  };
}
