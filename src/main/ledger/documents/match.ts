// Bank rows that look like payments of open invoices or bills (issue 29): an
// uncategorized row whose amount is exactly a document's open balance (money
// in for an invoice, out for a bill; same currency; not before its issue
// date) and whose description carries the document's number or a word of the
// contact's name. Decision: an import pays a document by itself only when the
// row names its number and it is the only document that fits (exact and
// unique); every other fit is a suggestion a person accepts (`invoice pay`,
// the register). What the import did is audited and undone with `payment undo`.
import type { Actor } from '../access/audit';
import type { Ledger } from '../core/db';
import { fromMinor } from '../core/money';
import { foldName } from '../core/text';
import { payDocuments } from './settle';

interface OpenDocument {
  seq: number;
  kind: 'invoice' | 'bill';
  number: string;
  contact: string;
  currency: string;
  issue_date: string;
  /** The open balance in a paying row's sign: an invoice's positive, a bill's negative. */
  row_minor: number;
}

interface Row {
  seq: number;
  id: string;
  date: string;
  amount_minor: number;
  currency: string;
  description: string;
}

export interface PaymentSuggestion {
  transactionId: string;
  date: string;
  amount: number;
  description: string;
  kind: 'invoice' | 'bill';
  documents: { number: string; contact: string; balance: number }[];
  /** The row names the one document's number: paid without asking on import. */
  exact: boolean;
}

const squash = (text: string) => foldName(text).replace(/[^\p{L}\p{N}]+/gu, '');
const COMMON = new Set(['ltd', 'limited', 'company', 'gmbh', 'inc', 'the', 'and', 'llc', 'sarl', 'plc']);
/** The words of a contact's name that identify it in a bank description. */
const nameWords = (name: string) =>
  foldName(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 4 && !COMMON.has(w));

/** The open invoices and bills (only those whose balance is one of `amounts`, in a paying row's sign, when given). */
function openDocuments(ledger: Ledger, orgSeq: number, amounts?: readonly number[]): OpenDocument[] {
  return ledger.rows<OpenDocument>(
    `SELECT * FROM (SELECT d.seq, d.kind, d.number, c.name AS contact, d.currency, d.issue_date,
       CASE d.kind WHEN 'bill' THEN -(d.total_minor - d.settled_minor) ELSE d.total_minor - d.settled_minor END AS row_minor
     FROM documents d INDEXED BY documents_open JOIN counterparties c ON c.seq = d.contact_seq
     WHERE d.org_seq = ? AND d.kind IN ('invoice', 'bill') AND d.settled_on IS NULL AND d.state <> 'draft' AND d.state = 'issued' AND d.total_minor > d.settled_minor)
     WHERE ? IS NULL OR row_minor IN (SELECT value FROM json_each(?))`,
    orgSeq,
    amounts ? 1 : null,
    JSON.stringify(amounts ?? []),
  );
}

function suggestionOf(row: Row, open: readonly OpenDocument[]): PaymentSuggestion | null {
  const fits = open.filter((d) => d.currency === row.currency && d.row_minor === row.amount_minor && d.issue_date <= row.date);
  if (!fits.length) return null;
  const text = squash(row.description);
  const words = foldName(row.description);
  const named = fits.filter((d) => text.includes(squash(d.number)));
  const chosen = named.length ? named : fits.filter((d) => nameWords(d.contact).some((w) => words.includes(w)));
  if (!chosen.length) return null;
  return {
    transactionId: row.id,
    date: row.date,
    amount: fromMinor(row.amount_minor, row.currency),
    description: row.description,
    kind: chosen[0].kind,
    documents: chosen.map((d) => ({ number: d.number, contact: d.contact, balance: fromMinor(Math.abs(d.row_minor), d.currency) })),
    exact: named.length === 1,
  };
}

/** The likeliest payment each of a page's open rows may be (none without open documents). */
export function possiblePaymentsFor(ledger: Ledger, orgSeq: number, rows: readonly Row[]): Map<number, PaymentSuggestion> {
  const out = new Map<number, PaymentSuggestion>();
  if (!rows.length) return out;
  const open = openDocuments(
    ledger,
    orgSeq,
    rows.map((r) => r.amount_minor),
  );
  if (!open.length) return out;
  for (const r of rows) {
    const s = suggestionOf(r, open);
    if (s) out.set(r.seq, s);
  }
  return out;
}

/** Uncategorized rows that may pay open documents (of one import batch, or all), newest first. */
export function suggestPayments(ledger: Ledger, orgSeq: number, only: { importBatchSeq?: number } = {}): PaymentSuggestion[] {
  const open = openDocuments(ledger, orgSeq);
  if (!open.length) return [];
  const amounts = JSON.stringify([...new Set(open.map((d) => d.row_minor))]);
  const rows = ledger.rows<Row>(
    `SELECT seq, id, date, amount_minor, currency, description FROM transactions
     WHERE org_seq = ? AND status = 'uncategorized' AND amount_minor IN (SELECT value FROM json_each(?))${only.importBatchSeq ? ' AND import_batch_seq = ?' : ''}
     ORDER BY date DESC, seq DESC LIMIT 500`,
    orgSeq,
    amounts,
    ...(only.importBatchSeq ? [only.importBatchSeq] : []),
  );
  return rows.map((r) => suggestionOf(r, open)).filter((s): s is PaymentSuggestion => s !== null);
}

/** After an import: pays the exact and unique fits, counts the others as possible payments. */
export function matchImportedPayments(ledger: Ledger, orgSeq: number, actor: Actor, importBatchSeq: number): { matched: number; possible: number } {
  const found = suggestPayments(ledger, orgSeq, { importBatchSeq });
  let matched = 0;
  const taken = new Set<string>();
  for (const s of found) {
    const number = s.documents[0].number;
    if (!s.exact || taken.has(`${s.kind}:${number}`)) continue;
    taken.add(`${s.kind}:${number}`);
    payDocuments(ledger, orgSeq, actor, s.kind, s.transactionId, [{ document: number }], 'matched on import');
    // The import's own work (as the transfers it matches): undoing the import takes the payment with it.
    ledger
      .stmt("INSERT INTO import_line_changes (batch_seq, transaction_seq, previous_lines) SELECT ?, seq, '[]' FROM transactions WHERE id = ?")
      .run(importBatchSeq, s.transactionId);
    matched++;
  }
  return { matched, possible: found.length - matched };
}

/**
 * The one open invoice (money in) or bill (money out) a proposal's evidence names by its number, that the row
 * can pay (same currency, issued by the row's day): how an agent proposes a payment with a v1 categorization.
 */
export function documentNamedBy(ledger: Ledger, orgSeq: number, row: Row, texts: readonly string[]): { kind: 'invoice' | 'bill'; number: string } | null {
  const said = squash(texts.join(' '));
  const kind = row.amount_minor > 0 ? 'invoice' : 'bill';
  const named = openDocuments(ledger, orgSeq).filter((d) => d.kind === kind && d.currency === row.currency && d.issue_date <= row.date && said.includes(squash(d.number)));
  return named.length === 1 ? { kind, number: named[0].number } : null;
}
