// Importing a read statement into the books: one batch, one SQLite transaction,
// one audit entry with its counts. Rows are already parsed and checked
// (statements/); here they find their accounts, are told apart from what the
// books hold (dedupe.ts), and are written, or, on a dry run, only counted.
import type { CsvMapping, ParsedStatement, RowIssue } from '../../statements/types';
import { maskOf, type AccountRow } from '../accounts/accounts';
import { appendAudit, type Actor } from '../access/audit';
import { BULK_ROWS, insertInBulk, type BulkRow } from '../totals/bulk';
import { newId, newTimeOrderedId, nowIso } from '../core/clock';
import type { Ledger } from '../core/db';
import { classifyRows, type Classified } from './dedupe';
import { runRules } from '../rules/runs';
import { LedgerError } from '../core/errors';
import { resolveSections, type SectionPlan } from './sections';
import { saveMappingFor } from './mappings';
import { fromMinor } from '../core/money';
import { toLedgerRows, type LedgerRows } from './statement-rows';
import { excerpt } from '../core/text';

export type MatchDecision = 'merge' | 'import';

export interface ImportInput {
  statement: ParsedStatement;
  fileName: string;
  fileSha256: string;
  /** How the file was read: kept with the batch. */
  readOptions: { format?: string; encoding?: string; dateFormat?: string; mapping?: CsvMapping };
  /** The account of a one-account file: id, name or bank account id. */
  account?: string;
  /** The accounts of a file with several, by section index ("0", "1"...). */
  accounts?: Record<string, string>;
  skipBadRows?: boolean;
  /** What to do with possible matches nobody decided on: hold them back (the default), merge or import them. */
  possibleMatches?: 'ask' | MatchDecision;
  /** Decisions on single possible matches, by row number (ImportRow.n). */
  decisions?: Record<string, MatchDecision>;
  dryRun?: boolean;
}

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
  /** What the person's rules did with the imported rows (null for a dry run or a refused file). */
  rules: { suggested: number; applied: number } | null;
  errors: RowIssue[];
  skippedRows: RowIssue[];
  ignored: ParsedStatement['ignored'];
  /** The first rows as they will be stored, and every possible match (at most 500). */
  preview: ImportRow[];
  csv?: ParsedStatement['csv'];
}

const PREVIEW_ROWS = 20;
const LIST_MAX = 500;

