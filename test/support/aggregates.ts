// Every maintained total, recounted from the transactions themselves: after
// any mix of bulk loads, triggers and undo they must agree (groups that went
// back to zero may stay behind as zero rows).
import { expect } from 'vitest';
import type { Ledger } from '../../src/main/ledger';
import { STATUS_SQL } from '../../src/main/ledger/transactions/status';

const TOTALS: { table: string; keys: string; values: string; recount: string; from?: string }[] = [
  { table: 'transaction_day_counts', keys: 'org_seq, date, status, source', values: 'n', recount: 'count(*)' },
  { table: 'transaction_status_counts', keys: 'org_seq, status, source', values: 'n', recount: 'count(*)' },
  { table: 'proposal_status_counts', keys: 'org_seq, status', values: 'n', recount: 'count(*)', from: 'proposals' },
  {
    table: 'transaction_month_totals',
    keys: 'org_seq, substr(date, 1, 7), currency',
    values: 'inflow_minor, outflow_minor',
    recount: 'sum(max(amount_minor, 0)), -sum(min(amount_minor, 0))',
  },
  { table: 'account_day_totals', keys: 'account_seq, date, status, reconciled', values: 'n, sum_minor', recount: 'count(*), sum(amount_minor)' },
  { table: 'account_month_totals', keys: 'account_seq, substr(date, 1, 7), status, reconciled', values: 'n, sum_minor', recount: 'count(*), sum(amount_minor)' },
  { table: 'category_day_totals', keys: "org_seq, currency, date, coalesce(category, '')", values: 'n, sum_minor', recount: 'count(*), sum(amount_minor)' },
  { table: 'category_month_totals', keys: "org_seq, currency, substr(date, 1, 7), coalesce(category, '')", values: 'n, sum_minor', recount: 'count(*), sum(amount_minor)' },
];

/** The stored key columns of a table: the recount's expressions with the table's own column names. */
const storedKeys = (keys: string) => keys.replace('substr(date, 1, 7)', 'month').replace("coalesce(category, '')", 'category');

export function expectTotalsMatchRows(ledger: Ledger): void {
  // The stored status is the view of each row's facts (status.ts).
  const off = ledger.sqlite.prepare(`SELECT id, status, ${STATUS_SQL} AS view FROM transactions WHERE status IS NOT ${STATUS_SQL} LIMIT 5`).all();
  expect(off, 'rows whose status is not the view of their facts').toEqual([]);
  for (const t of TOTALS) {
    const width = t.values.split(', ').length;
    const kept = (rows: unknown[][]) => rows.filter((r) => r.slice(-width).some((v) => v !== 0)).map(String).sort();
    const stored = ledger.sqlite.prepare(`SELECT ${storedKeys(t.keys)}, ${t.values} FROM ${t.table}`).raw(true).all() as unknown[][];
    const recounted = ledger.sqlite.prepare(`SELECT ${t.keys}, ${t.recount} FROM ${t.from ?? 'transactions'} GROUP BY ${t.keys}`).raw(true).all() as unknown[][];
    expect(kept(stored), t.table).toEqual(kept(recounted));
  }
}
