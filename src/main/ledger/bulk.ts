// Bulk loading (demo data, imports) and bulk deletes (an undone import): per-row
// triggers cost ~13x more than maintaining the aggregates once for the batch.
// Inside the caller's write transaction the row triggers are lifted, the rows
// written, the aggregates brought up to date (counted in JS as the rows go in:
// no second pass over them) and the full-text index filled set-wise; then the
// triggers are restored from their own stored SQL. Other connections see the
// rows, their aggregates and the triggers together or not at all.
import type { Ledger } from './db';
import { descriptionShape, ORDER_KEY_SQL } from './transactions';

/** What the aggregates need of each transaction written in bulk. */
export interface BulkRow {
  orgSeq: number;
  accountSeq: number;
  date: string;
  status: string;
  source: string;
  currency: string;
  amountMinor: number;
  description: string;
  category: string | null;
}

/** Counts a row and adds its amount to the group's [n, sum]. */
function tally(map: Map<string, [number, number]>, key: string, amountMinor: number): void {
  const t = map.get(key) ?? map.set(key, [0, 0]).get(key)!;
  t[0]++;
  t[1] += amountMinor;
}

class Aggregates {
  private readonly days = new Map<string, number>();
  private readonly statuses = new Map<string, number>();
  private readonly months = new Map<string, [number, number]>();
  private readonly accountDays = new Map<string, [number, number]>();
  private readonly shapes = new Map<string, number>();
  private readonly categoryDays = new Map<string, [number, number]>();
  private readonly categoryMonths = new Map<string, [number, number]>();
  private readonly accountMonths = new Map<string, [number, number]>();

  constructor(private readonly sign: 1 | -1) {}

  add(r: BulkRow): void {
    const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    bump(this.days, `${r.orgSeq}\u0000${r.date}\u0000${r.status}\u0000${r.source}`);
    bump(this.statuses, `${r.orgSeq}\u0000${r.status}\u0000${r.source}`);
    bump(this.shapes, `${r.orgSeq}\u0000${descriptionShape(r.description)}`);
    const month = `${r.orgSeq}\u0000${r.date.slice(0, 7)}\u0000${r.currency}`;
    const m = this.months.get(month) ?? this.months.set(month, [0, 0]).get(month)!;
    if (r.amountMinor > 0) m[0] += r.amountMinor;
    else m[1] -= r.amountMinor;
    const category = r.category ?? '';
    tally(this.categoryDays, `${r.orgSeq}\u0000${r.currency}\u0000${r.date}\u0000${category}`, r.amountMinor);
    tally(this.categoryMonths, `${r.orgSeq}\u0000${r.currency}\u0000${r.date.slice(0, 7)}\u0000${category}`, r.amountMinor);
    tally(this.accountDays, `${r.accountSeq}\u0000${r.date}\u0000${r.status}`, r.amountMinor);
    tally(this.accountMonths, `${r.accountSeq}\u0000${r.date.slice(0, 7)}\u0000${r.status}`, r.amountMinor);
  }

  /** Adds (or, for a delete, takes away) the counted totals, one upsert per group. */
  flush(ledger: Ledger): void {
    const s = this.sign;
    const run = (sql: string, entries: Iterable<[string, unknown]>, values: (key: string[], v: any) => unknown[]) => {
      const stmt = ledger.sqlite.prepare(sql);
      for (const [key, v] of entries) stmt.run(...values(key.split('\u0000'), v));
    };
    run(
      `INSERT INTO transaction_day_counts (org_seq, date, status, source, n) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + excluded.n`,
      this.days,
      ([org, date, status, source], n: number) => [Number(org), date, status, source, s * n],
    );
    run(
      `INSERT INTO transaction_status_counts (org_seq, status, source, n) VALUES (?, ?, ?, ?)
       ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + excluded.n`,
      this.statuses,
      ([org, status, source], n: number) => [Number(org), status, source, s * n],
    );
    run(
      `INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_seq, currency, month) DO UPDATE SET
         inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor`,
      this.months,
      ([org, month, currency], [inflow, outflow]: [number, number]) => [Number(org), month, currency, s * inflow, s * outflow],
    );
    const sums = ([a, b]: [number, number]) => [s * a, s * b];
    for (const [table, unit] of [['account_day_totals', 'date'], ['account_month_totals', 'month']] as const) {
      run(
        `INSERT INTO ${table} (account_seq, ${unit}, status, n, sum_minor) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (account_seq, ${unit}, status) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor`,
        unit === 'date' ? this.accountDays : this.accountMonths,
        ([account, when, status], t: [number, number]) => [Number(account), when, status, ...sums(t)],
      );
    }
    for (const [table, unit] of [['category_day_totals', 'date'], ['category_month_totals', 'month']] as const) {
      run(
        `INSERT INTO ${table} (org_seq, currency, ${unit}, category, n, sum_minor) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_seq, currency, ${unit}, category) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor`,
        unit === 'date' ? this.categoryDays : this.categoryMonths,
        ([org, currency, when, category], t: [number, number]) => [Number(org), currency, when, category, ...sums(t)],
      );
    }
    run(
      'INSERT INTO description_shapes (org_seq, shape, n) VALUES (?, ?, ?) ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + excluded.n',
      this.shapes,
      ([org, shape], n: number) => [Number(org), shape, s * n],
    );
  }
}

