// Transactions as CSV (RFC 4180), every field, one row per transaction. Text
// cells a spreadsheet would read as a formula (starting with = + - @, a tab
// or a carriage return) are neutralized with a leading apostrophe; numbers stay numbers.
import { decimal, type ExportBook, type Write } from './book';

const HEADER = ['id', 'date', 'account', 'amount', 'currency', 'description', 'category', 'status', 'source', 'externalId', 'suggestedBy', 'confidence', 'reason'];

export function safeText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(value) : safeText(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function writeCsv(book: ExportBook, write: Write): number {
  const names = new Map(book.accounts.map((a) => [a.id, a.name]));
  write(`${HEADER.join(',')}\r\n`);
  let n = 0;
  for (const r of book.rows) {
    const cells = [
      r.id,
      r.date,
      names.get(r.accountId) ?? '',
      decimal(r.amountMinor, book.digits(r.currency)),
      r.currency,
      r.description,
      r.category,
      r.status,
      r.source,
      r.externalId,
      r.suggestedBy,
      r.confidence,
      r.reason,
    ];
    // The amount is a number: written as one, never neutralized.
    write(`${cells.map((c, i) => (i === 3 ? c : csvCell(c as string | number | null))).join(',')}\r\n`);
    n++;
  }
  return n;
}
