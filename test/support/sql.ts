// Tests' own reads of the books, on either engine, over the storage interface (src/main/ledger/core/storage.ts).
import type { Ledger } from '../../src/main/ledger';

/** All rows of a query as arrays of column values (better-sqlite3's `.raw().all()`). */
export async function rawAll(ledger: Ledger, sql: string, ...params: unknown[]): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const chunk of ledger.stmt(sql).iterateRaw(...params)) for (const row of chunk) rows.push(row);
  return rows;
}

/** The first row of a query as an array of column values (better-sqlite3's `.raw().get()`). */
export async function rawGet(ledger: Ledger, sql: string, ...params: unknown[]): Promise<unknown[] | undefined> {
  return (await rawAll(ledger, sql, ...params))[0];
}
