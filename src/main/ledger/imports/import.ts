// Importing a read statement into the books: a plan (plan.ts: accounts, what
// is new, duplicate or a possible match), then, unless it is a dry run or
// nothing is new, its application (apply.ts) and the person's rules over what
// came in, all in one SQLite transaction. The answer is what the preview shows.
import type { ParsedStatement, RowIssue, StatementDates } from '../../statements/types';
import type { Actor } from '../access/audit';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { runRules } from '../rules/runs';
import { applyImport } from './apply';
import type { Classified } from './dedupe';
import { importedIn, LIST_MAX, planImport, type ImportInput, type ImportPlan, type ImportWarning, type MatchDecision } from './plan';
import type { SectionPlan } from './sections';
import type { PlannedTransfer } from './transfers';
import { shownSide } from '../transfers/candidates';
import { matchImportedPayments } from '../documents/payments/match';
import { mapInOrder } from '../core/in-order';

export type { ImportInput, MatchDecision } from './plan';
export type { ElsewhereWarning } from './elsewhere';

export interface ImportRow {
  n: number;
  line: number;
  section: number;
  date: string;
  amount: number;
  currency: string;
  description: string;
  externalId: string | null;
  kind: 'new' | 'duplicate' | 'possible_match';
  /** The transaction it duplicates or may be, as the books have it. */
  match: { id: string; date: string; amount: number; description: string; reason: string } | null;
  /** What happens to a possible match: held back until someone decides, merged, or imported. */
  decision: 'held' | MatchDecision | null;
  /**
   * A side of a transfer between the organization's own accounts: matched (written as one transfer with the row
   * of the books named), or possible (imported as it is unless the decision for it is 'transfer').
   */
  transfer: { kind: 'matched' | 'possible'; with: { id: string; date: string; amount: number; description: string; account: string }; candidates: number } | null;
  /** Why a duplicate with no row to show is one ("deleted by hand on 2026-03-04"). */
  note: string | null;
}

export interface ImportResult {
  batchId: string | null;
  dryRun: boolean;
  format: string;
  encoding: string;
  fileName: string;
  /** The account of a one-account file (the first of several). */
  account: SectionPlan['account'] | null;
  accounts: (SectionPlan['account'] & { section: number; rows: number; imported: number; closing: { date: string; balance: number } | null })[];
  rows: number;
  imported: number;
  duplicates: number;
  possibleMatches: number;
  merged: number;
  held: number;
  skipped: number;
  /** Every row is already in the books (or held back): no batch is recorded, and the answer says so. */
  nothingNew: boolean;
  /** New rows matched with the other side of a transfer, and rows that may be one (possible transfers). */
  transfers: { matched: number; possible: number };
  /** Rows that paid an open invoice or bill (exact and unique), and rows that may (issue 29). */
  payments: { matched: number; possible: number };
  /** What the person's rules did with the imported rows (null for a dry run or a refused file). */
  rules: { suggested: number; applied: number } | null;
  /** Bad rows that stop the import (a question about the whole file is marked `file`). */
  errors: RowIssue[];
  /** The rows left out (bad, or in the closed period), by line: kept with the batch (`import skipped`). */
  skippedRows: RowIssue[];
  ignored: ParsedStatement['ignored'];
  /** How a CSV's or QIF's dates were read: the format, the formats it leaves open, the account whose order settled them. */
  dates: StatementDates | null;
  /** A CSV's balance column that disagrees with its amounts; the new rows of a section mostly in another account already. */
  warnings: ImportWarning[];
  /** The first rows as they will be stored, and every possible match (at most 500). */
  preview: ImportRow[];
  csv?: ParsedStatement['csv'];
}

export async function importStatement(ledger: Ledger, orgSeq: number, actor: Actor, input: ImportInput): Promise<ImportResult> {
  const run = async (): Promise<ImportResult> => {
    const plan = await planImport(ledger, orgSeq, input);
    if (plan.refused || input.dryRun || plan.nothingNew) return resultOf(ledger, orgSeq, plan, null, null);
    const applied = await applyImport(ledger, orgSeq, actor, plan);
    // Payments of open invoices and bills first (an exact one is paid), then the person's rules, in the same transaction.
    const payments = await matchImportedPayments(ledger, orgSeq, actor, applied.batchSeq);
    const ruled = await runRules(ledger, orgSeq, actor, { importBatchSeq: applied.batchSeq, occasion: `after importing "${input.fileName}"` });
    return { ...(await resultOf(ledger, orgSeq, plan, applied, { suggested: ruled.suggested, applied: ruled.applied })), payments };
  };
  return input.dryRun ? await run() : await ledger.write(run);
}

