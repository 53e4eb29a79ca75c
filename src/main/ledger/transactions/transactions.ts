// Transactions: the paged, filtered list and the detail view.
// Ordering is date descending with seq descending as the stable tiebreak; every
// index on transactions ends in (date, seq), so pages come straight off an index.
import { consistent } from '../core/consistent';
import type { Ledger } from '../core/sqlite/open';
import { notFound } from '../core/errors';
import { fromMinor } from '../core/money';
import { excerpt } from '../core/text';
import { columns, type TransactionRecord } from '../../../../db/rows';
import type { TransactionSource } from '../../../../db/values';
import type { TransactionStatus } from './status';
import { dayWalk, deepPageStart } from '../totals/day-walk';

export { TRANSACTION_STATUSES, type TransactionStatus } from './status';
export { TRANSACTION_ORIGINS, TRANSACTION_SOURCES, type TransactionOrigin, type TransactionSource } from '../../../../db/values';
export const UNCATEGORIZED = '__uncategorized__';

export interface Transaction {
  id: string;
  date: string;
  amount: number;
  currency: string;
  description: string;
  category: string | null;
  status: TransactionStatus;
  source: TransactionSource;
  externalId: string | null;
  suggestedBy: string | null;
  confidence: number | null;
  reason: string | null;
}

/** The columns a transaction is read with: the spec's fields and the facts its status is a view of. */
const READ = [
  'seq',
  'org_seq',
  'id',
  'date',
  'amount_minor',
  'base_minor',
  'currency',
  'description',
  'category_seq',
  'status',
  'source',
  'external_id',
  'suggested_by',
  'confidence',
  'reason',
  'reconciled',
  'receipt_needed',
] as const;
/** The spec's `category`: the name, as the chart has it now, of the category the row shows (lines.ts). */
export type TransactionRow = Pick<TransactionRecord, (typeof READ)[number]> & { category: string | null };
/** The columns of a TransactionRow, of `transactions` (or of it under an alias, when a query joins). */
export const transactionColumns = (alias?: string): string =>
  `${columns<TransactionRecord>(READ, alias)}, (SELECT c.name FROM categories c WHERE c.seq = ${alias ? `${alias}.` : ''}category_seq) AS category`;
export const TRANSACTION_COLUMNS = transactionColumns();

const PAGE_COLUMNS = transactionColumns('t');

export function toTransaction(r: TransactionRow): Transaction {
  return {
    id: r.id,
    date: r.date,
    amount: fromMinor(r.amount_minor, r.currency),
    currency: r.currency,
    description: r.description,
    category: r.category,
    status: r.status,
    source: r.source,
    externalId: r.external_id,
    suggestedBy: r.suggested_by,
    confidence: r.confidence,
    reason: r.reason,
  };
}

/** Page order: date descending, then seq descending (the stable tiebreak). */
const newestFirst = (a: TransactionRow, b: TransactionRow): number => (a.date === b.date ? b.seq - a.seq : a.date < b.date ? 1 : -1);

export interface TransactionQuery {
  /** The desk's register: one account's rows (no API parameter names an account). */
  accountSeq?: number;
  status?: TransactionStatus;
  source?: TransactionSource;
  date?: string;
  dateFrom?: string;
  dateTo?: string;
  category?: string;
  description?: string;
  limit: number;
  offset: number;
}

export interface TransactionPage {
  data: Transaction[];
  meta: { totalCount: number; limit: number; offset: number };
}

/** An FTS5 phrase: with the trigram tokenizer it matches exactly the substrings (case-folded). */
const ftsPhrase = (needle: string): string => `"${needle.replaceAll('"', '""')}"`;
const likePattern = (needle: string): string => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * transactions_fts is keyed by org_seq << 48 | day << 32 | seq (migration 0002),
 * day = days since 1900-01-01 clamped to 0..65535: key order is page order.
 */
