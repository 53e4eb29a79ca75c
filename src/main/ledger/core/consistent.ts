// Reads whose parts must agree (a page and its count, a report's sections, a
// tax return's boxes and lines), each run in one snapshot of the books
// (ledger.snapshot: PostgreSQL's REPEATABLE READ READ ONLY; on SQLite a turn
// of its one connection), so a write committing meanwhile is in all of it or none.
import type { Ledger } from './storage';

export const consistent =
  <A extends unknown[], R>(read: (ledger: Ledger, ...args: A) => Promise<R>) =>
  (ledger: Ledger, ...args: A): Promise<R> =>
    ledger.snapshot(() => read(ledger, ...args));
