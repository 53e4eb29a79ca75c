// A chart or contacts export as a table: text decoded (UTF-8 with or without
// a BOM, else Windows-1252, which older Excel saves write), CSV parsed, and
// the header found among the first lines (QuickBooks' reports open with the
// company's name and the report's title before it).
import { parse } from 'csv-parse/sync';
import type { Table } from './types';

/** How far down a header may sit. */
const HEADER_WITHIN = 10;

export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The records of a CSV text, each with its first line, cells trimmed. */
function records(text: string): { line: number; cells: string[] }[] {
  const parsed = parse(text, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  // info.lines is the record's last line; a record holding a line break starts earlier, which the header never does.
  return parsed.map(({ record, info }) => ({ line: info.lines, cells: record.map((c) => c.trim()) }));
}

/** The table under the first record `isHeader` accepts, or null when none within the first lines does. */
export function tableOf(text: string, isHeader: (header: string[]) => boolean): Table | null {
  const all = records(text);
  const at = all.slice(0, HEADER_WITHIN).findIndex((r) => isHeader(r.cells));
  if (at < 0) return null;
  const header = all[at].cells;
  const rows = all
    .slice(at + 1)
    .filter((r) => r.cells.some((c) => c !== ''))
    .map((r) => ({ line: r.line, cells: Object.fromEntries(header.map((h, i) => [h, r.cells[i] ?? ''])) }));
  return { header, rows };
}

/** Headers compared as people write them: case, spaces, a leading `*` (Xero's "required" mark) and punctuation aside. */
export const headerKey = (h: string): string => h.toLowerCase().replace(/[^a-z0-9#]/g, '');

/** A cell by any of its header's spellings ('' when the file lacks the column). */
export function cell(cells: Record<string, string>, ...names: string[]): string {
  const wanted = new Set(names.map(headerKey));
  for (const [h, v] of Object.entries(cells)) if (wanted.has(headerKey(h))) return v;
  return '';
}

/** Whether a header has every one of these columns (any spelling headerKey folds together). */
export const hasColumns = (header: string[], ...names: string[]): boolean => {
  const keys = new Set(header.map(headerKey));
  return names.every((n) => keys.has(headerKey(n)));
};

/** Lines of an address joined with ", ", empty parts left out. */
export const joined = (...parts: string[]): string | null => parts.filter((p) => p.trim() !== '').join(', ') || null;
