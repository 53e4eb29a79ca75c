// `npm run bench:postgres` (and the last part of `npm run bench`): issue 44's
// speed targets, PostgreSQL 15 beside SQLite in the same run. Figures only:
// nothing here asserts a time.
//   1. Every list read, the dashboard, the P&L, balance sheet and trial balance
//      over 1,000,000 transactions at most 5 ms p50 on PostgreSQL too: in
//      process, through the server's role (row-level security) inside
//      forOrg, beside the same reads of the same demo books on SQLite
//      (bench/postgres-reads.ts).
//   2. A 1,000,000-row import within 3x a bare COPY of the same rows, in the
//      same run (bench/postgres-import.ts), with SQLite's import and bare insert beside it.
//   3. Agents' proposals across 8 organizations through 2 server processes:
//      at least 1,000 a second, every one audited; with 1 and 2 processes
//      (bench/postgres-proposals.ts).
// Issue 51: the reads and the 2-process proposals also through PgBouncer in
// transaction pooling (Debian's /usr/sbin/pgbouncer, started here in front of
// the cluster), each beside the direct connection's in the same run: target
// within 1.3x; beside them the bare baselines of the same run (postgres-hop.ts):
// what a round trip and a plain write load cost more through PgBouncer alone.
// The server is a cluster kept in bench/.data-pg between runs, with a server's
// durability (bench/postgres-cluster.ts), started here and stopped at the end;
// its 1,000,000-transaction database is built on the first run (or when this
// build's schema changed) and the load time printed then.
// Sizes for a small trial run (its own folders, so that the full run's books
// are not replaced): BENCH_TRANSACTIONS, BENCH_CSV_ROWS, BENCH_PROPOSAL_ROWS,
// BENCH_PROPOSAL_SECONDS, BENCH_RUNS, BENCH_PG_DATA (the cluster's folder),
// BENCH_BOOKS_DATA (the SQLite books' folder); BENCH_SQLITE_IMPORT=0 leaves
// out the SQLite import; BENCH_PARTS=reads,import,proposals (the default: all)
// runs only some parts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { findOrganization } from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { startCluster, type BenchCluster } from './postgres-cluster';
import { BOOKS_DB, openSqliteBooks, preparePostgresBooks } from './postgres-books';
import { compareReads } from './postgres-reads';
import { compareImports, peakNote, writeMerged } from './postgres-import';
import { compareProposals } from './postgres-proposals';
import { startPgBouncer, type Pooler } from '../test/support/postgres';
import { bareRoundTrip, bareWrites } from './postgres-hop';

const root = join(import.meta.dirname, '..');
const N = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const CSV_ROWS = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);
const pgFolder = resolve(root, process.env.BENCH_PG_DATA ?? join('bench', '.data-pg'));
const booksFolder = resolve(root, process.env.BENCH_BOOKS_DATA ?? join('bench', '.data-books'));
const withSqliteImport = process.env.BENCH_SQLITE_IMPORT !== '0';
const parts = new Set((process.env.BENCH_PARTS ?? 'reads,import,proposals').split(','));
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const PROPOSAL_SECONDS = Number(process.env.BENCH_PROPOSAL_SECONDS ?? 10);
const ms = (t: number) => `${t.toFixed(2)} ms`;
const en = (n: number) => n.toLocaleString('en');

let pooler: Pooler | undefined;

async function main() {
  console.log(`Starting PostgreSQL in ${pgFolder} (fsync and synchronous_commit on, shared_buffers 256MB) ...`);
  const cluster = startCluster(pgFolder);
  // Stopped however the run ends: a Ctrl-C as well (the servers it started are children, and get it too).
  const stop = () => cluster.stop();
  process.once('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    // bin/ledgerdesk.mjs rebuilds a build older than its sources on its next run: done here, so that no timed
    // import, and no two servers starting at once, pay for it.
    const version = spawnSync(process.execPath, [join(root, 'bin', 'ledgerdesk.mjs'), '--version'], { cwd: root, encoding: 'utf8' });
    if (version.status !== 0) throw new Error(`ledgerdesk --version: ${version.stderr}`);
    const built = await preparePostgresBooks(cluster, N);
    if (built.loadSeconds !== null) {
      console.log(
        `\nPostgreSQL books (re)built (${built.why}): ${en(N)} demo transactions loaded in ${built.loadSeconds.toFixed(1)} s (fillDemo as the server's role, batches of 10,000 rows), then VACUUM ANALYZE in ${built.vacuumSeconds!.toFixed(1)} s.`,
      );
    } else console.log(`PostgreSQL books: ${BOOKS_DB} already holds ${en(N)} transactions (built by an earlier run).`);

    mkdirSync(booksFolder, { recursive: true });
    // Server connections per database: two server processes' pools (10 each by default) find as many.
    pooler = startPgBouncer({ socketDir: cluster.folder, port: 5432 }, 20);
    if (parts.has('reads')) await reads(cluster, pooler);
    if (parts.has('import')) await imports(cluster);
    if (parts.has('proposals')) await proposals(cluster, pooler);
  } finally {
    pooler?.stop();
    stop();
  }
}