/** Runs fn with the named triggers of a table lifted, restoring them after (also when fn throws: the caller's rollback undoes all). */
function withoutTriggers<T>(ledger: Ledger, table: string, suffix: string, fn: () => T): T {
  const triggers = ledger.sqlite
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name LIKE ?`)
    .all(table, `%${suffix}`) as { name: string; sql: string }[];
  for (const t of triggers) ledger.sqlite.exec(`DROP TRIGGER ${t.name}`);
  try {
    return fn();
  } finally {
    for (const t of triggers) ledger.sqlite.exec(t.sql);
  }
}

const maxSeq = (ledger: Ledger, table: string) => (ledger.sqlite.prepare(`SELECT coalesce(max(seq), 0) AS s FROM ${table}`).get() as { s: number }).s;

export function bulkInsert(ledger: Ledger, fn: (track: (row: BulkRow) => void) => void): void {
  ledger.write(() => insertInBulk(ledger, fn));
}

/**
 * Inserts in bulk inside a write transaction the caller holds. fn writes the
 * rows and calls track(row) for each transaction it writes.
 */
export function insertInBulk(ledger: Ledger, fn: (track: (row: BulkRow) => void) => void): void {
  const txSince = maxSeq(ledger, 'transactions');
  const receiptSince = maxSeq(ledger, 'receipts');
  withoutTriggers(ledger, 'receipts', '_ai', () =>
    withoutTriggers(ledger, 'transactions', '_ai', () => {
      const totals = new Aggregates(1);
      fn((row) => totals.add(row));
      totals.flush(ledger);
      // The full-text index takes the batch in big segments and merges them later, a little
      // with each write (automerge): half the time of merging them now; pages still answer in < 1 ms.
      ledger.sqlite.exec("INSERT INTO transactions_fts (transactions_fts, rank) VALUES ('hashsize', 67108864)");
      ledger.sqlite.exec("INSERT INTO transactions_fts (transactions_fts, rank) VALUES ('automerge', 0)");
      ledger.sqlite.prepare(`INSERT INTO transactions_fts (rowid, description) SELECT ${ORDER_KEY_SQL}, description FROM transactions WHERE seq > ?`).run(txSince);
      ledger.sqlite.exec("INSERT INTO transactions_fts (transactions_fts, rank) VALUES ('automerge', 4)");
      ledger.sqlite.exec("INSERT INTO transactions_fts (transactions_fts, rank) VALUES ('hashsize', 1048576)");
      ledger.sqlite.prepare('INSERT INTO receipts_fts (rowid, file_name, ocr_text) SELECT seq, file_name, ocr_text FROM receipts WHERE seq > ?').run(receiptSince);
    }),
  );
}

/**
 * Deletes many transactions (an undone import) the same way, in the caller's
 * write transaction. `where` selects the rows from `transactions`.
 */
export function deleteInBulk(ledger: Ledger, where: string, ...params: unknown[]): number {
  return withoutTriggers(ledger, 'transactions', '_ad', () => {
    const totals = new Aggregates(-1);
    const rows = ledger.sqlite
      .prepare(`SELECT org_seq, account_seq, date, status, source, currency, amount_minor, description, category FROM transactions WHERE ${where}`)
      .raw(true)
      .iterate(...params) as Iterable<[number, number, string, string, string, string, number, string, string | null]>;
    for (const [orgSeq, accountSeq, date, status, source, currency, amountMinor, description, category] of rows) {
      totals.add({ orgSeq, accountSeq, date, status, source, currency, amountMinor, description, category });
    }
    totals.flush(ledger);
    ledger.sqlite.prepare(`DELETE FROM transactions_fts WHERE rowid IN (SELECT ${ORDER_KEY_SQL} FROM transactions WHERE ${where})`).run(...params);
    return ledger.sqlite.prepare(`DELETE FROM transactions WHERE ${where}`).run(...params).changes;
  });
}
