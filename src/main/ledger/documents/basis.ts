// Accrual or cash basis (issue 29). The books are accrual: an issued
// invoice's or bill's lines are dated its issue date. On the cash basis
// those lines count when paid instead: each payment (a bank line settling the
// document) recognizes the document's category lines, and their tax, in the
// proportion it pays of the total (rounded half away from zero per line).
// Decisions: credit notes are never paid, so on the cash basis an invoice's
// lines count in the proportion of what was paid of its total (a credited
// invoice paid in full for the rest counts that share); a credit on a contact
// (an overpayment) is nothing's revenue until applied: the day it is applied to
// a document pays that document's share (apply-credit.ts).
import { roundDiv } from '../core/dialect';
import type { Ledger } from '../core/sqlite/open';
import type { InCurrency, LineSum } from '../totals/sums';

export type Basis = 'cash' | 'accrual';

/** A currency's own amounts, or (null) every currency's base amounts: the column to sum, the filter, its parameter. */
const view = (currency: InCurrency, alias: string) =>
  currency === null ? { amount: `${alias}.base_minor`, filter: '', params: [] } : { amount: `${alias}.amount_minor`, filter: ` AND ${alias}.currency = ?`, params: [currency] };

/**
 * The payments in a period (per document), and what each pays of its document's total (paid of total, in its own
 * currency: the share, kept as two integers so that both engines round it alike); one currency's (a parameter
 * after the organization) or, in the base currency, every one's. A payment is a bank line settling the document
 * or the contact's credit applied to it; the parameters (paymentParams) are given once for each; `via` says
 * which (0: a bank line, 1: a credit).
 */
const payments = (oneCurrency: boolean) => `SELECT l.settles_seq AS seq, substr(l.date, 1, 7) AS month, l.date, 0 AS via, abs(sum(l.amount_minor)) AS paid, d.total_minor AS total
  FROM lines l INDEXED BY lines_settles JOIN documents d ON d.seq = l.settles_seq
  WHERE d.org_seq = ?${oneCurrency ? ' AND l.currency = ?' : ''} AND l.date BETWEEN ? AND ? AND l.kind IN ('receivable', 'payable') AND d.total_minor <> 0
  GROUP BY l.settles_seq, l.date, d.total_minor
  UNION ALL SELECT a.document_seq, substr(a.date, 1, 7), a.date, 1, sum(a.amount_minor), d.total_minor
  FROM credit_applications a JOIN documents d ON d.seq = a.document_seq
  WHERE a.org_seq = ?${oneCurrency ? ' AND a.currency = ?' : ''} AND a.date BETWEEN ? AND ? AND d.total_minor <> 0
  GROUP BY a.document_seq, a.date, d.total_minor`;

/** An amount's part for a payment: amount * paid / total, rounded half away from zero (in integers). */
const paidPart = (amount: string) => roundDiv(`${amount} * pay.paid`, 'pay.total');

/** The parameters of payments(): the organization, the currency (unless every one's in the base currency), the period; once per kind of payment. */
export const paymentParams = (orgSeq: number, currency: string | null, from: string, to: string): unknown[] => {
  const once = currency === null ? [orgSeq, from, to] : [orgSeq, currency, from, to];
  return [...once, ...once];
};

/** The documents' own category lines in a period (what the cash basis takes out; a journal's stay: issue 43), per category and month, as the totals sum them. */
export async function documentLineSums(ledger: Ledger, orgSeq: number, currency: InCurrency, from: string, to: string): Promise<LineSum[]> {
  const v = view(currency, 'p');
  return ledger.rows<LineSum>(
    `SELECT 'category' AS kind, category_seq, substr(date, 1, 7) AS month, sum(${v.amount}) AS minor FROM postings p INDEXED BY postings_category_date
     WHERE org_seq = ? AND category_seq IS NOT NULL${v.filter} AND date BETWEEN ? AND ? AND kind = 'category' AND document_seq IS NOT NULL GROUP BY category_seq, month`,
    orgSeq,
    ...v.params,
    from,
    to,
  );
}

/**
 * What each payment in a period recognizes of each of its document's category lines, one row per line and payment
 * (rounded half away from zero per row; every sum of them sums these rows): the posting, its category, the
 * payment's day and month, how it paid (via) and the amount (parameters: paymentParams). The cash basis's P&L and
 * general ledger read the same rows.
 */
export const cashRecognitionsSql = (currency: InCurrency): string =>
  `SELECT p.seq AS posting_seq, p.document_seq, p.category_seq, pay.date, pay.month, pay.via, ${paidPart(view(currency, 'p').amount)} AS minor
   FROM (${payments(currency !== null)}) pay JOIN documents d ON d.seq = pay.seq JOIN postings p ON p.document_seq = d.seq AND p.kind = 'category' AND p.date = d.issue_date`;

