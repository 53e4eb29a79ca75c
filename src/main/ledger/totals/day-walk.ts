// Where a deep page starts: walked over the maintained counts per day, in the
// page's order (a few thousand rows for years of books), instead of skipping
// every row before the page. SQLite walks its cursor and stops at the page's
// day; PostgreSQL's driver reads a result whole (a cursor would hold a
// connection per walk), so there the days come in chunks, each asked for after
// the last day of the one before, sized by what the page still has to pass.
import type { Ledger } from '../core/sqlite/open';
import type { InCurrency } from './sums';

/** Counts per day in a walk's order, [date, n], a chunk at a time; `wanted`: how many rows its reader has yet to pass. */
export interface DayWalk {
  chunks(wanted: () => number): AsyncIterable<[string, number][]>;
}

/** From this offset on, a page looks up its first day in the maintained counts per day. */
const DEEP_OFFSET = 1000;
/** PostgreSQL: the days asked for first; later chunks are sized by the rows per day seen, to powers of two (few statement texts). */
const FIRST_DAYS = 64;
const MOST_DAYS = 1 << 16;

/**
 * `SELECT date, sum(n) FROM <table> WHERE <where> GROUP BY date`, walked in date order (`order`). On PostgreSQL
 * each chunk is LIMITed (the planner then walks the table's index in order and stops), and the next starts
 * after the last day read: what the page needs, a quarter more, at the rows per day read so far.
 */
export function dayWalk(ledger: Ledger, table: string, where: string, params: unknown[], order: 'ASC' | 'DESC'): DayWalk {
  const grouped = (after: string) => `SELECT date, sum(n) FROM ${table} WHERE ${where}${after} GROUP BY date ORDER BY date ${order}`;
  if (ledger.engine === 'sqlite') return { chunks: () => ledger.stmt(grouped('')).iterateRaw(...params) as AsyncIterable<[string, number][]> };
  return {
    async *chunks(wanted) {
      let after: string | null = null;
      let days = 0;
      let rows = 0;
      for (let limit = FIRST_DAYS; ;) {
        const sql = `${grouped(after === null ? '' : ` AND date ${order === 'ASC' ? '>' : '<'} ?`)} LIMIT ${limit}`;
        const chunk: [string, number][] = [];
        for await (const part of ledger.stmt(sql).iterateRaw(...params, ...(after === null ? [] : [after]))) chunk.push(...(part as [string, number][]));
        yield chunk;
        if (chunk.length < limit) return;
        days += chunk.length;
        rows += chunk.reduce((a, [, n]) => a + n, 0);
        after = chunk[chunk.length - 1][0];
        const need = rows > 0 ? Math.ceil((wanted() * days * 1.25) / rows) + 1 : MOST_DAYS;
        limit = Math.min(MOST_DAYS, Math.max(FIRST_DAYS, 2 ** Math.ceil(Math.log2(need))));
      }
    },
  };
}

/**
 * The day a page at `offset` starts on, and how many of that day's rows (in page order) come before it. Past
 * the end: the last day, skipping more than it holds (an empty page, found at once). Null when there is no day.
 */
async function pageStart(walk: DayWalk, offset: number): Promise<{ date: string; skip: number } | null> {
  let seen = 0;
  let last: { date: string; skip: number } | null = null;
  for await (const chunk of walk.chunks(() => offset - seen)) {
    for (const [date, n] of chunk) {
      if (seen + n > offset) return { date, skip: offset - seen };
      last = { date, skip: offset - seen };
      seen += n;
    }
  }
  return last;
}

/** Where a page at `offset` starts when it is deep enough for the walk to pay; else null (the plain query skips). */
export const deepPageStart = async (offset: number, walk: () => DayWalk) => (offset >= DEEP_OFFSET ? await pageStart(walk(), offset) : null);

/**
 * An account's rows per day over [from, to]. PostgreSQL: by organization too, the key's first column (the account's
 * own walk index holds no organization, so row-level security would read every row of it); SQLite: the walk index.
 */
export const accountDays = (ledger: Ledger, orgSeq: number, accountSeq: number, from: string, to: string): DayWalk =>
  ledger.engine === 'postgres'
    ? dayWalk(ledger, 'account_day_totals', 'org_seq = ? AND account_seq = ? AND date BETWEEN ? AND ?', [orgSeq, accountSeq, from, to], 'ASC')
    : dayWalk(ledger, 'account_day_totals', 'account_seq = ? AND date BETWEEN ? AND ?', [accountSeq, from, to], 'ASC');

/** An organization's lines (and documents' postings) of one kind and category per day over [from, to], in a currency or (null) in every one. */
export const lineDays = (ledger: Ledger, orgSeq: number, currency: InCurrency, kind: string, categorySeq: number, from: string, to: string): DayWalk =>
  dayWalk(
    ledger,
    'line_day_totals',
    `org_seq = ?${currency === null ? '' : ' AND currency = ?'} AND kind = ? AND category_seq = ? AND date BETWEEN ? AND ?`,
    [...(currency === null ? [orgSeq] : [orgSeq, currency]), kind, categorySeq, from, to],
    'ASC',
  );
