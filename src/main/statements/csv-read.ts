// CSV statements, streamed through csv-parse so a file of any size reads in
// bounded memory. The dialect (delimiter, header row after any preamble lines)
// comes from a sample; the date format and the decimal mark from every value
// of their columns once the file is read, so a date such as 13/01 late in the
// file still settles DD/MM, and a file whose dates fit two formats is refused
// with both named instead of guessed.
import { parse as parseSync } from 'csv-parse/sync';
import { parse } from 'csv-parse';
import { pipeline, Readable } from 'node:stream';
import { checkColumns, columnIndex, suggestColumns, type CsvMapping, type CsvReport } from './csv-mapping';
import { cellOf, Pending, toRows, type ColumnIndexes } from './csv-rows';
import { bomOf } from './text';
import { emptySection, StatementError, type ParsedStatement } from './types';
import { StatementRows } from './rows';

export const MAX_RECORD_BYTES = 1024 * 1024;
const DELIMITERS = [',', ';', '\t', '|'];

/** Counts a delimiter outside double quotes in one line. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let n = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === delimiter && !quoted) n++;
  }
  return n;
}

/** The delimiter that splits the most sample lines into the same number of fields (more than one). */
export function detectDelimiter(sample: string): string {
  const lines = sample
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, 50);
  let best = { delimiter: ',', lines: 0, fields: 0 };
  for (const delimiter of DELIMITERS) {
    const counts = new Map<number, number>();
    for (const line of lines) {
      const n = countOutsideQuotes(line, delimiter);
      if (n > 0) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    for (const [fields, count] of counts) {
      if (count > best.lines || (count === best.lines && fields > best.fields)) best = { delimiter, lines: count, fields };
    }
  }
  return best.delimiter;
}

interface Dialect {
  delimiter: string;
  headerLine: number | null;
  /** The first line of data: after the header, or the first record of the most common width. */
  dataLine: number;
  headers: string[];
  width: number;
}

/** Finds the header after any preamble (account name, period...) from the sample's records. */
export function detectDialect(sample: string, delimiter = detectDelimiter(sample)): Dialect {
  const records = parseSync(sample, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    info: true,
    bom: true,
    skip_records_with_error: true,
  }) as unknown as {
    record: string[];
    info: { lines: number };
  }[];
  // The last record of a sample may be cut short: leave it out of the vote.
  const voters = records.length > 2 ? records.slice(0, -1) : records;
  const widths = new Map<number, number>();
  for (const r of voters) widths.set(r.record.length, (widths.get(r.record.length) ?? 0) + 1);
  const width = [...widths.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 1;
  const first = records.findIndex((r) => r.record.length === width);
  if (first < 0) throw new StatementError('This file has no rows to read.');
  const candidate = records[first].record;
  const looksLikeHeader = candidate.some((c) => /[A-Za-zÀ-ÿ]/.test(c)) && !candidate.some((c) => /^\s*-?[\d.,]+\s*$/.test(c) && /\d/.test(c));
  if (looksLikeHeader) {
    const dataLine = records[first + 1]?.info.lines ?? records[first].info.lines + 1;
    return { delimiter, headerLine: records[first].info.lines, dataLine: firstLineOf(records, first + 1) ?? dataLine, headers: candidate.map((h) => h.trim()), width };
  }
  return { delimiter, headerLine: null, dataLine: firstLineOf(records, first) ?? 1, headers: candidate.map((_, i) => `Column ${i + 1}`), width };
}

/** The line a record starts on (info.lines is where it ends). */
function firstLineOf(records: { record: string[]; info: { lines: number } }[], i: number): number | null {
  if (i >= records.length) return null;
  return i === 0 ? 1 : records[i - 1].info.lines + 1;
}

export interface CsvOptions {
  encoding: string;
  /** The mapping for this file's header (a saved one may fit it or not). */
  mapping?: (headers: string[]) => CsvMapping | undefined | Promise<CsvMapping | undefined>;
  /** Chunks of the file, from its first byte. */
  chunks: () => AsyncIterable<Uint8Array>;
  head: Uint8Array;
  onProgress?: (rowsRead: number) => void;
}

async function* decodeChunks(chunks: AsyncIterable<Uint8Array>, encoding: string): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8', ignoreBOM: false });
  for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
  yield decoder.decode();
}

export async function readCsv(options: CsvOptions): Promise<ParsedStatement> {
  const sampleBytes = options.head.subarray(bomOf(options.head)?.length ?? 0, 256 * 1024);
  const dialect = detectDialect(new TextDecoder(options.encoding).decode(sampleBytes));
  const mapping = await options.mapping?.(dialect.headers);
  const columns = mapping?.columns ? checkColumns(mapping.columns) : suggestColumns(dialect.headers);
  const report: CsvReport = {
    delimiter: dialect.delimiter,
    headerLine: dialect.headerLine,
    headers: dialect.headers,
    columns,
    suggested: !mapping?.columns,
    dateFormat: null,
    dateFormats: [],
    decimal: mapping?.decimal ?? (dialect.delimiter === ';' ? ',' : '.'),
    sample: [],
  };
  const out: ParsedStatement & { csv: CsvReport } = {
    format: 'csv',
    encoding: options.encoding,
    sections: [emptySection(0)],
    rows: new StatementRows(),
    errors: [],
    ignored: [],
    csv: report,
  };
  const at = (name: string | undefined) => (name === undefined ? -1 : columnIndex(dialect.headers, name));
  const c: ColumnIndexes | null = columns && {
    date: at(columns.date),
    amount: at(columns.amount),
    debit: at(columns.debit),
    credit: at(columns.credit),
    direction: at(columns.direction),
    id: at(columns.id),
    balance: at(columns.balance),
    description: columns.description.map(at),
  };
  const pending = c && columns ? new Pending(c, columns) : null;
  const shortOrLong = await readRecords({ options, dialect, mapping, c, pending, out });
  if (!columns || !pending) {
    out.errors.push({
      line: dialect.headerLine ?? 1,
      field: 'columns',
      message: `could not tell which columns hold the date and the amount (columns: ${dialect.headers.join(', ')}); map them`,
      file: true,
    });
    return out;
  }
  out.rowCount = pending.length + shortOrLong;
  toRows(pending, columns, mapping, report, out);
  return out;
}