async function resultOf(
  ledger: Ledger,
  orgSeq: number,
  plan: ImportPlan,
  applied: Awaited<ReturnType<typeof applyImport>> | null,
  rules: ImportResult['rules'],
): Promise<ImportResult> {
  const { input, sections } = plan;
  const { statement } = input;
  const base = {
    batchId: applied?.batchId ?? null,
    dryRun: input.dryRun === true,
    format: statement.format,
    encoding: statement.encoding,
    fileName: input.fileName,
    rows: plan.rowCount,
    ignored: statement.ignored.slice(0, LIST_MAX),
    csv: statement.csv,
    dates: statement.dates ?? null,
    nothingNew: plan.nothingNew,
    rules,
  };
  if (plan.refused) return refusedResult(base, plan);
  const accountNames = new Map((await ledger.rows<{ seq: number; name: string }>('SELECT seq, name FROM accounts WHERE org_seq = ?', orgSeq)).map((a) => [a.seq, a.name]));
  const preview = await previewOf(ledger, plan, accountNames);
  const accounts = sections.map((p, i) => ({
    ...p.account,
    ...(applied ? { id: applied.accounts[i].id } : {}),
    section: i,
    rows: plan.bySection[i].length,
    imported: importedIn(plan, i),
    closing: p.closing ? { date: p.closing.date, balance: fromMinor(p.closing.minor, p.currency) } : null,
  }));
  return {
    ...base,
    account: accounts[0] ?? null,
    accounts,
    ...plan.counts,
    transfers: plan.transferCounts,
    payments: { matched: 0, possible: 0 },
    errors: [],
    skippedRows: plan.issues.slice(0, LIST_MAX),
    warnings: plan.warnings,
    preview,
  };
}

/** The rows the import shows (at most LIST_MAX), each with what was decided for it. */
async function previewOf(ledger: Ledger, plan: ImportPlan, accountNames: Map<number, string>): Promise<ImportRow[]> {
  const { rows: L } = plan;
  const { rows } = L;
  return mapInOrder(plan.shown, async ({ i, c, decision, currency }): Promise<ImportRow> => ({
    n: i,
    line: rows.line[i],
    section: rows.section[i],
    date: rows.date[i],
    amount: fromMinor(L.amountMinor[i], currency),
    currency,
    description: L.description(i),
    externalId: rows.idAt(i),
    kind: c.kind,
    match: await matchOf(ledger, c),
    decision,
    note: c.reason ?? null,
    transfer: await transferOf(ledger, plan.transfers.get(i), accountNames),
  }));
}

async function transferOf(ledger: Ledger, t: PlannedTransfer | undefined, accounts: Map<number, string>): Promise<ImportRow['transfer']> {
  if (!t) return null;
  const w = await shownSide(ledger, t.with);
  return {
    kind: t.kind,
    with: { id: w.id, date: w.date, amount: fromMinor(w.amount_minor, w.currency), description: w.description, account: accounts.get(w.account_seq) ?? '' },
    candidates: t.candidates,
  };
}

/** The row in the books a statement row is (or may be) the same as, as the preview shows it. */
async function matchOf(ledger: Ledger, c: Classified): Promise<ImportRow['match']> {
  if (!c.match) return null;
  const t = (await ledger.stmt('SELECT id, date, amount_minor, currency, description FROM transactions WHERE seq = ?').get(c.match.seq)) as {
    id: string;
    date: string;
    amount_minor: number;
    currency: string;
    description: string;
  };
  return { id: t.id, date: t.date, amount: fromMinor(t.amount_minor, t.currency), description: t.description, reason: c.match.reason };
}

/** A file stopped by its bad (or closed-period) rows: what they are, and nothing else. */
function refusedResult(
  base: Pick<ImportResult, 'batchId' | 'dryRun' | 'format' | 'encoding' | 'fileName' | 'rows' | 'ignored' | 'csv' | 'dates' | 'nothingNew' | 'rules'>,
  plan: ImportPlan,
): ImportResult {
  return {
    ...base,
    account: plan.sections[0]?.account ?? null,
    accounts: [],
    imported: 0,
    duplicates: 0,
    possibleMatches: 0,
    merged: 0,
    held: 0,
    skipped: 0,
    errors: plan.issues.slice(0, LIST_MAX),
    skippedRows: [],
    warnings: [],
    preview: [],
    transfers: { matched: 0, possible: 0 },
    payments: { matched: 0, possible: 0 },
  };
}