export function importStatement(ledger: Ledger, orgSeq: number, actor: Actor, input: ImportInput): ImportResult {
  const { statement } = input;
  const plans = resolveSections(ledger, orgSeq, statement, input);
  const converted = toLedgerRows(statement.rows, (section) => plans[section].currency);
  const issues = [...statement.errors, ...converted.issues].sort((a, b) => a.line - b.line);
  const base = {
    batchId: null,
    dryRun: input.dryRun === true,
    format: statement.format,
    encoding: statement.encoding,
    fileName: input.fileName,
    account: plans[0]?.account ?? null,
    rows: statement.rowCount ?? statement.rows.length + statement.errors.length,
    ignored: statement.ignored.slice(0, LIST_MAX),
    csv: statement.csv,
  };
  if (issues.length > 0 && !input.skipBadRows) {
    return { ...base, accounts: [], imported: 0, duplicates: 0, possibleMatches: 0, merged: 0, held: 0, skipped: 0, nothingNew: false, rules: null, errors: issues.slice(0, LIST_MAX), skippedRows: [], preview: [] };
  }
  const L = converted.rows;
  const { rows } = L;
  const run = () => {
    const bySection = plans.map((_, section) => L.kept.filter((i) => rows.section[i] === section));
    const accounts = plans.map((p, i) => (p.row || input.dryRun ? p.row : p.create!(actor, bySection[i].reduce((sum, at) => sum + L.amountMinor[at], 0))));
    const toImport: number[] = [];
    const toMerge: Planned[] = [];
    const shown: Shown[] = [];
    const counts = { imported: 0, duplicates: converted.repeats, possibleMatches: 0, merged: 0, held: 0, skipped: issues.length };
    bySection.forEach((positions, section) => {
      const classified = accounts[section] ? classifyRows(ledger, accounts[section]!.seq, L, positions) : null;
      positions.forEach((i, k) => {
        const c = classified?.[k] ?? NEW;
        const decision = c.kind !== 'possible_match' ? null : (input.decisions?.[String(i)] ?? (!input.possibleMatches || input.possibleMatches === 'ask' ? 'held' : input.possibleMatches));
        if (c.kind === 'new' || decision === 'import') toImport.push(i);
        if (decision === 'merge') toMerge.push({ i, c });
        if (c.kind === 'duplicate') counts.duplicates++;
        if (c.kind === 'possible_match') counts.possibleMatches++;
        if (decision === 'held') counts.held++;
        if ((shown.length < PREVIEW_ROWS || c.kind === 'possible_match') && shown.length < LIST_MAX) shown.push({ i, c, decision, currency: plans[section].currency });
      });
    });
    counts.imported = toImport.length;
    counts.merged = toMerge.length;
    const nothingNew = toImport.length + toMerge.length === 0 && plans.every((p) => p.row);
    const batchId = input.dryRun || nothingNew ? null : write(ledger, orgSeq, actor, input, plans, accounts as AccountRow[], L, toImport, toMerge, counts, base.rows);
    // The person's rules run over what came in, in the same transaction as the import.
    const batchSeq = batchId ? (ledger.stmt('SELECT seq FROM import_batches WHERE id = ?').pluck().get(batchId) as number) : null;
    const ruled = batchSeq === null ? null : runRules(ledger, orgSeq, actor, { importBatchSeq: batchSeq, occasion: `after importing "${input.fileName}"` });
    const matchOf = (c: Classified): ImportRow['match'] => {
      if (!c.match) return null;
      const t = ledger.stmt('SELECT id, date, amount_minor, currency, description FROM transactions WHERE seq = ?').get(c.match.seq) as { id: string; date: string; amount_minor: number; currency: string; description: string };
      return { id: t.id, date: t.date, amount: fromMinor(t.amount_minor, t.currency), description: t.description, reason: c.match.reason };
    };
    const preview = shown.map(({ i, c, decision, currency }): ImportRow => ({
      n: i,
      line: rows.line[i],
      section: rows.section[i],
      date: rows.date[i],
      amount: fromMinor(L.amountMinor[i], currency),
      currency,
      description: rows.description[i],
      externalId: rows.externalId[i],
      kind: c.kind,
      match: matchOf(c),
      decision,
      note: c.reason ?? null,
    }));
    const sections = plans.map((p, i) => ({
      ...p.account,
      ...(accounts[i] ? { id: accounts[i]!.id, created: p.account.created } : {}),
      section: i,
      rows: bySection[i].length,
      imported: toImport.filter((at) => rows.section[at] === i).length,
      closing: p.closing ? { date: p.closing.date, balance: fromMinor(p.closing.minor, p.currency) } : null,
    }));
    const rules = ruled && { suggested: ruled.suggested, applied: ruled.applied };
    return { ...base, account: sections[0] ?? null, accounts: sections, ...counts, batchId, nothingNew, rules, errors: [], skippedRows: issues.slice(0, LIST_MAX), preview };
  };
  return input.dryRun ? run() : ledger.write(run);
}

/** A row (its position in the file) and what it was found to be. */
type Planned = { i: number; c: Classified };
type Shown = Planned & { decision: ImportRow['decision']; currency: string };
const NEW: Classified = Object.freeze({ kind: 'new', match: null });
type Counts = { imported: number; duplicates: number; merged: number; held: number; skipped: number };

