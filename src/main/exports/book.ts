// What the exports write: the organization's books as plain data, read by the
// ledger (ledger/export-book.ts) and rendered by pure writers, one per format.
import type { AccountType } from '../statements/types';

export type CategoryType = 'revenue' | 'expense' | 'asset' | 'liability' | 'equity';

export interface ExportRow {
  id: string;
  accountId: string;
  date: string;
  amountMinor: number;
  currency: string;
  description: string;
  category: string | null;
  status: string;
  source: string;
  externalId: string | null;
  suggestedBy: string | null;
  confidence: number | null;
  reason: string | null;
  /** Cleared by a reconciliation: the accountant's tools mark it cleared. */
  reconciled: boolean;
}

export interface ExportBook {
  organization: { name: string; slug: string; currency: string };
  from: string | null;
  to: string | null;
  accounts: { id: string; name: string; type: AccountType; currency: string; closedAt: string | null }[];
  /** Each account's balance before the period (opening balance + earlier movements), and its date. */
  openings: { accountId: string; date: string; minor: number }[];
  categories: { code: string; name: string; type: CategoryType; parentCode: string | null }[];
  rows: Iterable<ExportRow>;
  digits: (currency: string) => number;
}

export type Write = (chunk: string) => void;

/** Minor units as an exact decimal text: -123456, 2 -> "-1234.56". */
export function decimal(minor: number, digits: number): string {
  const negative = minor < 0;
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const whole = digits ? text.slice(0, -digits) : text;
  const value = digits ? `${whole}.${text.slice(-digits)}` : whole;
  return negative ? `-${value}` : value;
}

export const LIABILITIES: readonly AccountType[] = ['credit_card', 'other_liability'];

/** A day before a date (the opening balance sits before the period's first day). */
export const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** Categories by name, and each category's chain of parents (root first). */
export function categoryPaths(book: ExportBook): Map<string, { type: CategoryType; path: { code: string; name: string }[] }> {
  const byCode = new Map(book.categories.map((c) => [c.code, c]));
  const out = new Map<string, { type: CategoryType; path: { code: string; name: string }[] }>();
  for (const c of book.categories) {
    const path: { code: string; name: string }[] = [];
    const seen = new Set<string>();
    for (let at: typeof c | undefined = c; at && !seen.has(at.code); at = at.parentCode ? byCode.get(at.parentCode) : undefined) {
      seen.add(at.code);
      path.unshift({ code: at.code, name: at.name });
    }
    out.set(c.name, { type: c.type, path });
  }
  return out;
}
