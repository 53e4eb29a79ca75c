// What the exports write: the organization's books as plain data, read by the
// ledger (ledger/reports/export-book.ts) and rendered by pure writers, one per
// format. The helpers every writer shares.
import type { CategoryType } from '../../../db/values';
import type { ExportBook } from '../ledger/reports/export-book';

export type { ExportBook, ExportCounterpart, ExportDocumentEntry, ExportJournalEntry, ExportLine, ExportRow } from '../ledger/reports/export-book';
export { isLiability } from '../../shared/accounts';
export { dayBefore } from '../../shared/dates';

export type Write = (chunk: string) => void;

/** Minor units as an exact decimal text: -123456, 2 -> "-1234.56". */
export function decimal(minor: number, digits: number): string {
  const negative = minor < 0;
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const whole = digits ? text.slice(0, -digits) : text;
  const value = digits ? `${whole}.${text.slice(-digits)}` : whole;
  return negative ? `-${value}` : value;
}

/** The currencies the books use: the base first, then the accounts' and the documents'. */
export function bookCurrencies(book: ExportBook): string[] {
  return [...new Set([book.organization.currency, ...book.accounts.map((a) => a.currency), ...book.documents.map((d) => d.currency)])];
}

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
