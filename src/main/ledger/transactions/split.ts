// A split as a person or an agent writes it: parts of the row's amount, each
// with a category and a memo, in the row's own sign (a -100.00 payment splits
// into -60.00 and -40.00). Checked here once for the register, the command,
// an agent's proposal and a rule: at least two parts, none zero, each a
// category of the chart, and together exactly the row's amount; then turned
// into the entry's category lines (negated: the lines balance the row).
import { resolveCategory, type ResolvedCategory } from '../chart/categories';
import type { Ledger } from '../core/db';
import { invalid, type FieldIssue } from '../core/errors';
import { fromMinor } from '../core/money';
import type { LineInput } from './lines';
import { defaultTaxOf, taxedLines } from '../tax/lines';
import { usableTaxCode } from '../tax/codes';

export const MAX_SPLIT_LINES = 100;

/** One part of a split: a category (by code, or by name) and its part of the amount, in minor units. */
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
  amountMinor: number;
  memo: string | null;
  /** The tax code named (its seq), null for none, or undefined: the category's default. */
  taxCodeSeq?: number | null;
}

/** Checks the parts against the row and resolves their categories; `field` names them in errors ("lines"). */
export function resolveSplit(ledger: Ledger, orgSeq: number, row: { amount_minor: number; currency: string }, parts: readonly SplitPart[], field = 'lines'): ResolvedPart[] {
  const money = (minor: number) => `${fromMinor(minor, row.currency).toFixed(2)} ${row.currency}`;
  if (parts.length < 2) throw invalid([{ field, message: 'a split has at least two lines (one category is a categorization)' }]);
  if (parts.length > MAX_SPLIT_LINES) throw invalid([{ field, message: `a split has at most ${MAX_SPLIT_LINES} lines` }]);
  const issues: FieldIssue[] = [];
  const resolved = parts.map((p, i) => {
    if (p.amountMinor === 0) issues.push({ field: `${field}[${i}].amount`, message: 'must not be zero (leave the line out)' });
    const memo = p.memo?.trim() || null;
    if (memo && memo.length > 500) issues.push({ field: `${field}[${i}].memo`, message: 'must be at most 500 characters' });
    try {
      const taxCodeSeq = p.taxCode ? usableTaxCode(ledger, orgSeq, p.taxCode, `${field}[${i}].taxCode`) : p.taxCode === '' ? null : undefined;
      return { category: resolveCategory(ledger, orgSeq, p, row.amount_minor < 0 ? 'outflow' : 'inflow'), amountMinor: p.amountMinor, memo, taxCodeSeq };
    } catch (error) {
      const found = (error as { details?: FieldIssue[] }).details;
      issues.push(...(Array.isArray(found) ? found.map((f) => ({ field: `${field}[${i}].${f.field}`, message: f.message })) : []));
      return null;
    }
  });
  if (issues.length) throw invalid(issues);
  const sum = parts.reduce((s, p) => s + p.amountMinor, 0);
  if (sum !== row.amount_minor) {
    const off = row.amount_minor - sum;
    throw invalid([
      {
        field,
        message: `the lines add up to ${money(sum)}, the row is ${money(row.amount_minor)}: ${money(Math.abs(off))} ${off > 0 === row.amount_minor > 0 ? 'left to assign' : 'too much'}`,
      },
    ]);
  }
  return resolved as ResolvedPart[];
}

/** The entry's lines of a resolved split, each part taxed by its code (or its category's default) at the rate of `date`. */
export const splitLines = (ledger: Ledger, date: string, parts: readonly ResolvedPart[]): LineInput[] =>
  taxedLines(
    ledger,
    date,
    parts.map((p) => ({
      categorySeq: p.category.seq,
      grossMinor: p.amountMinor,
      memo: p.memo,
      taxCodeSeq: p.taxCodeSeq === undefined ? defaultTaxOf(ledger, p.category.seq) : p.taxCodeSeq,
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