export const ORDER_KEY_SQL = '(org_seq << 48) | (min(max(CAST(julianday(date) AS INTEGER) - 2415020, 0), 65535) << 32) | seq';
const DAYS_1900_TO_1970 = 25567;
const daysOf = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000) + DAYS_1900_TO_1970;
const dayOf = (date: string): bigint => BigInt(Math.min(Math.max(daysOf(date), 0), 65535));
/** Dates whose key day is exact (not clamped), so a key range selects exactly them. */
const inKeyRange = (date: string): boolean => daysOf(date) >= 0 && daysOf(date) <= 65535;
/** The key range of an organization's rows between two dates (inclusive). */
function keyRange(orgSeq: number, from: string | undefined, to: string | undefined): [bigint, bigint] {
  const org = BigInt(orgSeq) << 48n;
  return [org | ((from ? dayOf(from) : 0n) << 32n), org | ((to ? dayOf(to) : 65535n) << 32n) | 0xffffffffn];
}

export { descriptionShape } from './shape';

/**
 * totalCount of a description filter used alone, from the maintained count per
 * description shape (migration 0004): a needle without digits or '#' matches a
 * description exactly where it matches its shape. Null when the shapes cannot
 * answer (another filter, a digit in the needle); matches null when they would
 * not be cheaper: a matching shape costs about twice a matching row, so they
 * must be few (0005). With it, the organization's rows, read on the way.
 */