interface RecordsPass {
  options: CsvOptions;
  dialect: Dialect;
  mapping: CsvMapping | undefined;
  c: ColumnIndexes | null;
  pending: Pending | null;
  out: ParsedStatement & { csv: CsvReport };
}

/** Reads every record: samples the first five, sets aside footers and bad rows, hands the rest to `pending`. Answers how many rows had the wrong field count. */
async function readRecords({ options, dialect, mapping, c, pending, out }: RecordsPass): Promise<number> {
  // Lines are counted here (a record's line, plus the line breaks inside its quoted
  // fields) rather than with csv-parse's `info`, which copies an object per record.
  const parser = parse({
    delimiter: dialect.delimiter,
    from_line: dialect.dataLine,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    bom: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  // pipeline, not pipe: a decoding error must reach the loop below, not hang it.
  pipeline(Readable.from(decodeChunks(options.chunks(), options.encoding)), parser, () => {});
  const header = dialect.headers.map((h) => h.toLowerCase());
  const sameAsHeader = (cell: string, i: number) => cell.trim().toLowerCase() === header[i];
  let records = 0;
  let shortOrLong = 0;
  let nextLine = dialect.dataLine;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const line = nextLine;
      nextLine += 1 + lineBreaksIn(record);
      if (record.every(isBlank)) continue;
      if (dialect.headerLine !== null && record[0]?.trim().toLowerCase() === header[0] && record.length === header.length && record.every(sameAsHeader)) continue; // a repeated header
      if (out.csv.sample.length < 5) out.csv.sample.push(record);
      if (++records % 10_000 === 0) options.onProgress?.(records);
      if (!c || !pending) continue;
      const date = cellOf(record, c.date);
      // A row with neither a date nor an amount is a footer or a note ("Closing balance"), not a transaction.
      if (!/\d/.test(date) && !/\d/.test(cellOf(record, c.amount) + cellOf(record, c.debit) + cellOf(record, c.credit))) {
        out.ignored.push({ line, reason: 'not a transaction (no date and no amount)' });
        continue;
      }
      const fitted = record.length === dialect.width ? record : rejoinDecimalComma(record, dialect, c, mapping);
      if (!fitted) {
        shortOrLong++;
        out.errors.push({
          line,
          field: 'columns',
          message: `has ${record.length} fields where the header has ${dialect.width}${record.length > dialect.width && dialect.delimiter === ',' ? ' (an amount with a decimal comma, not in quotes?)' : ''}: fix the line, or quote the amount`,
        });
        continue;
      }
      pending.add(line, fitted);
    }
  } catch (error) {
    const e = error as { code?: string; lines?: number; message?: string };
    if (e.code === 'CSV_MAX_RECORD_SIZE') throw new StatementError(`Line ${e.lines ?? '?'} is longer than ${MAX_RECORD_BYTES / 1024 / 1024} MB: this is not a bank statement CSV.`);
    if (e.code === 'ERR_ENCODING_INVALID_ENCODED_DATA' || (error instanceof TypeError && /encoded data/i.test(e.message ?? ''))) throw new InvalidUtf8();
    throw new StatementError(`The CSV file could not be read: ${e.message ?? String(error)}`);
  }
  return shortOrLong;
}

const isBlank = (cell: string): boolean => cell.trim() === '';

/**
 * A comma-separated row one field too long is a bad row ("2026-03-02,Bank
 * fee,-15,50" is not -15.00), unless the mapping says amounts hold a decimal
 * comma and the row can be read one way only: one amount column, whole
 * units in it and one to three digits in the field after it.
 */
function rejoinDecimalComma(record: string[], dialect: Dialect, c: ColumnIndexes, mapping: CsvMapping | undefined): string[] | null {
  if (record.length !== dialect.width + 1 || dialect.delimiter !== ',' || mapping?.decimal !== ',' || c.amount < 0) return null;
  const [units, cents] = [record[c.amount].trim(), (record[c.amount + 1] ?? '').trim()];
  if (!/^[-+(]?\d+$/.test(units) || !/^\d{1,3}\)?$/.test(cents)) return null;
  return [...record.slice(0, c.amount), `${units},${cents}`, ...record.slice(c.amount + 2)];
}

/** Line breaks inside a record's (quoted) fields: the record spans that many more lines. */
function lineBreaksIn(record: string[]): number {
  let n = 0;
  for (const cell of record) {
    if (cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) continue;
    n += cell.match(/\r\n|\r|\n/g)!.length;
  }
  return n;
}

/** Thrown when a file taken for UTF-8 turns out not to be: the caller reads it again as Windows-1252. */
export class InvalidUtf8 extends Error {}
