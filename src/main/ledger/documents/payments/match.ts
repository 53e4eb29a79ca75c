// Bank rows that look like payments of open invoices or bills (issue 29): an
// uncategorized row whose amount is exactly a document's open balance (money
// in for an invoice, out for a bill; same currency; not before its issue
// date) and whose description carries the document's number or a word of the
// contact's name. Decision: an import pays a document by itself only when the
// row names its number and it is the only document that fits (exact and
// unique); every other fit is a suggestion a person accepts (`invoice pay`,
// the register). What the import did is audited and undone with `payment undo`.
// A row in the base currency may pay a document in another (issue 43): it fits
// when its text names the number and its amount is the open balance at the
// day's rate, give or take SUGGEST_BAND (the bank's spread); never exact, so an
// import never pays such a row by itself.
import { anyOf, bySql } from '../../core/dialect';
import type { Actor } from '../../access/audit';
import { filterInOrder } from '../../core/in-order';
import type { Ledger } from '../../core/sqlite/open';
import { fromMinor } from '../../core/money';
import { foldName } from '../../core/text';
import { Valuer } from '../../rates/valuer';
import { payDocuments } from './settle';
import { flatMapInOrder } from '../../core/in-order';
import { mapInOrder } from '../../core/in-order';

/** How far a base-currency row may be from a document's balance at the day's rate and still look like its payment. */
export const SUGGEST_BAND = 0.03;

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
  /** Each document's balance in its own currency (another than the row's: paid at the rate the amounts imply). */
  documents: { number: string; contact: string; balance: number; currency: string }[];
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

const OPEN = `SELECT d.seq, d.kind, d.number, c.name AS contact, d.currency, d.issue_date,
    CASE d.kind WHEN 'bill' THEN -(d.total_minor - d.settled_minor) ELSE d.total_minor - d.settled_minor END AS row_minor
  FROM documents d INDEXED BY documents_open JOIN counterparties c ON c.seq = d.contact_seq
  WHERE d.org_seq = ? AND d.kind IN ('invoice', 'bill') AND d.settled_on IS NULL AND d.state <> 'draft' AND d.state = 'issued' AND d.total_minor > d.settled_minor`;

/** The open invoices and bills (only those whose balance is one of `amounts`, in a paying row's sign, when given). */
async function openDocuments(ledger: Ledger, orgSeq: number, amounts?: readonly number[]): Promise<OpenDocument[]> {
  if (!amounts) return ledger.rows<OpenDocument>(OPEN, orgSeq);
  return ledger.rows<OpenDocument>(`SELECT * FROM (${OPEN}) AS sub WHERE row_minor ${anyOf(ledger)}`, orgSeq, amounts);
}

/** The open documents in another currency than the base, with a valuer for their balances at a row's day (few). */
async function openElsewhere(ledger: Ledger, orgSeq: number): Promise<{ docs: OpenDocument[]; valuer: Valuer }> {
  const valuer = new Valuer(ledger, orgSeq);
  return { docs: await ledger.rows<OpenDocument>(`${OPEN} AND d.currency <> ?`, orgSeq, await valuer.base()), valuer };
}

/** A document's balance at the row's day's rate in the base currency, in the row's sign; null without a rate. */
async function valueOn(elsewhere: { valuer: Valuer }, d: OpenDocument, date: string): Promise<number | null> {
  try {
    return await elsewhere.valuer.value(d.row_minor, d.currency, date);
  } catch {
    return null;
  }
}

/** Whether a base-currency row fits a document in another currency: within SUGGEST_BAND of its balance at the day's rate. */
async function fitsAtDayRate(elsewhere: { valuer: Valuer }, row: Row, d: OpenDocument): Promise<boolean> {
  if (row.currency !== (await elsewhere.valuer.base()) || d.issue_date > row.date || Math.sign(d.row_minor) !== Math.sign(row.amount_minor)) return false;
  const value = await valueOn(elsewhere, d, row.date);
  return value !== null && Math.abs(row.amount_minor - value) <= SUGGEST_BAND * Math.abs(value);
}

async function suggestionOf(row: Row, open: readonly OpenDocument[], elsewhere?: { docs: OpenDocument[]; valuer: Valuer }): Promise<PaymentSuggestion | null> {
  const fits = open.filter((d) => d.currency === row.currency && d.row_minor === row.amount_minor && d.issue_date <= row.date);
  const text = squash(row.description);
  const words = foldName(row.description);
  const named = fits.filter((d) => text.includes(squash(d.number)));
  let chosen = named.length ? named : fits.filter((d) => nameWords(d.contact).some((w) => words.includes(w)));
  // In another currency only a row that names the number: an amount within a band is too loose a fit alone.
  if (!chosen.length && elsewhere) chosen = await filterInOrder(elsewhere.docs, async (d) => text.includes(squash(d.number)) && (await fitsAtDayRate(elsewhere, row, d)));
  if (!chosen.length) return null;
  return {
    transactionId: row.id,
    date: row.date,
    amount: fromMinor(row.amount_minor, row.currency),
    description: row.description,
    kind: chosen[0].kind,
    documents: chosen.map((d) => ({ number: d.number, contact: d.contact, balance: fromMinor(Math.abs(d.row_minor), d.currency), currency: d.currency })),
    exact: named.length === 1,
  };
}

