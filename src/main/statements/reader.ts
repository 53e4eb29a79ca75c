// What a statement reader is: one entry per format family in readers.ts, as
// hledger keeps its readers and beancount its importers (identify, extract).
// Adding a format is a module with its reader and a line in that list.
import type { CsvMapping } from './csv-mapping';
import type { DateOrderHint } from './dates';
import type { ParsedStatement, StatementFormat, StatementSource } from './types';

export interface ReadOptions {
  format?: StatementFormat | 'auto';
  encoding?: string;
  /** CSV columns and number format, or a choice of them by the file's header; QIF and CSV date format. */
  mapping?: CsvMapping | ((headers: string[]) => CsvMapping | undefined | Promise<CsvMapping | undefined>);
  dateFormat?: string;
  /**
   * The date order of the accounts a QIF is for (it names them), which settles
   * a file whose every date reads both ways. (A CSV's date format is its saved
   * mapping's, kept per header: a bank's other export may write dates otherwise.)
   */
  dateOrder?: (file: { names: (string | null)[] }) => DateOrderHint | undefined | Promise<DateOrderHint | undefined>;
  onProgress?: (rowsRead: number) => void;
}

export interface ReadContext {
  source: StatementSource;
  /** The file's first 256 KB. */
  head: Uint8Array;
  /** The format it was sniffed as (within the reader's family). */
  format: StatementFormat;
  /** The encoding given, or the one the file names, or the one detected. */
  encoding: string;
  /** Whether the person gave the encoding (a reader may then not second-guess it). */
  encodingGiven: boolean;
  options: ReadOptions;
  /** The whole file, for the formats read whole (at most 256 MB). */
  whole(): Promise<Uint8Array>;
}

export interface StatementReader {
  /** The formats it reads, the family a named format must belong to. */
  readonly formats: readonly StatementFormat[];
  /** How the format is named in messages ("OFX", "CAMT.053"). */
  readonly label: string;
  /**
   * Which of its formats the file is, from its first bytes (as Latin-1 text,
   * byte order mark and leading blanks dropped) and its name, or null. It may
   * refuse a file it recognises as its family but cannot read.
   */
  sniff(text: string, name: string): StatementFormat | null;
  /** The encoding the file names for itself (an OFX header, an XML declaration), if any. */
  encodingOf?(text: string): string | null;
  read(ctx: ReadContext): Promise<ParsedStatement>;
}
