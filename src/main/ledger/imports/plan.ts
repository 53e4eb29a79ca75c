// An import as a plan: what the file holds, measured against the books,
// without writing anything: each section's account (found, or to be made),
// every row told apart (new, duplicate, possible match: dedupe.ts), the
// decisions on possible matches, the counts and the rows a preview shows.
// apply.ts writes a plan in one transaction; a dry run shows it as it is.
import type { TransactionSource } from '../../../../db/values';
import type { CsvMapping, ParsedStatement, StatementOrigin, RowIssue, StatementWarning } from '../../statements/types';
import type { AccountRow } from '../accounts/accounts';
import type { Ledger } from '../core/sqlite/open';
import { classifyRows, type Classified } from './dedupe';
import { resolveSections, type SectionPlan } from './sections';
import { toLedgerRows, type LedgerRows } from './statement-rows';
import { planTransfers, type PlannedTransfer } from './transfers';
import { rowsElsewhere, type ElsewhereWarning } from './elsewhere';
import { lockedThrough } from '../access/closing';

export type MatchDecision = 'merge' | 'import';
/** A decision on one row: a possible match merged or imported, or a possible transfer matched ('transfer'). */
export type RowDecision = MatchDecision | 'transfer';

export interface ImportInput {
  /** A file's statement, or a feed's rows in the same shape. */
  statement: ParsedStatement<StatementOrigin>;
  fileName: string;
  fileSha256: string;
  /** How the file was read: kept with the batch. */
  readOptions: { format?: string; encoding?: string; dateFormat?: string; mapping?: CsvMapping };
  /** The account of a one-account file: id, name or bank account id. */
  account?: string;
  /** The accounts of a file with several, by section index ("0", "1"...). */
  accounts?: Record<string, string>;
  skipBadRows?: boolean;
  /** Rows dated on or before the closing date are left out (otherwise they refuse the import, named). */
  skipLocked?: boolean;
  /** What to do with possible matches nobody decided on: hold them back (the default), merge or import them. */
  possibleMatches?: 'ask' | MatchDecision;
  /** Decisions on single rows, by row number (ImportRow.n): possible matches, possible transfers. */
  decisions?: Record<string, RowDecision>;
  dryRun?: boolean;
  /** The statement was read for this import alone: its amounts' text is let go once counted in minor units. */
  readOnce?: boolean;
  /** Where the rows came from: a file (`manual_csv`, the default) or a connector's sync (`bankfeed`, `paymentproc`: connectors/sync.ts). */
  source?: TransactionSource;
  /** The text of the rows starting at these lines, as the file has them: kept with the rows an import skips. */
  readBack?: (lines: readonly number[]) => ReadonlyMap<number, string>;
}

/** A row (its position in the file) and what it was found to be. */
export interface Planned {
  i: number;
  c: Classified;
}

export type Decided = Planned & { decision: 'held' | MatchDecision | null; currency: string };

export interface ImportCounts {
  imported: number;
  duplicates: number;
  possibleMatches: number;
  merged: number;
  held: number;
  skipped: number;
}

export interface ImportPlan {
  input: ImportInput;
  sections: SectionPlan[];
  rows: LedgerRows;
  /** Bad rows, in line order: the import stops at them unless they are skipped. */
  issues: RowIssue[];
  /** Stopped by bad rows (not skipped): nothing is imported. */
  refused: boolean;
  /** Rows in the file, good and bad. */
  rowCount: number;
  /** Each section's rows (positions in the file). */
  bySection: Int32Array[];
  /** The rows to write, by position in the file: a section's after another's, each in file order. */
  toImport: Int32Array;
  toMerge: Planned[];
  /** What a preview shows: the first rows, every possible match and every row with a transfer (at most 500). */
  shown: Decided[];
  /** New rows matched with a side of a transfer, and those shown as possible ones, by position (imports/transfers.ts). */
  transfers: Map<number, PlannedTransfer>;
  /** All of them, the possible transfers not shown included (counted, not kept). */
  transferCounts: { matched: number; possible: number };
  counts: ImportCounts;
  /** Every row is already in the books (or held back), none is skipped, no account is made: nothing is recorded. */
  nothingNew: boolean;
  /** What the file says that does not stop it (a balance column that disagrees), then rows mostly in another account already. */
  warnings: ImportWarning[];
}

export type ImportWarning = StatementWarning | ElsewhereWarning;

export const PREVIEW_ROWS = 20;
export const LIST_MAX = 500;
const NEW: Classified = Object.freeze({ kind: 'new', match: null });