/** The likeliest payment each of a page's open rows may be (none without open documents). */
export async function possiblePaymentsFor(ledger: Ledger, orgSeq: number, rows: readonly Row[]): Promise<Map<number, PaymentSuggestion>> {
  const out = new Map<number, PaymentSuggestion>();
  if (!rows.length) return out;
  const open = await openDocuments(
    ledger,
    orgSeq,
    rows.map((r) => r.amount_minor),
  );
  const elsewhere = await openElsewhere(ledger, orgSeq);
  if (!open.length && !elsewhere.docs.length) return out;
  for (const r of rows) {
    const s = await suggestionOf(r, open, elsewhere);
    if (s) out.set(r.seq, s);
  }
  return out;
}

const CANDIDATES = `SELECT seq, id, date, amount_minor, currency, description FROM transactions WHERE org_seq = ? AND status = 'uncategorized'`;

/** Uncategorized rows that may pay open documents (of one import batch, or all), newest first. */
export async function suggestPayments(ledger: Ledger, orgSeq: number, only: { importBatchSeq?: number } = {}): Promise<PaymentSuggestion[]> {
  const open = await openDocuments(ledger, orgSeq);
  const elsewhere = await openElsewhere(ledger, orgSeq);
  if (!open.length && !elsewhere.docs.length) return [];
  const batch = only.importBatchSeq ? ' AND import_batch_seq = ?' : '';
  const batchParams = only.importBatchSeq ? [only.importBatchSeq] : [];
  const rows = await ledger.rows<Row>(
    `${CANDIDATES} AND amount_minor ${anyOf(ledger)}${batch} ORDER BY date DESC, seq DESC LIMIT 500`,
    orgSeq,
    [...new Set(open.map((d) => d.row_minor))],
    ...batchParams,
  );
  // Base-currency rows near a balance in another currency (a generous range: the day's rate is checked per row).
  const ranges = await flatMapInOrder(elsewhere.docs, async (d) => {
    const booked = await valueOn(elsewhere, d, d.issue_date);
    return booked === null ? [] : [[Math.min(booked / 2, booked * 2), Math.max(booked / 2, booked * 2), d.issue_date]];
  });
  if (ranges.length) {
    const seen = new Set(rows.map((r) => r.seq));
    // The ranges as one JSON list on SQLite, as three arrays on PostgreSQL.
    const inRange = bySql(ledger, {
      sqlite: `EXISTS (SELECT 1 FROM json_each(?) r
         WHERE amount_minor BETWEEN json_extract(r.value, '$[0]') AND json_extract(r.value, '$[1]') AND date >= json_extract(r.value, '$[2]'))`,
      postgres: 'EXISTS (SELECT 1 FROM unnest(?::numeric[], ?::numeric[], ?::text[]) AS r(lo, hi, since) WHERE amount_minor BETWEEN r.lo AND r.hi AND date >= r.since)',
    });
    const rangeParams = ledger.engine === 'postgres' ? [0, 1, 2].map((i) => ranges.map((r) => r[i])) : [JSON.stringify(ranges)];
    const near = await ledger.rows<Row>(
      `${CANDIDATES} AND currency = ?${batch} AND ${inRange} ORDER BY date DESC, seq DESC LIMIT 500`,
      orgSeq,
      await elsewhere.valuer.base(),
      ...batchParams,
      ...rangeParams,
    );
    rows.push(...near.filter((r) => !seen.has(r.seq)));
    rows.sort((a, b) => b.date.localeCompare(a.date) || b.seq - a.seq);
  }
  return (await mapInOrder(rows, (r) => suggestionOf(r, open, elsewhere))).filter((s): s is PaymentSuggestion => s !== null);
}

/** After an import: pays the exact and unique fits, counts the others as possible payments. */
export async function matchImportedPayments(ledger: Ledger, orgSeq: number, actor: Actor, importBatchSeq: number): Promise<{ matched: number; possible: number }> {
  const found = await suggestPayments(ledger, orgSeq, { importBatchSeq });
  let matched = 0;
  const taken = new Set<string>();
  for (const s of found) {
    const number = s.documents[0].number;
    if (!s.exact || taken.has(`${s.kind}:${number}`)) continue;
    taken.add(`${s.kind}:${number}`);
    await payDocuments(ledger, orgSeq, actor, s.kind, s.transactionId, [{ document: number }], 'matched on import');
    // The import's own work (as the transfers it matches): undoing the import takes the payment with it.
    await ledger
      .stmt("INSERT INTO import_line_changes (org_seq, batch_seq, transaction_seq, previous_lines) SELECT org_seq, ?, seq, '[]' FROM transactions WHERE id = ?")
      .run(importBatchSeq, s.transactionId);
    matched++;
  }
  return { matched, possible: found.length - matched };
}

/**
 * The one open invoice (money in) or bill (money out) a proposal's evidence names by its number, that the row
 * can pay (issued by the row's day; in its currency, or in another when the row is in the base currency and fits
 * the balance at the day's rate): how an agent proposes a payment with a v1 categorization.
 */
export async function documentNamedBy(ledger: Ledger, orgSeq: number, row: Row, texts: readonly string[]): Promise<{ kind: 'invoice' | 'bill'; number: string } | null> {
  const said = squash(texts.join(' '));
  const kind = row.amount_minor > 0 ? 'invoice' : 'bill';
  const elsewhere = await openElsewhere(ledger, orgSeq);
  const named = [
    ...(await openDocuments(ledger, orgSeq)).filter((d) => d.currency === row.currency && d.issue_date <= row.date),
    ...(await filterInOrder(elsewhere.docs, (d) => fitsAtDayRate(elsewhere, row, d))),
  ].filter((d) => d.kind === kind && said.includes(squash(d.number)));
  return named.length === 1 ? { kind, number: named[0].number } : null;
}