/** 1. The reads, PostgreSQL's (the server's role, inside forOrg) beside SQLite's, and through PgBouncer. */
async function reads(cluster: BenchCluster, bouncer: Pooler) {
  const sqlite = await openSqliteBooks(booksFolder, N);
  if (sqlite.loadSeconds !== null) console.log(`SQLite books built in ${booksFolder}: ${en(N)} demo transactions loaded in ${sqlite.loadSeconds.toFixed(1)} s.`);
  const pg = await openPostgres(cluster.urlOf(BOOKS_DB));
  const pooled = await openPostgres(bouncer.urlOf(BOOKS_DB), { pooler: 'transaction' });
  // Directly again, but run as behind the pooler (pooled.ts): what that costs without the pooler's hop.
  const asPooled = await openPostgres(cluster.urlOf(BOOKS_DB), { pooler: 'transaction' });
  try {
    const org = (await pg.forOrg('all', () => findOrganization(pg, 'bench')))!;
    const hop = await bareRoundTrip(cluster.urlOf(BOOKS_DB), bouncer.urlOf(BOOKS_DB));
    const table = await compareReads(N, { ledger: pg, seq: org.seq }, sqlite, { ledger: pooled, seq: org.seq }, { ledger: asPooled, seq: org.seq }, hop);
    console.log(
      `\nReads over ${en(N)} transactions on PostgreSQL (role ledgerdesk_app, row-level security, forOrg; directly, and through PgBouncer in transaction pooling) and ${en(sqlite.rows)} on SQLite, in process (${RUNS} runs after 50 warm-up; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores at the end):\n`,
    );
    console.log(table);
    console.log(
      `\nThe bare baseline: one unnamed statement on a plain node-postgres client takes ${ms(hop.direct)} directly and ${ms(hop.pooled)} through PgBouncer (p50, in turns), ` +
        `${(hop.pooled / hop.direct).toFixed(2)}x: PgBouncer adds ${ms(hop.extra)} to every round trip on this machine. A read's bare floor is its direct p50 plus that for each of its round trips, against its direct p50.`,
    );
  } finally {
    await pg.end();
    await pooled.end();
    await asPooled.end();
    sqlite.ledger.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    sqlite.ledger.close();
  }
}

/** 2. The import beside a bare COPY (and SQLite's beside its bare insert). */
async function imports(cluster: BenchCluster) {
  const merged = join(booksFolder, `merged-${CSV_ROWS}.csv`);
  if (!existsSync(merged)) {
    console.log(`\nWriting ${merged} ...`);
    await writeMerged(merged, CSV_ROWS);
  }
  if (withSqliteImport) {
    // The SQLite books copied for its import (made if the reads did not run), their WAL folded in first.
    const sqlite = await openSqliteBooks(booksFolder, N);
    sqlite.ledger.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    sqlite.ledger.close();
  }
  const work = join(booksFolder, 'work-postgres');
  try {
    const rows = compareImports(cluster, merged, CSV_ROWS, work, withSqliteImport ? booksFolder : null);
    console.log(
      `\nA ${en(CSV_ROWS)}-row CSV (a reference per row, dates in no order) into a new account of an organization holding ${en(N)} transactions (whole process; ${peakNote}):\n`,
    );
    console.log(`| import | wall time | peak RSS | against its baseline | rows |\n|---|---:|---:|---|---|\n${rows.join('\n')}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** 3. Agents' proposals through 1 and 2 server processes, and 2 through PgBouncer. */
async function proposals(cluster: BenchCluster, bouncer: Pooler) {
  const table = await compareProposals(cluster, bouncer);
  console.log(`\nAgents' proposals, 8 organizations, POST /api/v1/proposals/categorization through ledgerdesk serve --database (target 1,000/s, every one audited):\n`);
  console.log(table);
  const bare = bareWrites(cluster, bouncer, PROPOSAL_SECONDS);
  console.log(
    `\nThe bare baseline: pgbench's TPC-B-like transaction (scale 8, 32 clients on 2 threads, ${PROPOSAL_SECONDS} s each) runs ${en(Math.round(bare.direct))}/s directly and ${en(Math.round(bare.pooled))}/s through PgBouncer: ` +
      `${(bare.direct / bare.pooled).toFixed(2)}x, what the pooler alone costs a write load on this machine.`,
  );
}

await main().catch((error) => {
  console.error(error);
  process.exit(1);
});