function write(
  ledger: Ledger,
  orgSeq: number,
  actor: Actor,
  input: ImportInput,
  plans: SectionPlan[],
  accounts: AccountRow[],
  L: LedgerRows,
  toImport: number[],
  toMerge: Planned[],
  counts: Counts,
  rowCount: number,
): string {
  const { rows } = L;
  const closed = accounts.find((a) => a.closed_at);
  if (closed) throw new LedgerError('conflict', `Account "${closed.name}" is closed (read-only); reopen it to import into it.`, { account: closed.id });
  const batchId = newId();
  const createdAt = nowIso();
  const { lastInsertRowid } = ledger
    .stmt(
      `INSERT INTO import_batches (id, org_seq, format, file_name, file_sha256, created_at, rows, imported, duplicates, merged, skipped, options)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(batchId, orgSeq, input.statement.format, input.fileName, input.fileSha256, createdAt, rowCount, counts.imported, counts.duplicates, counts.merged, counts.skipped, JSON.stringify(input.readOptions));
  const batchSeq = Number(lastInsertRowid);
  const insert = (track: (row: BulkRow) => void) => {
    const stmt = ledger.stmt(INSERT_IMPORTED);
    for (const i of toImport) {
      const a = accounts[rows.section[i]];
      const date = rows.date[i];
      const amountMinor = L.amountMinor[i];
      const description = rows.description[i];
      stmt.run(newTimeOrderedId(), orgSeq, a.seq, 'import', date, amountMinor, a.currency, description, null, 'uncategorized', 'manual_csv', rows.externalId[i], null, null, null, createdAt, batchSeq, L.fingerprint[i]);
      track({ orgSeq, accountSeq: a.seq, date, status: 'uncategorized', reconciled: 0, source: 'manual_csv', currency: a.currency, amountMinor, description, category: null });
    }
  };
  if (toImport.length >= BULK_ROWS) insertInBulk(ledger, insert);
  else insert(() => {}); // the row triggers keep the aggregates
  for (const { i, c } of toMerge) {
    const seq = c.match!.seq;
    // The row stays the person's (description, category, notes) and takes the bank's date and id.
    const previous = ledger.stmt('SELECT date, external_id FROM transactions WHERE seq = ?').get(seq) as { date: string; external_id: string | null };
    ledger.stmt('INSERT INTO import_merges (batch_seq, transaction_seq, previous_date, previous_external_id) VALUES (?, ?, ?, ?)').run(batchSeq, seq, previous.date, previous.external_id);
    ledger.stmt('UPDATE transactions SET import_batch_seq = ?, fingerprint = ?, date = ?, external_id = coalesce(?, external_id) WHERE seq = ?').run(batchSeq, L.fingerprint[i], rows.date[i], rows.externalId[i], seq);
  }
  accounts.forEach((a, i) => {
    const p = plans[i];
    const s = input.statement.sections[i];
    const sectionRows = toImport.filter((at) => rows.section[at] === i).length;
    if (p.adoptBankId) ledger.stmt('UPDATE accounts SET bank_account_id = ?, masked_number = coalesce(masked_number, ?) WHERE seq = ?').run(p.adoptBankId, maskOf(p.adoptBankId), a.seq);
    ledger
      .stmt(
        `INSERT INTO statements (batch_seq, account_seq, period_from, period_to, opening_date, opening_minor, closing_date, closing_minor, rows, imported)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(batchSeq, a.seq, s.from, s.to, p.opening?.date ?? null, p.opening?.minor ?? null, p.closing?.date ?? null, p.closing?.minor ?? null, rows.count(i), sectionRows);
    if (input.statement.csv) saveMappingFor(ledger, orgSeq, a, input.statement.csv, input.readOptions.mapping?.negate === true);
  });
  appendAudit(ledger, orgSeq, actor, {
    action: 'statement.imported',
    targetType: 'import_batch',
    targetId: batchId,
    summary:
      `Imported "${excerpt(input.fileName, 60)}" (${input.statement.format}) into ${accounts.map((a) => `"${a.name}"`).join(', ')}: ${rowCount} row(s), ${counts.imported} new, ${counts.duplicates} duplicate(s)` +
      `${counts.merged ? `, ${counts.merged} matched to rows entered by hand` : ''}${counts.held ? `, ${counts.held} possible match(es) held back` : ''}${counts.skipped ? `, ${counts.skipped} bad row(s) skipped` : ''}`,
  });
  return batchId;
}

const INSERT_IMPORTED = `INSERT INTO transactions
  (id, org_seq, account_seq, origin, date, amount_minor, currency, description, category, status, source, external_id, suggested_by, confidence, reason, created_at, import_batch_seq, fingerprint)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
