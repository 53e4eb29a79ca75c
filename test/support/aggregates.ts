// Every declared total (src/main/ledger/totals/declared.ts), recounted from
// its source's rows: after any mix of bulk loads, triggers and undo they must
// agree (keys that went back to zero may stay behind as zero rows). And every
// row's status is the view of its facts.
import { expect } from 'vitest';
import type { Ledger } from '../../src/main/ledger';
import { recountSql, TOTALS } from '../../src/main/ledger/totals/declared';
import { STATUS_SQL } from '../../src/main/ledger/transactions/status';

export function expectTotalsMatchRows(ledger: Ledger): void {
  const off = ledger.sqlite.prepare(`SELECT id, status, ${STATUS_SQL} AS view FROM transactions WHERE status IS NOT ${STATUS_SQL} LIMIT 5`).all();
  expect(off, 'rows whose status is not the view of their facts').toEqual([]);
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
