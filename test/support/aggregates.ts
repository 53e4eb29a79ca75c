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
import { rawAll } from './sql';

export async function expectTotalsMatchRows(ledger: Ledger): Promise<void> {
  const off = await ledger.stmt(`SELECT id, status, ${STATUS_SQL} AS view FROM transactions WHERE status IS DISTINCT FROM ${STATUS_SQL} LIMIT 5`).all();
  expect(off, 'rows whose status is not the view of their facts').toEqual([]);
  const unbalanced = await ledger
    .stmt(
      `SELECT t.id, t.amount_minor, coalesce(sum(l.amount_minor), 0) AS lines, count(l.position) AS n FROM transactions t LEFT JOIN lines l ON l.transaction_seq = t.seq
       GROUP BY t.seq, t.id, t.amount_minor, t.date, t.org_seq, t.currency, t.base_minor
       HAVING count(l.position) = 0 OR max(l.date) <> t.date OR min(l.date) <> t.date OR max(l.org_seq) <> t.org_seq
         OR (CASE WHEN max(l.currency) = t.currency AND min(l.currency) = t.currency THEN t.amount_minor + coalesce(sum(l.amount_minor), 0) <> 0
           ELSE t.base_minor + sum(l.base_minor) <> 0
             OR sum(CASE WHEN l.currency <> t.currency AND (l.kind NOT IN ('receivable', 'payable') OR l.settles_seq IS NULL) THEN 1 ELSE 0 END) > 0 END) LIMIT 5`,
    )
    .all();
  expect(unbalanced, 'entries whose lines do not balance their row').toEqual([]);
  const shown = await ledger
    .stmt(
      `SELECT id, category_seq, largest FROM (
         SELECT t.id, t.category_seq, (SELECT l.category_seq FROM lines l WHERE l.org_seq = t.org_seq AND l.transaction_seq = t.seq AND l.kind = 'category' ORDER BY abs(l.amount_minor) DESC, l.position LIMIT 1) AS largest
         FROM transactions t) AS sub
       WHERE category_seq IS DISTINCT FROM largest LIMIT 5`,
    )
    .all();
  expect(shown, 'rows not showing their largest category line').toEqual([]);
  const oneSided = await ledger
    .stmt(
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
    const stored = await rawAll(ledger, `SELECT ${[...t.key.map((k) => k.column), ...t.measures].join(', ')} FROM ${t.table}`);
    const recounted = await rawAll(ledger, recountSql(t));
    expect(kept(stored), t.table).toEqual(kept(recounted));
  }
}
