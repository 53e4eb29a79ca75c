// Rows as the bank wrote them, read back by the line each starts on: the rows
// an import skipped are kept with their text so that they can be written out,
// fixed and imported again. The file is read once more, only for imports that
// skip rows (never on a clean file's path), and synchronously, since the
// import writes them in its one SQLite transaction.
import type { StatementFormat, StatementSource } from './types';

/** A record's text is cut here (a bank row is far shorter; a file on one line is not a row). */
export const RECORD_MAX = 4000;
const RECORD_LINES = 200;

/** Whether a record that starts with `first` and holds `lines` is whole, and whether `next` starts another. */
type Extent = (lines: string[], next: string) => 'more' | 'done';

/**
 * Whether a CSV record's lines end inside a quoted field. As csv-parse reads
 * with relax_quotes, a quote opens a field only at its start; a stray one in
 * the middle of a field is text.
 */
function insideQuotes(lines: string[]): boolean {
  let quoted = false;
  let start = true;
  for (const text of lines) {
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') i++;
        else if (c === '"') quoted = false;
      } else if (c === '"' && start) quoted = true;
      start = !quoted && /[,;\t|]/.test(c);
    }
    start = !quoted;
  }
  return quoted;
}

const EXTENTS: Record<StatementFormat, Extent> = {
  // A quoted field may hold line breaks: the record goes on while a quote is open.
  csv: (lines) => (insideQuotes(lines) ? 'more' : 'done'),
  // A QIF record ends with `^` (or where the next section starts).
  qif: (lines, next) => (lines[lines.length - 1].trim() === '^' || next.trim().startsWith('!') ? 'done' : 'more'),
  ofx: ofxExtent,
  qfx: ofxExtent,
  camt053: (lines) => (/<\/(?:[\w.-]+:)?Ntry>/.test(lines[lines.length - 1]) ? 'done' : 'more'),
  // A :61: statement line, its wrapped lines and its :86: information.
  mt940: (_lines, next) => (/^:(?!86:)\d{2}[A-Z]?:/.test(next) || /^-|^\{/.test(next.trim()) ? 'done' : 'more'),
};

function ofxExtent(lines: string[], next: string): 'more' | 'done' {
  const last = lines[lines.length - 1];
  return /<\/STMTTRN>/i.test(last) || /<STMTTRN>|<\/BANKTRANLIST>/i.test(next) ? 'done' : 'more';
}

/**
 * The text of the records starting at each of `lines` (1-based, as the
 * readers count them), line breaks kept; a line the file does not have is
 * left out of the answer.
 */
export function recordTexts(source: StatementSource, encoding: string, format: StatementFormat, lines: Iterable<number>): Map<number, string> {
  const wanted = new Set(lines);
  const out = new Map<number, string>();
  if (wanted.size === 0) return out;
  const last = Math.max(...wanted);
  const extent = EXTENTS[format];
  let open: { line: number; lines: string[] } | null = null;
  const close = () => {
    if (open) out.set(open.line, cut(open.lines.join('\n')));
    open = null;
  };
  let n = 0;
  for (const text of linesOf(source, encoding)) {
    n++;
    if (open) {
      const current: { line: number; lines: string[] } = open;
      if (extent(current.lines, text) === 'done' || current.lines.length >= RECORD_LINES) close();
      else current.lines.push(text);
    }
    if (wanted.has(n)) {
      close();
      open = { line: n, lines: [text] };
    }
    if (!open && n >= last) break;
  }
  close();
  return out;
}

const cut = (text: string): string => (text.length > RECORD_MAX ? `${text.slice(0, RECORD_MAX - 1)}…` : text);

/** The file's lines, decoded (a byte order mark dropped), split at \r\n, \n or \r as the readers split them. */
function* linesOf(source: StatementSource, encoding: string): Generator<string> {
  const decoder = new TextDecoder(encoding);
  let rest = '';
  for (const chunk of source.openSync()) {
    rest += decoder.decode(chunk, { stream: true });
    // A \r at the end of a chunk may be the first half of \r\n: kept for the next one.
    const upTo = rest.endsWith('\r') ? rest.length - 1 : rest.length;
    const parts = rest.slice(0, upTo).split(/\r\n|\n|\r/);
    rest = parts.pop()! + rest.slice(upTo);
    // A line longer than any row (a file on one line) is cut as it grows, so memory stays bounded.
    if (rest.length > RECORD_MAX * 4 && parts.length === 0) rest = rest.slice(0, RECORD_MAX * 4);
    yield* parts;
  }
  rest += decoder.decode();
  if (rest !== '') yield* rest.split(/\r\n|\n|\r/);
}