async function shapeCount(ledger: Ledger, orgSeq: number, q: TransactionQuery): Promise<{ matches: number | null; rows: number } | null> {
  const needle = q.description;
  const alone = [q.accountSeq, q.status, q.source, q.category, q.date, q.dateFrom, q.dateTo].every((f) => f === undefined);
  if (needle === undefined || !alone || /[0-9#]/.test(needle)) return null;
  const { shapes, rows } = (await ledger
    .stmt(
      `SELECT (SELECT coalesce(max(shapes), 0) FROM description_shape_totals WHERE org_seq = ?) AS shapes,
              (SELECT coalesce(sum(n), 0) FROM transaction_status_counts WHERE org_seq = ?) AS rows`,
    )
    .get(orgSeq, orgSeq)) as { shapes: number; rows: number };
  if (shapes * 4 > rows) return { matches: null, rows };
  const row = (
    ledger.engine === 'postgres'
      ? // pg_trgm's index on the shapes answers ILIKE for a needle of any length.
        await ledger.stmt("SELECT coalesce(sum(n), 0) AS n FROM description_shapes WHERE shape ILIKE ? ESCAPE '\\' AND org_seq = ?").get(likePattern(needle), orgSeq)
      : [...needle].length >= 3
        ? await ledger
            .stmt(
              'SELECT coalesce(sum(s.n), 0) AS n FROM description_shapes_fts f JOIN description_shapes s ON s.seq = f.rowid WHERE f.description_shapes_fts MATCH ? AND s.org_seq = ?',
            )
            .get(ftsPhrase(needle), orgSeq)
        : await ledger.stmt("SELECT coalesce(sum(n), 0) AS n FROM description_shapes WHERE shape LIKE ? ESCAPE '\\' AND org_seq = ?").get(likePattern(needle), orgSeq)
  ) as { n: number };
  return { matches: row.n, rows };
}

/** Builds the WHERE clause once, for the rows and for whichever table counts them. */
function filters(ledger: Ledger, orgSeq: number, q: TransactionQuery) {
  const where = ['org_seq = ?'];
  const params: unknown[] = [orgSeq];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (q.accountSeq !== undefined) add('account_seq = ?', q.accountSeq);
  if (q.status) add('status = ?', q.status);
  if (q.source) add('source = ?', q.source);
  if (q.date) add('date = ?', q.date);
  if (q.dateFrom) add('date >= ?', q.dateFrom);
  if (q.dateTo) add('date <= ?', q.dateTo);
  const aggregatesAnswer = q.category === undefined && q.description === undefined;
  const dated = q.date !== undefined || q.dateFrom !== undefined || q.dateTo !== undefined;
  // The category a row shows (a split: its largest line's); every line of a category is the general ledger's.
  if (q.category === UNCATEGORIZED) add("status = 'uncategorized'");
  else if (q.category !== undefined) add('category_seq = (SELECT seq FROM categories WHERE org_seq = ? AND name = ?)', orgSeq, q.category);
  // SQLite: trigrams need three characters, shorter needles use LIKE (ASCII case folding). PostgreSQL: ILIKE on
  // pg_trgm's index, any length.
  // PostgreSQL also keeps the same filter as the walk reads it (walksDescription): the page decides which.
  let walk: { clause: string; params: unknown[] } | null = null;
  if (q.description !== undefined && ledger.engine === 'postgres') {
    walk = { clause: [...where, 'strpos(lower(description), lower(?)) > 0'].join(' AND '), params: [...params, q.description] };
    add("description ILIKE ? ESCAPE '\\'", likePattern(q.description));
  } else if (q.description !== undefined && [...q.description].length < 3) add("description LIKE ? ESCAPE '\\'", likePattern(q.description));
  // Maintained counts answer totalCount unless a category or description filter is set
  // (per account: the account's day totals, which know no source).
  const perAccount = q.accountSeq !== undefined;
  const countTable = !aggregatesAnswer || (perAccount && q.source) ? null : perAccount ? 'account_day_totals' : dated ? 'transaction_day_counts' : 'transaction_status_counts';
  // SQLite reads an account's day totals by account (their walk index); PostgreSQL by organization first, their key.
  const byAccount = perAccount && countTable && ledger.engine === 'sqlite';
  const count = byAccount ? { clause: where.slice(1).join(' AND '), params: params.slice(1) } : { clause: where.join(' AND '), params };
  return { clause: where.join(' AND '), params, countTable, count, walk };
}

/**
 * PostgreSQL, a description filter: whether the page walks the organization's date index newest first, testing each
 * row, instead of finding every match with pg_trgm's index and sorting them. Decided here from the matches counted
 * (known before the page), not by the planner: its estimate of `ILIKE '%needle%'` is no guide (issue 51: "figma", 3,182
 * matches in 50,000 rows, estimated 80, was sorted whole in 35 ms where the walk reads 823 rows in 0.7 ms). The walk
 * reads about (offset + limit) x rows / matches rows: taken while that is no more than the matches. Its filter,
 * `strpos(lower(description), lower(?)) > 0`, is ILIKE's substring test (both fold case with lower()) in a form the
 * trigram index does not serve and the planner takes as unselective, so any plan, custom or generic, walks.
 */
const walksDescription = (matches: number, rows: number, q: TransactionQuery): boolean => matches > 0 && (q.offset + q.limit) * rows <= matches * matches;

/** The rows a filter matches, and the organization's rows: one statement. */
const countMatches = async (ledger: Ledger, orgSeq: number, clause: string, params: unknown[]): Promise<{ n: number; rows: number }> =>
  (await ledger
    .stmt(`SELECT count(*) AS n, (SELECT coalesce(sum(n), 0) FROM transaction_status_counts WHERE org_seq = ?) AS rows FROM transactions WHERE ${clause}`)
    .get(orgSeq, ...params)) as { n: number; rows: number };

/** A register page's days, newest first, from the maintained counts. */
const registerDays = (ledger: Ledger, table: string, count: { clause: string; params: unknown[] }) => dayWalk(ledger, table, count.clause, count.params, 'DESC');

export const listTransactions = consistent(async function listTransactions(ledger: Ledger, orgSeq: number, q: TransactionQuery): Promise<TransactionPage> {
  const { clause, params, countTable, count, walk } = filters(ledger, orgSeq, q);
  // The page's rows are put in order here: an ORDER BY over the join would sort
  // them in a temporary B-tree, a fifth of the page's read.
  const page = async (sql: string, ...values: unknown[]) =>
    (await ledger.rows<TransactionRow>(`SELECT ${PAGE_COLUMNS} FROM (${sql}) AS page JOIN transactions t ON t.seq = page.seq`, ...values)).sort(newestFirst);
  let rows: TransactionRow[];
  const counted = await shapeCount(ledger, orgSeq, q);
  const shaped = counted?.matches ?? null;
  let n: number;
  if (walk) {
    // PostgreSQL, a description filter: the matches counted first, so that the page's way is chosen (walksDescription).
    const found = shaped === null ? await countMatches(ledger, orgSeq, clause, params) : { n: shaped, rows: counted!.rows };
    n = found.n;
    // The walk's limit is written in (a whole number): a plan for any limit guesses a tenth of 16,667 rows and joins them by hashing.
    if (!Number.isSafeInteger(q.limit)) throw new RangeError(`not a limit: ${q.limit}`);
    const [by, limit] = walksDescription(n, found.rows, q) ? [walk, String(q.limit)] : [{ clause, params }, '?'];
    const values = limit === '?' ? [q.limit, q.offset] : [q.offset];
    rows = q.offset >= n ? [] : await page(`SELECT seq FROM transactions WHERE ${by.clause} ORDER BY date DESC, seq DESC LIMIT ${limit} OFFSET ?`, ...by.params, ...values);
  } else if (q.description !== undefined && [...q.description].length >= 3 && ledger.engine === 'sqlite') {
    // Newest matches first, straight from the full-text index in key order; the
    // other filters are checked row by row as the index yields them.
    // Organization and dates are the key range; other filters (or dates the key
    // clamps) need the row itself.
    const [lo, hi] = keyRange(orgSeq, q.date ?? q.dateFrom, q.date ?? q.dateTo);
    const rowFilters =
      q.accountSeq !== undefined || q.status || q.source || q.category !== undefined || [q.date, q.dateFrom, q.dateTo].some((d) => d !== undefined && !inKeyRange(d));
    const join = rowFilters ? `JOIN transactions ON seq = f.rowid & 4294967295 AND ${clause}` : '';
    const from = `transactions_fts f ${join} WHERE f.transactions_fts MATCH ? AND f.rowid BETWEEN ? AND ?`;
    const values = [...(rowFilters ? params : []), ftsPhrase(q.description), lo, hi];
    rows = await page(`SELECT f.rowid & 4294967295 AS seq FROM ${from} ORDER BY f.rowid DESC LIMIT ? OFFSET ?`, ...values, q.limit, q.offset);
    n = shaped ?? ((await ledger.stmt(`SELECT count(*) AS n FROM ${from}`).get(...values)) as { n: number }).n;
  } else {
    // Deferred join: page over the covering index first, then read 'limit' rows.
    // A deep page starts at the day the maintained counts say, not after skipping every row before it.
    const dayTable = countTable === 'transaction_status_counts' ? 'transaction_day_counts' : countTable;
    const start = dayTable ? await deepPageStart(q.offset, () => registerDays(ledger, dayTable, count)) : null;
    const before = start ? ' AND date <= ?' : '';
    rows = await page(
      `SELECT seq FROM transactions WHERE ${clause}${before} ORDER BY date DESC, seq DESC LIMIT ? OFFSET ?`,
      ...params,
      ...(start ? [start.date] : []),
      q.limit,
      start?.skip ?? q.offset,
    );
    const countSql = countTable ? `SELECT coalesce(sum(n), 0) AS n FROM ${countTable} WHERE ${count.clause}` : `SELECT count(*) AS n FROM transactions WHERE ${clause}`;
    n = shaped ?? ((await ledger.stmt(countSql).get(...(countTable ? count.params : params))) as { n: number }).n;
  }
  return { data: rows.map(toTransaction), meta: { totalCount: n, limit: q.limit, offset: q.offset } };
});

export async function findTransactionRow(ledger: Ledger, orgSeq: number, id: string): Promise<TransactionRow | undefined> {
  return (await ledger.rows<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ? AND org_seq = ?`, id, orgSeq))[0];
}

export async function requireTransactionRow(ledger: Ledger, orgSeq: number, id: string): Promise<TransactionRow> {
  const row = await findTransactionRow(ledger, orgSeq, id);
  if (!row) throw notFound('transaction', id);
  return row;
}

/** One line for summaries and messages: "description" date amount currency. */
export const describeTransaction = (t: TransactionRow): string => `"${excerpt(t.description, 60)}" ${t.date} ${fromMinor(t.amount_minor, t.currency).toFixed(2)} ${t.currency}`;