export async function planImport(ledger: Ledger, orgSeq: number, input: ImportInput): Promise<ImportPlan> {
  const { statement } = input;
  const sections = await resolveSections(ledger, orgSeq, statement, input);
  const converted = toLedgerRows(statement.rows, (section) => sections[section].currency);
  if (input.readOnce) statement.rows.dropAmountText();
  const issues = [...statement.errors, ...converted.issues].sort((a, b) => a.line - b.line);
  const rowCount = statement.rowCount ?? statement.rows.length + statement.errors.length;
  const L = converted.rows;
  // Positions as typed arrays (4 bytes a row): a million numbers in a list weigh 8-16 MB each.
  const bySection = sections.length === 1 ? [L.kept] : sections.map((_, section) => L.kept.filter((i) => L.rows.section[i] === section));
  const counts: ImportCounts = { imported: 0, duplicates: converted.repeats, possibleMatches: 0, merged: 0, held: 0, skipped: issues.length };
  const plan: ImportPlan = {
    input,
    sections,
    rows: L,
    issues,
    // A question about the whole file (its date format, its columns) is answered, never skipped.
    refused: issues.some((i) => i.file) || (issues.length > 0 && !input.skipBadRows),
    rowCount,
    bySection,
    toImport: new Int32Array(0),
    toMerge: [],
    shown: [],
    transfers: new Map(),
    transferCounts: { matched: 0, possible: 0 },
    counts,
    nothingNew: false,
    warnings: [],
  };
  if (plan.refused) return plan;
  const toImport = new Int32Array(L.kept.length);
  let imported = 0;
  for (const [section, positions] of bySection.entries()) {
    const each = (i: number, c: Classified) => {
      if (decide(plan, i, c, sections[section].currency)) toImport[imported++] = i;
    };
    // A section whose account the import makes has nothing in the books yet: every row is new.
    const account: AccountRow | null = sections[section].row;
    if (account) await classifyRows(ledger, account.seq, L, positions, each);
    else positions.forEach((i) => each(i, NEW));
  }
  plan.toImport = toImport.subarray(0, imported);
  if (await leaveOutLocked(ledger, orgSeq, plan)) return plan;
  plan.transfers = await planTransfers(ledger, orgSeq, { ...plan, decisions: plan.input.decisions, closedThrough: await lockedThrough(ledger, orgSeq) });
  showTransfers(plan);
  counts.imported = plan.toImport.length;
  counts.merged = plan.toMerge.length;
  // Skipped rows are recorded even when nothing else is new, so that they stay listed to fix.
  plan.nothingNew = plan.toImport.length + plan.toMerge.length === 0 && counts.skipped === 0 && sections.every((s) => s.row);
  plan.warnings = [...(input.statement.warnings ?? []), ...(await rowsElsewhere(ledger, orgSeq, { ...plan, headers: input.statement.csv?.headers }))];
  return plan;
}

/** What happens to one row: imported, merged, held back or left out as a duplicate, as the person decided. Answers whether it is imported. */
function decide(plan: ImportPlan, i: number, c: Classified, currency: string): boolean {
  const { input, counts } = plan;
  const asked = !input.possibleMatches || input.possibleMatches === 'ask';
  const said = input.decisions?.[String(i)];
  const decision = c.kind !== 'possible_match' ? null : ((said === 'transfer' ? undefined : said) ?? (asked ? 'held' : (input.possibleMatches as MatchDecision)));
  if (decision === 'merge') plan.toMerge.push({ i, c });
  if (c.kind === 'duplicate') counts.duplicates++;
  if (c.kind === 'possible_match') counts.possibleMatches++;
  if (decision === 'held') counts.held++;
  if ((plan.shown.length < PREVIEW_ROWS || c.kind === 'possible_match') && plan.shown.length < LIST_MAX) plan.shown.push({ i, c, decision, currency });
  return c.kind === 'new' || decision === 'import';
}

/** How many of the rows to write are in a section (counted, not listed). */
export function importedIn(plan: Pick<ImportPlan, 'rows' | 'toImport'>, section: number): number {
  const { section: of } = plan.rows.rows;
  let n = 0;
  for (const i of plan.toImport) if (of[i] === section) n++;
  return n;
}

/**
 * Rows to write dated on or before the closing date: named as issues that
 * refuse the import, or (skipLocked) left out and counted as skipped. Answers
 * whether the import is refused.
 */
async function leaveOutLocked(ledger: Ledger, orgSeq: number, plan: ImportPlan): Promise<boolean> {
  const through = await lockedThrough(ledger, orgSeq);
  if (!through) return false;
  const { rows } = plan.rows;
  const closed = (i: number) => rows.date[i] <= through;
  const locked = [...plan.toImport.filter(closed), ...plan.toMerge.map((m) => m.i).filter(closed)].sort((a, b) => a - b);
  if (!locked.length) return false;
  const message = `dated on or before the closing date ${through}: the books are closed through it${plan.input.skipLocked ? ' (left out)' : '; leave such rows out (--skip-locked) or unlock the period'}`;
  plan.issues.push(...locked.map((i) => ({ line: rows.line[i], field: 'date', message: `${rows.date[i]} is ${message}` })));
  plan.issues.sort((a, b) => a.line - b.line);
  if (!plan.input.skipLocked) return (plan.refused = true);
  plan.toImport = plan.toImport.filter((i) => !closed(i));
  plan.toMerge = plan.toMerge.filter((m) => !closed(m.i));
  plan.shown = plan.shown.filter((d) => !closed(d.i));
  plan.counts.skipped += locked.length;
  return false;
}

/**
 * Rows with a transfer are shown too (after the first rows), as possible
 * matches are. The possible transfers not shown are counted and let go: a
 * file in no order may have a hundred thousand (~25 MB held until its commit).
 */
function showTransfers(plan: ImportPlan): void {
  const shown = new Set(plan.shown.map((d) => d.i));
  for (const i of plan.transfers.keys()) {
    if (plan.shown.length >= LIST_MAX) break;
    if (shown.has(i)) continue;
    plan.shown.push({ i, c: NEW, decision: null, currency: plan.sections[plan.rows.rows.section[i]].currency });
    shown.add(i);
  }
  plan.shown.sort((a, b) => a.i - b.i);
  const kept = new Map<number, PlannedTransfer>();
  for (const [i, t] of plan.transfers) if (t.kind === 'matched' || shown.has(i)) kept.set(i, t);
  const matched = [...kept.values()].filter((t) => t.kind === 'matched').length;
  plan.transferCounts = { matched, possible: plan.transfers.size - matched };
  plan.transfers = kept;
}
