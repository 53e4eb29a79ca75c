// The books the PostgreSQL benchmark reads and imports into: the same demo
// (fillDemo, BENCH_SHAPE: a fifth of the rows split, one in twenty a side of a
// transfer) on both engines. PostgreSQL: database bench_db of the bench's
// cluster, organization "bench", loaded as the server would write it (the
// RLS-bound role, inside forOrg), then VACUUM ANALYZE (what autovacuum would do
// after a while: the planner's statistics, and the visibility map that lets an
// index-only scan skip the table). Rebuilt when it holds another size, or was
// migrated by other migrations than this build's (a changed schema). SQLite:
// the reports benchmark's folder (bench/.data-books), made the same way if missing.
import { createOrganization, findOrganization, openLedger, type Ledger } from '../src/main/ledger';
import { openPostgres, postgresMigrations } from '../src/main/ledger/core/postgres/open';
import { ledgerFile } from '../src/main/paths';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';
import type { BenchCluster } from './postgres-cluster';

export const BOOKS_DB = 'bench_db';

/** Why bench_db must be (re)built, or null when it holds n transactions migrated by this build. */
function staleBecause(cluster: BenchCluster, n: number): string | null {
  if (!cluster.psql('postgres', `SELECT 1 FROM pg_database WHERE datname = '${BOOKS_DB}'`)) return 'not built yet';
  let applied: string;
  try {
    applied = cluster.psql(BOOKS_DB, "SELECT string_agg(name || ' ' || hash, ',' ORDER BY name) FROM ledgerdesk_migrations");
  } catch {
    return 'never migrated (a build that did not finish)';
  }
  const known = postgresMigrations()
    .map((m) => `${m.name} ${m.hash}`)
    .join(',');
  if (applied !== known) return 'migrated by another schema than this build’s';
  const held = Number(
    cluster.psql(BOOKS_DB, "SELECT coalesce(sum(c.n), -1) FROM transaction_status_counts c JOIN organizations o ON o.seq = c.org_seq WHERE o.slug = 'bench'") || -1,
  );
  return held === n ? null : `holds ${held < 0 ? 'no' : held.toLocaleString('en')} transactions, not ${n.toLocaleString('en')}`;
}

export interface Built {
  /** Seconds the demo load took when this run (re)built the database, else null. */
  loadSeconds: number | null;
  vacuumSeconds: number | null;
  why: string | null;
}

/** bench_db with n demo transactions in organization "bench", built if missing or stale. */
export async function preparePostgresBooks(cluster: BenchCluster, n: number): Promise<Built> {
  const why = staleBecause(cluster, n);
  if (why === null) return { loadSeconds: null, vacuumSeconds: null, why };
  console.log(`Building ${BOOKS_DB} (${why}): ${n.toLocaleString('en')} demo transactions ...`);
  cluster.psql('postgres', `DROP DATABASE IF EXISTS ${BOOKS_DB}`);
  cluster.psql('postgres', `CREATE DATABASE ${BOOKS_DB}`);
  const ledger = await openPostgres(cluster.urlOf(BOOKS_DB));
  try {
    const started = performance.now();
    const org = await ledger.forOrg('all', () => createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd' }));
    await ledger.forOrg(org.seq, () => fillDemo(ledger, org.seq, org.slug, n, org.currency, BENCH_SHAPE));
    const loadSeconds = (performance.now() - started) / 1000;
    const vacuumStarted = performance.now();
    cluster.psql(BOOKS_DB, 'VACUUM (ANALYZE)');
    return { loadSeconds, vacuumSeconds: (performance.now() - vacuumStarted) / 1000, why };
  } finally {
    await ledger.end();
  }
}

/** The SQLite books of bench/reports.ts and bench/import.ts (or BENCH_BOOKS_DATA), made the same way if missing. */
export async function openSqliteBooks(base: string, n: number): Promise<{ ledger: Ledger; seq: number; rows: number; loadSeconds: number | null }> {
  const ledger = openLedger(ledgerFile(base));
  let org = await findOrganization(ledger, 'bench');
  let loadSeconds: number | null = null;
  if (!org) {
    org = await createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd' });
    console.log(`Loading ${n.toLocaleString('en')} demo transactions into ${base} ...`);
    const started = performance.now();
    await fillDemo(ledger, org.seq, org.slug, n, org.currency, BENCH_SHAPE);
    loadSeconds = (performance.now() - started) / 1000;
  }
  const rows = (ledger.sqlite.prepare('SELECT coalesce(sum(n), 0) AS n FROM transaction_status_counts WHERE org_seq = ?').get(org.seq) as { n: number }).n;
  return { ledger, seq: org.seq, rows, loadSeconds };
}
