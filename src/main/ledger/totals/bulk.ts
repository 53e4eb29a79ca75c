// Bulk loading (demo data, imports), bulk updates (a rule run) and bulk
// deletes (an undone import). On SQLite per-row triggers cost ~13x more than
// keeping the totals once for the batch: inside the caller's write transaction
// the triggers the declaration names (declared.ts) are lifted, the rows written,
// the totals brought up to date (counted in JS as the rows go in:
// aggregates.ts) and the full-text index filled set-wise; then the triggers
// are restored from their own stored SQL. Other connections see the rows,
// their totals and the triggers together or not at all. On PostgreSQL the
// totals' triggers are per statement already (scripts/postgres/triggers.ts):
// a batch is its statements, nothing is lifted (no DDL at run time).
import { refreshSettled } from '../documents/payments/settled';
import type { Ledger } from '../core/sqlite/open';
import { ORDER_KEY_SQL } from '../transactions/transactions';
import { EntryAggregates, type BulkLine, type BulkRow } from './aggregates';
import { TOTALS, triggerName, type Source, type Track, type TriggerEvent } from './declared';

export { EntryAggregates, type BulkLine, type BulkRow, type Track };

const trackInto = (totals: EntryAggregates): Track => ({ row: (r) => totals.rows.add(r), line: (l) => totals.lines.add(l) });

/** The full-text indexes' triggers (migration 0013): the bulk path fills the indexes itself. */
const FULL_TEXT = { transactions_ai: 'transactions_fts_ai', transactions_ad: 'transactions_fts_ad', receipts_ai: 'receipts_ai' } as const;
const totalsOf = (source: Source, event: TriggerEvent) => TOTALS.filter((t) => t.source === source).map((t) => triggerName(t, event));
const entryTotalsOf = (event: TriggerEvent) => [...totalsOf('transactions', event), ...totalsOf('lines', event)];

/** From this many rows on, a batch lifts the row triggers and keeps the aggregates set-wise (below it, the triggers are cheaper). */
export const BULK_ROWS = 2_000;

/**
 * Runs fn with the named triggers lifted, restoring them after (also when fn
 * throws: the caller's rollback undoes all).
 */
