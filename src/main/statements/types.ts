// What every statement reader produces: sections (one per bank account in the
// file) and rows, still in the file's terms. Amounts stay decimal text here;
// the ledger turns them into minor units once it knows the account's currency.
import type { StatementRows } from './rows';

export type { StatementRow } from './rows';

export const STATEMENT_FORMATS = ['csv', 'ofx', 'qfx', 'qif', 'camt053', 'mt940'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

import type { AccountType } from '../../shared/accounts';

export { normalizeAccountId, type AccountType } from '../../shared/accounts';

/** A balance the bank states, e.g. OFX LEDGERBAL, CAMT CLBD, MT940 :62F:. */
export interface StatedBalance {
  date: string; // YYYY-MM-DD
  amount: string; // signed decimal text, '.' as the decimal point
}

export interface StatementSection {
  /** Which account of the file (0-based, in file order). */
  index: number;
  /** The bank's identifier of the account (OFX ACCTID, IBAN, MT940 :25:), upper-cased, no spaces. */
  bankAccountId: string | null;
  /** A name the file gives the account (QIF !Account N, CAMT Acct/Nm). */
  name: string | null;
  type: AccountType | null;
  currency: string | null;
  opening: StatedBalance | null;
  closing: StatedBalance | null;
  /** Statement period as the file states it, when it does. */
  from: string | null;
  to: string | null;
}

export interface RowIssue {
  line: number;
  field: string;
  message: string;
  /** About the whole file (its date format, its columns), not one row: it cannot be skipped, only answered. */
  file?: true;
}

/** How a file's dates were read: the format, the formats it left open (the person picks), the account whose order settled it. */
export interface StatementDates {
  format: string | null;
  formats: string[];
  /** The account whose earlier statements settled a file that reads both ways, when one did. */
  from: string | null;
}

/** Rows the file holds that are not transactions to import (pending entries, footers); listed, not errors. */
export interface IgnoredRow {
  line: number;
  reason: string;
}

/** Something about the file the person should know before importing it, which does not stop the import. */
export interface StatementWarning {
  /** balance_disagrees: a CSV's balance column does not chain with its amounts, so no statement balance is taken from it. */
  code: 'balance_disagrees';
  section: number;
  line: number;
  message: string;
}

/** What a statement's rows came from: a file's format, or `feed` (rows a connector's sync fetched: connectors/sync.ts). */
export type StatementOrigin = StatementFormat | 'feed';

export interface ParsedStatement<Format extends StatementOrigin = StatementFormat> {
  format: Format;
  encoding: string;
  sections: StatementSection[];
  rows: StatementRows;
  errors: RowIssue[];
  ignored: IgnoredRow[];
  /** Data rows the file holds, good and bad, when a reader counts them apart from `rows` (CSV: before the date format is known). */
  rowCount?: number;
  /** Only for CSV: what was detected and which mapping was used. */
  csv?: CsvReport;
  /** CSV and QIF, whose date format is the file's own: how their dates were read. */
  dates?: StatementDates;
  warnings?: StatementWarning[];
}

/** A problem with the whole file (not one row): empty, binary, unknown format or encoding. */
export class StatementError extends Error {
  constructor(
    message: string,
    readonly field = 'file',
  ) {
    super(message);
  }
}

export const emptySection = (index: number): StatementSection => ({
  index,
  bankAccountId: null,
  name: null,
  type: null,
  currency: null,
  opening: null,
  closing: null,
  from: null,
  to: null,
});

export interface StatementSource {
  name: string;
  /** Reads the file from its first byte; may be called more than once. */
  open(): AsyncIterable<Uint8Array>;
  /** The same, synchronously: an import reads its skipped rows back inside its write (records.ts). */
  openSync(): Iterable<Uint8Array>;
}

/** How a CSV's columns are read (see csv-mapping.ts). */
export interface CsvColumns {
  date: string;
  /** One signed amount column, or debit and credit columns. */
  amount?: string;
  debit?: string;
  credit?: string;
  /** A column saying D/C (debit or credit) for an unsigned amount. */
  direction?: string;
  description: string[];
  id?: string;
  /** The bank's running balance after each row: the statement's opening and closing balances (csv-balance.ts). */
  balance?: string;
}

export interface CsvMapping {
  /** Absent: suggested from the header. */
  columns?: CsvColumns;
  dateFormat?: string;
  decimal?: '.' | ',';
  /** Card exports that show spending as positive amounts. */
  negate?: boolean;
}

export interface CsvReport {
  delimiter: string;
  /** The header's line, or null when the file has none (columns are then "Column 1"...). */
  headerLine: number | null;
  headers: string[];
  columns: CsvColumns | null;
  /** True when the columns came from the header's words, not from the user or a preset. */
  suggested: boolean;
  dateFormat: string | null;
  /** Formats that read every date differently: the user picks one. */
  dateFormats: string[];
  decimal: '.' | ',';
  /** The first data records as the file has them, for a preview. */
  sample: string[][];
  /** Amounts read turned around: spending shown as positive (the mapping said so, or a card's file showed it). */
  negated?: boolean;
}
