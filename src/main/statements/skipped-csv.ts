// The rows an import skipped, as a CSV to fix them in. A CSV statement's
// skipped lines come out as the bank wrote them, under its header, with a
// `reason` column added: fixed, the file imports again as it is (the extra
// column is no one's). Other formats give a line per skipped row: its line,
// field, reason and the record's text. Used by `ledgerdesk import skipped` and
// the Import screen's download alike.

export interface SkippedRow {
  line: number;
  field: string;
  message: string;
  /** The row as the file has it; null where it could not be read back (a batch made before issue 42). */
  text: string | null;
}

export interface SkippedRows {
  fileName: string;
  format: string;
  /** A CSV's header line as written and its delimiter; null for other formats or a CSV without a header. */
  header: { text: string; delimiter: string } | null;
  rows: SkippedRow[];
}

/** "march.csv" -> "march-skipped.csv". */
export const skippedFileName = (fileName: string): string => `${fileName.replace(/\.[^./\\]*$/, '') || 'import'}-skipped.csv`;

const reasonOf = (r: SkippedRow): string => `line ${r.line}, ${r.field}: ${r.message}`;

/** One CSV cell: quoted where it holds the delimiter, a quote or a line break. */
function cell(value: string | number, delimiter = ','): string {
  const text = String(value);
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell of our own text, which a spreadsheet must not take for a formula. */
const safe = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

export function skippedRowsCsv(s: SkippedRows): string {
  if (s.format === 'csv') {
    const d = s.header?.delimiter ?? ',';
    const head = s.header ? `${s.header.text}${d}reason\r\n` : '';
    return head + s.rows.map((r) => `${r.text ?? ''}${d}${cell(reasonOf(r), d)}\r\n`).join('');
  }
  const lines = s.rows.map((r) => [r.line, cell(safe(r.field)), cell(safe(r.message)), cell(safe(r.text ?? ''))].join(','));
  return ['line,field,reason,record', ...lines].map((l) => `${l}\r\n`).join('');
}
