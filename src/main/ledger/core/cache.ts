// A bigger page cache for a batch (a rule run, a file of invoices): its
// indexes outgrow SQLite's 2 MB default. Kept apart from sqlite/open.ts so that what
// imports it does not load the database driver (the agent commands need none).
import type { Ledger } from './sqlite/open';

/** Runs fn with SQLite's page cache at `kib` (0: as it is), then as it was: a batch over many rows touches more pages than the 2 MB default holds. */
export async function withCache<T>(ledger: Ledger, kib: number, fn: () => Promise<T>): Promise<T> {
  // PostgreSQL's cache is the server's (shared_buffers): nothing for a batch to set.
  if (kib === 0 || ledger.engine === 'postgres') return fn();
  const was = ledger.sqlite.pragma('cache_size', { simple: true }) as number;
  ledger.sqlite.pragma(`cache_size = -${kib}`);
  try {
    return await fn();
  } finally {
    ledger.sqlite.pragma(`cache_size = ${was}`);
  }
}
