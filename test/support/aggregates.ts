// Every declared total (src/main/ledger/totals/declared.ts), recounted from
// its source's rows: after any mix of bulk loads, triggers and undo they must
// agree (keys that went back to zero may stay behind as zero rows). And every
// row is a balanced entry (its amount and its lines' sum to zero, the lines
// dated and in the currency of the row; a line paying a document in its own
// currency balances it in the base currency, issue 43), shows its largest category line's
// category, and has the status that is the view of its facts; every matched
// transfer's other side points back at it.
import { expect } from 'vitest';
import type { Ledger } from '../../src/main/ledger';
import { recountSql, TOTALS } from '../../src/main/ledger/totals/declared';
import { STATUS_SQL } from '../../src/main/ledger/transactions/status';

export function expectTotalsMatchRows(ledger: Ledger): void {
  const off = ledger.sqlite.prepare(`SELECT id, status, ${STATUS_SQL} AS view FROM transactions WHERE status IS NOT ${STATUS_SQL} LIMIT 5`).all();
  expect(off, 'rows whose status is not the view of their facts').toEqual([]);
  const unbalanced = ledger.sqlite
    .prepare(
      `SELECT t.id, t.amount_minor, coalesce(sum(l.amount_minor), 0) AS lines, count(l.position) AS n FROM transactions t LEFT JOIN lines l ON l.transaction_seq = t.seq
       GROUP BY t.seq HAVING n = 0 OR max(l.date) <> t.date OR min(l.date) <> t.date OR max(l.org_seq) <> t.org_seq
         OR (CASE WHEN max(l.currency) = t.currency AND min(l.currency) = t.currency THEN t.amount_minor + lines <> 0
           ELSE t.base_minor + sum(l.base_minor) <> 0 OR sum(l.currency <> t.currency AND (l.kind NOT IN ('receivable', 'payable') OR l.settles_seq IS NULL)) > 0 END) LIMIT 5`,
    )
    .all();
  expect(unbalanced, 'entries whose lines do not balance their row').toEqual([]);
  const shown = ledger.sqlite
    .prepare(
      `SELECT t.id, t.category_seq, (SELECT l.category_seq FROM lines l WHERE l.transaction_seq = t.seq AND l.kind = 'category' ORDER BY abs(l.amount_minor) DESC, l.position LIMIT 1) AS largest
       FROM transactions t WHERE t.category_seq IS NOT largest LIMIT 5`,
    )
    .all();
  expect(shown, 'rows not showing their largest category line').toEqual([]);
  const oneSided = ledger.sqlite
    .prepare(
      `SELECT a.transaction_seq FROM lines a LEFT JOIN lines b ON b.transaction_seq = a.counterpart_seq AND b.counterpart_seq = a.transaction_seq
       WHERE a.counterpart_seq IS NOT NULL AND b.transaction_seq IS NULL LIMIT 5`,
    )
    .all();
  expect(oneSided, 'matched transfers whose other side does not point back').toEqual([]);
  for (const t of TOTALS) {
    const width = t.measures.length;
    const kept = (rows: unknown[][]) =>
      rows
        .filter((r) => r.slice(-width).some((v) => v !== 0))
        .map(String)
        .sort();
    const stored = ledger.sqlite
      .prepare(`SELECT ${[...t.key.map((k) => k.column), ...t.measures].join(', ')} FROM ${t.table}`)
      .raw(true)
      .all() as unknown[][];
    const recounted = ledger.sqlite.prepare(recountSql(t)).raw(true).all() as unknown[][];
    expect(kept(stored), t.table).toEqual(kept(recounted));
  }
}
