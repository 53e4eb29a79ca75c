// Transactions as CSV (RFC 4180), every field, one row per transaction (a
// split's lines and a transfer's other account in the `lines` column). Text
// cells a spreadsheet would read as a formula (starting with = + - @, a tab
// or a carriage return) are neutralized with a leading apostrophe; numbers stay numbers.
import { decimal, type ExportBook, type ExportRow, type Write } from './book';

const HEADER = ['id', 'date', 'account', 'amount', 'currency', 'description', 'category', 'lines', 'status', 'source', 'externalId', 'suggestedBy', 'confidence', 'reason'];

/** A split's lines ("Software & tools -60.00 (paper); Repairs -40.00"), a transfer ("transfer to Savings", "... (in transit)"), or nothing. */
function linesText(r: ExportRow, digits: number, accounts: Map<string, string>): string | null {
  const [first] = r.lines;
  if (first?.kind === 'transfer') return `transfer to ${accounts.get(first.accountId ?? '') ?? '?'}${first.counterpart ? '' : ' (in transit)'}`;
  if (first?.kind === 'journal') return 'manual journal';
  if (r.lines.length < 2) return null;
  return r.lines.map((l) => `${l.kind === 'tax' ? 'tax' : (l.category ?? l.kind)} ${decimal(-l.amountMinor, digits)}${l.memo ? ` (${l.memo})` : ''}`).join('; ');
}

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
      linesText(r, book.digits(r.currency), names),
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
