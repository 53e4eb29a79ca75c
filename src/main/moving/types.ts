// What a chart or contacts export from another bookkeeping program says, in
// our terms but not yet our books': each source (xero.ts, quickbooks.ts) reads
// its own columns into these, and the ledger (chart/import.ts,
// contacts/import.ts) decides what each becomes. No database here.
import type { CategoryType, TaxKind } from '../../../db/values';
import type { AccountType } from '../../shared/accounts';

export const MOVING_SOURCES = ['xero', 'quickbooks'] as const;
export type MovingSourceId = (typeof MOVING_SOURCES)[number];

/** What one row of the source's chart is here. */
export type SourceKind =
  | { kind: 'category'; type: CategoryType; costOfSales: boolean }
  /** A bank, card or cash account: one of our money accounts. */
  | { kind: 'money'; accountType: AccountType }
  /** An account we keep ourselves (receivables, payables, the VAT control, retained earnings...): why it is left out. */
  | { kind: 'system'; reason: string }
  /** A type we cannot place. */
  | { kind: 'unknown'; reason: string };

/** A tax type as the source names it, read as a kind and rate where it says one. */
export interface SourceTax {
  text: string;
  kind: TaxKind | null;
  /** Percent, when the name gives it ("20% (VAT on Income)"). */
  rate: number | null;
}

export interface SourceAccount {
  /** The file's line (1-based, the header's line counted). */
  line: number;
  code: string | null;
  name: string;
  /** The source's own type, as written ("Direct Costs"). */
  sourceType: string;
  as: SourceKind;
  tax: SourceTax | null;
  /** The parent's name (QuickBooks' "Parent:Child"), null at the top. */
  parentName: string | null;
  description: string | null;
}

export interface SourceContact {
  line: number;
  name: string;
  customer: boolean;
  vendor: boolean;
  email: string | null;
  address: string | null;
  /** As the file writes it: an ISO code or a country's name. */
  country: string | null;
  taxNumber: string | null;
  /** Days after the document's date, when the file's terms are such. */
  termsDays: number | null;
  /** Terms the file states that are not days after the date ("20th of the following month"), said in the preview. */
  otherTerms: string | null;
}

/** A file read: which source and what it holds. */
export interface SourceFile<T> {
  source: MovingSourceId;
  /** "Xero's chart of accounts export" */
  described: string;
  rows: T[];
  /** Lines the reader could not take, with why (a row without a name). */
  unread: { line: number; reason: string }[];
}

/** One source program: how its chart and contacts exports are told apart and read. */
export interface MovingSource {
  id: MovingSourceId;
  label: string;
  /** Whether this header (cells trimmed, as written) is the source's chart export. */
  isChart(header: string[]): boolean;
  readChart(table: Table): SourceFile<SourceAccount>;
  isContacts(header: string[]): boolean;
  readContacts(table: Table): SourceFile<SourceContact>;
}

/** A CSV read: its header and rows as records by column name, with their lines. */
export interface Table {
  header: string[];
  rows: { line: number; cells: Record<string, string> }[];
}
