// A split as a person or an agent writes it: parts of the row's amount, each
// with a category and a memo. Typed figures are parts (shared/split-parts.ts:
// positive with the row, a refund inside a payment negative; a payment's lines
// all negative are read in the row's sign, the agent API's v1 form); stored
// ones (a proposal's payload, a rule's shares) are shares in the row's sign.
// Checked here once for the register, the command, an agent's proposal and a
// rule: at least two parts, none zero, each a category of the chart, and
// together exactly the row's amount; then turned into the entry's category
// lines (negated: the lines balance the row).
import { resolveCategory, type ResolvedCategory } from '../chart/categories';
import type { Ledger } from '../core/sqlite/open';
import { invalid, type FieldIssue } from '../core/errors';
import { fromMinor } from '../core/money';
import type { LineInput } from './lines';
import { defaultTaxOf, taxedLines } from '../tax/lines';
import { usableTaxCode } from '../tax/codes';
import { partOf, readParts, rowKind } from '../../../shared/split-parts';
import { mapInOrder } from '../core/in-order';

export const MAX_SPLIT_LINES = 100;

/** One part of a split: a category (by code, or by name) and its amount in minor units, as written (see `resolveSplit`). */
export interface SplitPart {
  categoryCode?: string;
  category?: string;
  amountMinor: number;
  memo?: string | null;
  /** Its tax code (issue 28); absent: the category's default; empty: none. */
  taxCode?: string;
}

export interface ResolvedPart {
  category: ResolvedCategory;
  /** Its share of the row, in the row's sign. */
  amountMinor: number;
  memo: string | null;
  /** The tax code named (its seq), null for none, or undefined: the category's default. */
  taxCodeSeq?: number | null;
}

/**
 * Checks the parts against the row and resolves their categories; `field` names them in errors ("lines").
 * `written`: 'typed' figures are read as parts (readParts), 'shares' are exact shares in the row's sign.
 */
export async function resolveSplit(
  ledger: Ledger,
  orgSeq: number,
  row: { amount_minor: number; currency: string },
  parts: readonly SplitPart[],
  written: 'typed' | 'shares',
  field = 'lines',
): Promise<ResolvedPart[]> {
  if (parts.length < 2) throw invalid([{ field, message: 'a split has at least two lines (one category is a categorization)' }]);
  if (parts.length > MAX_SPLIT_LINES) throw invalid([{ field, message: `a split has at most ${MAX_SPLIT_LINES} lines` }]);
  const issues: FieldIssue[] = [];
  const resolved = await mapInOrder(parts, async (p, i) => {
    if (p.amountMinor === 0) issues.push({ field: `${field}[${i}].amount`, message: 'must not be zero (leave the line out)' });
    const memo = p.memo?.trim() || null;
    if (memo && memo.length > 500) issues.push({ field: `${field}[${i}].memo`, message: 'must be at most 500 characters' });
    try {
      const taxCodeSeq = p.taxCode ? await usableTaxCode(ledger, orgSeq, p.taxCode, `${field}[${i}].taxCode`) : p.taxCode === '' ? null : undefined;
      return { category: await resolveCategory(ledger, orgSeq, p, row.amount_minor < 0 ? 'outflow' : 'inflow'), memo, taxCodeSeq };
    } catch (error) {
      const found = (error as { details?: FieldIssue[] }).details;
      issues.push(...(Array.isArray(found) ? found.map((f) => ({ field: `${field}[${i}].${f.field}`, message: f.message })) : []));
      return null;
    }
  });
  if (issues.length) throw invalid(issues);
  const figures = parts.map((p) => p.amountMinor);
  const shares = written === 'typed' ? sharesOfTyped(row, figures, field) : exactShares(row, figures, field);
  return resolved.map((r, i) => ({ ...r!, amountMinor: shares[i] }));
}

const money = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;
const leftWords = (left: number, currency: string) => `${money(Math.abs(left), currency)} ${left > 0 ? 'left to assign' : 'too much'}`;

/** Shares in the row's sign (a payload's, kept as approved), adding up to the row exactly. */
function exactShares(row: { amount_minor: number; currency: string }, shares: number[], field: string): number[] {
  const sum = shares.reduce((s, x) => s + x, 0);
  if (sum !== row.amount_minor) {
    const message = `the lines add up to ${money(sum, row.currency)}, the row is ${money(row.amount_minor, row.currency)}: ${leftWords(partOf(row.amount_minor, row.amount_minor - sum), row.currency)}`;
    throw invalid([{ field, message }]);
  }
  return shares;
}

/** Typed figures as shares, or a refusal in the figures' own terms; lines that add up only read against the row are refused. */
function sharesOfTyped(row: { amount_minor: number; currency: string }, figures: number[], field: string): number[] {
  const read = readParts(row.amount_minor, figures);
  if (read.left === 0) return read.shares;
  if (read.form === 'row-sign') return exactShares(row, read.shares, field);
  const kind = rowKind(row.amount_minor);
  const whole = money(Math.abs(row.amount_minor), row.currency);
  if (read.onlyAgainst) {
    const named = read.onlyAgainst.map((i) => `line ${i + 1} (${money(figures[i], row.currency)})`).join(' and ');
    const message = `these lines add up to the ${kind} of ${whole} only if ${named} is a refund inside it: parts of a payment are positive figures and a refund inside it is typed with a minus (-20.00); or write every line negative, in the row's sign`;
    throw invalid([{ field, message }]);
  }
  const sum = figures.reduce((s, x) => s + x, 0);
  throw invalid([{ field, message: `the parts add up to ${money(sum, row.currency)}, the ${kind} is ${whole}: ${leftWords(read.left, row.currency)}` }]);
}

/** The entry's lines of a resolved split, each part taxed by its code (or its category's default) at the rate of `date`. */
export const splitLines = async (ledger: Ledger, date: string, parts: readonly ResolvedPart[]): Promise<LineInput[]> =>
  taxedLines(
    ledger,
    date,
    await mapInOrder(parts, async (p) => ({
      categorySeq: p.category.seq,
      grossMinor: p.amountMinor,
      memo: p.memo,
      taxCodeSeq: p.taxCodeSeq === undefined ? await defaultTaxOf(ledger, p.category.seq) : p.taxCodeSeq,
    })),
  );

/**
 * Fixed shares of an amount (a rule's 70% / 30%), in minor units that always
 * add up to it exactly: each share rounded down, the minor units left over
 * given one each to the largest remainders (the largest remainder method).
 */
export function shareOut(amountMinor: number, percents: readonly number[]): number[] {
  const total = Math.abs(amountMinor);
  const sign = amountMinor < 0 ? -1 : 1;
  const exact = percents.map((p) => (total * p) / 100);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, rest: e - Math.floor(e) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) parts[order[k].i]++;
  return parts.map((p) => (p === 0 ? 0 : sign * p));
}