export async function withoutTriggers<T>(ledger: Ledger, names: readonly string[], fn: () => T | Promise<T>): Promise<T> {
  const triggers = ledger.sqlite.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => '?').join(', ')})`).all(...names) as {
    name: string;
    sql: string;
  }[];
  if (triggers.length !== names.length) throw new Error(`the ledger lacks triggers the totals declare: ${names.filter((n) => !triggers.some((t) => t.name === n)).join(', ')}`);
  for (const t of triggers) ledger.sqlite.exec(`DROP TRIGGER ${t.name}`);
  try {
    return await fn();
  } finally {
    for (const t of triggers) ledger.sqlite.exec(t.sql);
  }
}

/** FTS5's settings while a batch goes in, and after (its defaults). */
const FULL_TEXT_BATCH = { hashsize: 16_777_216, automerge: 0, crisismerge: 1_000 } as const;
const FULL_TEXT_AFTER = { hashsize: 1_048_576, automerge: 4, crisismerge: 16 } as const;

/**
 * Fills the transactions' full-text index with a batch in big segments (a 16 MB hash) and merges none of them
 * now: neither the merging of small segments (automerge) nor the forced one when a level holds 16 (crisismerge),
 * which was half the time of the index and two thirds of the pages the commit wrote. The segments are merged
 * later, a little with each write (automerge); a search for a word over them still answers in about a millisecond.
 */
async function withFullTextBatch(ledger: Ledger, fill: () => unknown): Promise<void> {
  const set = (settings: Record<string, number>) => {
    // Literals: FTS5 takes only an integer value, and a bound JS number is a double.
    for (const [name, value] of Object.entries(settings)) ledger.sqlite.exec(`INSERT INTO transactions_fts (transactions_fts, rank) VALUES ('${name}', ${value})`);
  };
  set(FULL_TEXT_BATCH);
  await fill();
  set(FULL_TEXT_AFTER);
}

/**
 * The trigger that refuses a row without an account of its currency (migration 0006), lifted for a batch and its
 * check made once for it: any trigger on an insert makes SQLite keep a statement journal for every row, which was
 * a sixth of a large import's time.
 */
const ACCOUNT_CHECK = 'transactions_require_account';

/** The batch's rows' accounts, each with the currencies its rows had: each one an account of that one currency. */
async function checkAccounts(ledger: Ledger, currencies: Map<number, Set<string>>): Promise<void> {
  const currencyOf = ledger.stmt('SELECT currency FROM accounts WHERE seq = ?').pluck();
  for (const [accountSeq, seen] of currencies) {
    if (seen.size !== 1 || !seen.has((await currencyOf.get(accountSeq)) as string)) throw new Error('every transaction belongs to an account of its currency');
  }
}

const maxSeq = (ledger: Ledger, table: string) => (ledger.sqlite.prepare(`SELECT coalesce(max(seq), 0) AS s FROM ${table}`).get() as { s: number }).s;

export async function bulkInsert(ledger: Ledger, fn: (track: Track) => unknown): Promise<void> {
  await ledger.write(() => insertInBulk(ledger, fn));
}

/**
 * Inserts in bulk inside a write transaction the caller holds. fn writes the
 * rows and their lines and tells track of each.
 */
export async function insertInBulk(ledger: Ledger, fn: (track: Track) => unknown): Promise<void> {
  if (ledger.engine === 'postgres') return void (await fn(UNTRACKED));
  const txSince = maxSeq(ledger, 'transactions');
  const receiptSince = maxSeq(ledger, 'receipts');
  await withoutTriggers(ledger, [...entryTotalsOf('ai'), FULL_TEXT.transactions_ai, FULL_TEXT.receipts_ai, ACCOUNT_CHECK], async () => {
    const totals = new EntryAggregates(1);
    const track = trackInto(totals);
    // Each row's account and currency, for the account check the lifted trigger made row by row.
    const currencies = new Map<number, Set<string>>();
    await fn({
      ...track,
      row: (r) => {
        const seen = currencies.get(r.accountSeq);
        if (!seen) currencies.set(r.accountSeq, new Set([r.currency]));
        else seen.add(r.currency);
        track.row(r);
      },
    });
    await checkAccounts(ledger, currencies);
    totals.flush(ledger);
    await withFullTextBatch(ledger, () =>
      ledger.sqlite.prepare(`INSERT INTO transactions_fts (rowid, description) SELECT ${ORDER_KEY_SQL}, description FROM transactions WHERE seq > ?`).run(txSince),
    );
    ledger.sqlite.prepare('INSERT INTO receipts_fts (rowid, file_name, ocr_text) SELECT seq, file_name, ocr_text FROM receipts WHERE seq > ?').run(receiptSince);
  });
}

/**
 * Updates many transactions' status and lines (a rule run) the same way: the
 * totals' update triggers lifted while `update` runs, then the old totals
 * taken away and the new ones added, as the caller counted them
 * (EntryAggregates(-1) of rows and lines as they were, (1) as they become).
 * `update` must not change a row's description, date, amount or account; it
 * may change, add and delete lines.
 */
export async function updateInBulk(ledger: Ledger, update: () => void | Promise<void>, before: EntryAggregates, after: EntryAggregates): Promise<void> {
  if (ledger.engine === 'postgres') return void (await update());
  await withoutTriggers(ledger, [...totalsOf('transactions', 'au'), ...totalsOf('lines', 'ai'), ...totalsOf('lines', 'ad'), ...totalsOf('lines', 'au')], async () => {
    await update();
    before.flush(ledger);
    after.flush(ledger);
  });
}

/**
 * Deletes many transactions (an undone import) and their lines the same way,
 * in the caller's write transaction. `where` selects the rows from `transactions`.
 */
export async function deleteInBulk(ledger: Ledger, where: string, ...params: unknown[]): Promise<number> {
  if (ledger.engine === 'postgres') return deleteBySql(ledger, where, params);
  return withoutTriggers(ledger, [...entryTotalsOf('ad'), FULL_TEXT.transactions_ad], async () => {
    const totals = new EntryAggregates(-1);
    const rows = ledger.sqlite
      .prepare(`SELECT org_seq, account_seq, date, status, reconciled, source, currency, amount_minor, base_minor, description FROM transactions WHERE ${where}`)
      .raw(true)
      .iterate(...params) as Iterable<[number, number, string, string, number, string, string, number, number | null, string]>;
    for (const [orgSeq, accountSeq, date, status, reconciled, source, currency, amountMinor, baseMinor, description] of rows) {
      totals.rows.add({ orgSeq, accountSeq, date, status, reconciled, source, currency, amountMinor, baseMinor, description });
    }
    const lines = ledger.sqlite
      .prepare(`SELECT org_seq, currency, date, kind, category_seq, amount_minor, base_minor FROM lines WHERE transaction_seq IN (SELECT seq FROM transactions WHERE ${where})`)
      .raw(true)
      .iterate(...params) as Iterable<[number, string, string, string, number | null, number, number | null]>;
    for (const [orgSeq, currency, date, kind, categorySeq, amountMinor, baseMinor] of lines)
      totals.lines.add({ orgSeq, currency, date, kind, categorySeq, amountMinor, baseMinor });
    totals.flush(ledger);
    // Invoices and bills the deleted rows paid are open again by what is left.
    const settled = ledger.sqlite
      .prepare(`SELECT DISTINCT settles_seq FROM lines WHERE settles_seq IS NOT NULL AND transaction_seq IN (SELECT seq FROM transactions WHERE ${where})`)
      .pluck()
      .all(...params) as number[];
    ledger.sqlite.prepare(`DELETE FROM lines WHERE transaction_seq IN (SELECT seq FROM transactions WHERE ${where})`).run(...params);
    await refreshSettled(ledger, settled);
    ledger.sqlite.prepare(`DELETE FROM transactions_fts WHERE rowid IN (SELECT ${ORDER_KEY_SQL} FROM transactions WHERE ${where})`).run(...params);
    return ledger.sqlite.prepare(`DELETE FROM transactions WHERE ${where}`).run(...params).changes;
  });
}

/**
 * Books many documents' entries (invoices issued from a file) the same way:
 * fn writes the postings and tells track of each; their totals are added once.
 */
export async function postInBulk<T>(ledger: Ledger, fn: (track: Track) => T | Promise<T>): Promise<T> {
  if (ledger.engine === 'postgres') return fn(UNTRACKED);
  return withoutTriggers(ledger, totalsOf('postings', 'ai'), async () => {
    const totals = new EntryAggregates(1);
    const result = await fn(trackInto(totals));
    totals.flush(ledger);
    return result;
  });
}

/** How many pending proposals of one kind one proposer filed in a bulk run. */
export interface FiledCount {
  type: string;
  proposedBy: string;
  n: number;
}

/**
 * Files many proposals (a rule run's suggestions): the pending counts (per status, and per kind and proposer) kept once
 * for the batch, not by a trigger per row; file answers how many it filed of each kind and proposer.
 */
export async function proposeInBulk(ledger: Ledger, orgSeq: number, file: () => FiledCount[] | Promise<FiledCount[]>): Promise<void> {
  if (ledger.engine === 'postgres') return void (await file());
  const filed = await withoutTriggers(ledger, totalsOf('proposals', 'ai'), file);
  const total = filed.reduce((sum, f) => sum + f.n, 0);
  await ledger
    .stmt("INSERT INTO proposal_status_counts AS t (org_seq, status, n) VALUES (?, 'pending', ?) ON CONFLICT (org_seq, status) DO UPDATE SET n = t.n + excluded.n")
    .run(orgSeq, total);
  const byKind = ledger.stmt(
    "INSERT INTO proposal_kind_counts AS t (org_seq, status, type, proposed_by, n) VALUES (?, 'pending', ?, ?, ?) ON CONFLICT (org_seq, status, type, proposed_by) DO UPDATE SET n = t.n + excluded.n",
  );
  for (const f of filed) if (f.n > 0) await byKind.run(orgSeq, f.type, f.proposedBy, f.n);
}

/** On PostgreSQL the statements' triggers count: nothing to track. */
const UNTRACKED: Track = { row: () => undefined, line: () => undefined };

/** An undone import's rows and lines deleted by statements (PostgreSQL: their triggers take their totals away). */
async function deleteBySql(ledger: Ledger, where: string, params: unknown[]): Promise<number> {
  const settled = (await ledger
    .stmt(`SELECT DISTINCT settles_seq FROM lines WHERE settles_seq IS NOT NULL AND transaction_seq IN (SELECT seq FROM transactions WHERE ${where})`)
    .pluck()
    .all(...params)) as number[];
  await ledger.stmt(`DELETE FROM lines WHERE transaction_seq IN (SELECT seq FROM transactions WHERE ${where})`).run(...params);
  await refreshSettled(ledger, settled);
  return (await ledger.stmt(`DELETE FROM transactions WHERE ${where}`).run(...params)).changes;
}