/** What the period's payments recognize of their documents' category lines, per category and month of payment. */
export async function cashLineSums(ledger: Ledger, orgSeq: number, currency: InCurrency, from: string, to: string): Promise<LineSum[]> {
  return ledger.rows<LineSum>(
    `SELECT 'category' AS kind, category_seq, month, sum(minor) AS minor FROM (${cashRecognitionsSql(currency)}) AS sub GROUP BY category_seq, month`,
    ...paymentParams(orgSeq, currency, from, to),
  );
}

/** The parameters of documentTaxedLinesSql for one currency's documents (and journals) and a period. */
export const documentTaxedParams = (basis: Basis, orgSeq: number, currency: string, from: string, to: string): unknown[] =>
  basis === 'accrual' ? [orgSeq, currency, from, to] : [...paymentParams(orgSeq, currency, from, to), orgSeq, currency, from, to];

/**
 * The taxed category lines the documents bring into a tax return of [from, to], shaped as the return reads lines
 * (tax_code_seq, category_seq, amount_minor, tax_minor, date) with `sales` (null: the category's type says the
 * side): accrual, their own lines dated in it; cash, the share of them the period's payments recognize, dated the
 * payment's day (parameters: documentTaxedParams).
 * Manual journals' taxed lines (issue 43: postings too) are on their own dates on either basis: a journal is not paid.
 * An open document of the opening balances (issue 50) has no category lines: on the cash basis, its VAT in the tax
 * control account (due when paid) and the net beside it are recognized by its payments as a document's lines are,
 * on its side (an invoice's sales, a bill's purchases); on the accrual basis no return takes it (it was declared
 * before these books).
 */
export function documentTaxedLinesSql(basis: Basis, inBase = false): string {
  // Another currency's documents in the base currency (issue 30): their base amounts, their tax at the same booked rate.
  const net = inBase ? 'p.base_minor' : 'p.amount_minor';
  // A line's tax in the base currency is its own figure, rounded (then, on the cash basis, its paid part of that).
  const tax = inBase ? `CASE WHEN p.amount_minor = 0 THEN 0 ELSE ${roundDiv('coalesce(p.tax_minor, 0) * p.base_minor', 'p.amount_minor')} END` : 'coalesce(p.tax_minor, 0)';
  const dated = `SELECT p.tax_code_seq, p.category_seq, ${net} AS amount_minor, ${tax} AS tax_minor, p.date, p.seq AS posting_seq, CAST(NULL AS INTEGER) AS sales FROM postings p INDEXED BY postings_tax_date
       WHERE p.org_seq = ? AND p.currency = ? AND p.date BETWEEN ? AND ? AND p.tax_code_seq IS NOT NULL AND p.kind = 'category'`;
  const opening = `p.kind = 'opening' AND d.state = 'issued' AND EXISTS (SELECT 1 FROM postings v WHERE v.document_seq = d.seq AND v.kind = 'tax')`;
  return basis === 'accrual'
    ? dated
    : `SELECT p.tax_code_seq, p.category_seq, ${paidPart(net)} AS amount_minor,
         ${paidPart(`(${tax})`)} AS tax_minor, pay.date, p.seq AS posting_seq, CASE WHEN p.kind = 'category' THEN NULL WHEN d.kind = 'bill' THEN 0 ELSE 1 END AS sales
       FROM (${payments(true)}) pay JOIN documents d ON d.seq = pay.seq
       JOIN postings p ON p.document_seq = d.seq AND p.tax_code_seq IS NOT NULL AND ((p.kind = 'category' AND p.date = d.issue_date) OR (${opening}))
       UNION ALL ${dated} AND p.journal_seq IS NOT NULL`;
}

/** Both kinds of line sums for a period: the books' (accrual) or with the documents' lines moved to their payments (cash). */
export async function onBasis(ledger: Ledger, orgSeq: number, currency: InCurrency, from: string, to: string, sums: LineSum[], basis: Basis): Promise<LineSum[]> {
  if (basis === 'accrual') return sums;
  const out = new Map<string, LineSum>();
  const add = (s: LineSum, sign: number) => {
    const key = `${s.kind}:${s.category_seq}:${s.month}`;
    const at = out.get(key) ?? out.set(key, { ...s, minor: 0 }).get(key)!;
    at.minor += sign * s.minor;
  };
  for (const s of sums) add(s, 1);
  for (const s of await documentLineSums(ledger, orgSeq, currency, from, to)) add(s, -1);
  for (const s of await cashLineSums(ledger, orgSeq, currency, from, to)) add(s, 1);
  return [...out.values()];
}
