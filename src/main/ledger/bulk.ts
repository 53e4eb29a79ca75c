// Bulk loading (demo data, imports): per-row triggers cost ~13x more than
// set-based maintenance for large batches. Inside ONE write transaction the
// transaction/receipt triggers are lifted, the batch is inserted, the
// aggregates and full-text indexes are brought up to date set-wise for the new
// rows, and the triggers are restored from their own stored SQL. Other
// connections see the batch, its aggregates and the triggers together or not at all.
import type { Ledger } from './db';
import { descriptionShape, ORDER_KEY_SQL } from './transactions';

export function bulkInsert(ledger: Ledger, fn: () => void): void {
  ledger.write(() => insertInBulk(ledger, fn));
}

/** The same inside a write transaction the caller already holds (an import). */
export function insertInBulk(ledger: Ledger, fn: () => void): void {
  const triggers = ledger.sqlite
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('transactions', 'receipts') AND name LIKE '%_ai'")
    .all() as { name: string; sql: string }[];
  const since = (table: string) => (ledger.sqlite.prepare(`SELECT coalesce(max(seq), 0) AS s FROM ${table}`).get() as { s: number }).s;
  const txSince = since('transactions');
  const receiptSince = since('receipts');
  for (const t of triggers) ledger.sqlite.exec(`DROP TRIGGER ${t.name}`);
  fn();
  ledger.sqlite.prepare(
    `INSERT INTO transaction_day_counts (org_seq, date, status, source, n)
     SELECT org_seq, date, status, source, count(*) FROM transactions WHERE seq > ? GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
     ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + excluded.n`,
  ).run(txSince);
  ledger.sqlite.prepare(
    `INSERT INTO transaction_status_counts (org_seq, status, source, n)
     SELECT org_seq, status, source, count(*) FROM transactions WHERE seq > ? GROUP BY 1, 2, 3
     ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + excluded.n`,
  ).run(txSince);
  ledger.sqlite.prepare(
    `INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor)
     SELECT org_seq, substr(date, 1, 7), currency, sum(max(amount_minor, 0)), sum(max(-amount_minor, 0))
     FROM transactions WHERE seq > ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (org_seq, currency, month) DO UPDATE SET
       inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor`,
  ).run(txSince);
  ledger.sqlite.prepare(
    `INSERT INTO account_day_totals (account_seq, date, status, n, sum_minor)
     SELECT account_seq, date, status, count(*), sum(amount_minor) FROM transactions WHERE seq > ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (account_seq, date, status) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor`,
  ).run(txSince);
  addDescriptionShapes(ledger, txSince);
  ledger.sqlite.prepare(`INSERT INTO transactions_fts (rowid, description) SELECT ${ORDER_KEY_SQL}, description FROM transactions WHERE seq > ?`).run(txSince);
  ledger.sqlite.prepare('INSERT INTO receipts_fts (rowid, file_name, ocr_text) SELECT seq, file_name, ocr_text FROM receipts WHERE seq > ?').run(receiptSince);
  for (const t of triggers) ledger.sqlite.exec(t.sql);
}

/**
 * Counts the new rows per (organization, description shape) in one pass with a
 * hash map: GROUP BY would sort every new row by its shape (~1 s per million).
 */
function addDescriptionShapes(ledger: Ledger, since: number): void {
  const counts = new Map<string, { org: number; shape: string; n: number }>();
  for (const [org, description] of ledger.sqlite.prepare('SELECT org_seq, description FROM transactions WHERE seq > ?').raw(true).iterate(since) as Iterable<[number, string]>) {
    const shape = descriptionShape(description);
    const key = `${org} ${shape}`;
    const entry = counts.get(key);
    if (entry) entry.n++;
    else counts.set(key, { org, shape, n: 1 });
  }
  const upsert = ledger.sqlite.prepare(
    'INSERT INTO description_shapes (org_seq, shape, n) VALUES (?, ?, ?) ON CONFLICT (org_seq, shape) DO UPDATE SET n = n + excluded.n',
  );
  for (const { org, shape, n } of counts.values()) upsert.run(org, shape, n);
}

/**
 * Deletes many transactions (an undone import) the same way: the per-row
 * delete triggers lifted, aggregates and indexes brought down set-wise, in the
 * caller's write transaction. `where` selects the rows from `transactions`.
 */
export function deleteInBulk(ledger: Ledger, where: string, ...params: unknown[]): number {
  const triggers = ledger.sqlite
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'transactions' AND name LIKE '%_ad'")
    .all() as { name: string; sql: string }[];
  for (const t of triggers) ledger.sqlite.exec(`DROP TRIGGER ${t.name}`);
  const run = (sql: string) => ledger.sqlite.prepare(sql).run(...params);
  run(`INSERT INTO transaction_day_counts (org_seq, date, status, source, n)
       SELECT org_seq, date, status, source, -count(*) FROM transactions WHERE ${where} GROUP BY 1, 2, 3, 4
       ON CONFLICT (org_seq, date, status, source) DO UPDATE SET n = n + excluded.n`);
  run(`INSERT INTO transaction_status_counts (org_seq, status, source, n)
       SELECT org_seq, status, source, -count(*) FROM transactions WHERE ${where} GROUP BY 1, 2, 3
       ON CONFLICT (org_seq, status, source) DO UPDATE SET n = n + excluded.n`);
  run(`INSERT INTO transaction_month_totals (org_seq, month, currency, inflow_minor, outflow_minor)
       SELECT org_seq, substr(date, 1, 7), currency, -sum(max(amount_minor, 0)), -sum(max(-amount_minor, 0)) FROM transactions WHERE ${where} GROUP BY 1, 2, 3
       ON CONFLICT (org_seq, currency, month) DO UPDATE SET
         inflow_minor = inflow_minor + excluded.inflow_minor, outflow_minor = outflow_minor + excluded.outflow_minor`);
  run(`INSERT INTO account_day_totals (account_seq, date, status, n, sum_minor)
       SELECT account_seq, date, status, -count(*), -sum(amount_minor) FROM transactions WHERE ${where} GROUP BY 1, 2, 3
       ON CONFLICT (account_seq, date, status) DO UPDATE SET n = n + excluded.n, sum_minor = sum_minor + excluded.sum_minor`);
  const shapes = new Map<string, { org: number; shape: string; n: number }>();
  for (const [org, description] of ledger.sqlite.prepare(`SELECT org_seq, description FROM transactions WHERE ${where}`).raw(true).iterate(...params) as Iterable<[number, string]>) {
    const shape = descriptionShape(description);
    const entry = shapes.get(`${org} ${shape}`);
    if (entry) entry.n++;
    else shapes.set(`${org} ${shape}`, { org, shape, n: 1 });
  }
  const lower = ledger.sqlite.prepare('UPDATE description_shapes SET n = n - ? WHERE org_seq = ? AND shape = ?');
  for (const { org, shape, n } of shapes.values()) lower.run(n, org, shape);
  run(`DELETE FROM transactions_fts WHERE rowid IN (SELECT ${ORDER_KEY_SQL} FROM transactions WHERE ${where})`);
  const { changes } = run(`DELETE FROM transactions WHERE ${where}`);
  for (const t of triggers) ledger.sqlite.exec(t.sql);
  return changes;
}
