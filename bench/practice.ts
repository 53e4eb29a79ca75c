// `npm run bench:practice` (and part of `npm run bench`): issue 55's Practice
// screen, the data for every organization at once, beside the time to read one
// organization's dashboard in the same run, on SQLite and PostgreSQL. Figures
// only: nothing here asserts a time.
//   Targets: the Practice data for 200 organizations of 10,000 rows each at
//   most 50 ms p50 on SQLite and 100 ms on PostgreSQL (as a server reads it:
//   row-level security, every column read once in the scope of the
//   organizations seen, as the reader role the driver sets for that scope).
// The books are built on the first run and kept (bench/.data-practice-<orgs>x<rows>
// for SQLite, database bench_practice_<orgs>x<rows> of the bench's cluster in
// bench/.data-pg) then read again by later runs. Sizes: BENCH_PRACTICE_ORGS
// (200), BENCH_PRACTICE_ROWS (10,000); BENCH_PRACTICE_BIG=1 adds 20
// organizations of 1,000,000 rows (BENCH_PRACTICE_BIG_ORGS,
// BENCH_PRACTICE_BIG_ROWS): 20,000,000 rows, hours to load on this machine, so
// only when asked. BENCH_RUNS (50) timed runs after 5 warm-up runs;
// BENCH_ENGINES=sqlite,postgres (the default: both).
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DeskContext } from '../src/main/desk/operation';
import { deskOperations } from '../src/main/desk/operations';
import { createOrganization, dashboardSummary, deskActor, listOrganizations, openLedger, type Ledger } from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';
import { ledgerFile } from '../src/main/paths';
import { startCluster, type BenchCluster } from './postgres-cluster';
import { pairedPercentiles, timedRow } from './timing';

const root = join(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const engines = new Set((process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(','));
const en = (n: number) => n.toLocaleString('en');

interface Size {
  orgs: number;
  rows: number;
  target: { sqlite: string; postgres: string };
}

const SIZES: Size[] = [
  { orgs: Number(process.env.BENCH_PRACTICE_ORGS ?? 200), rows: Number(process.env.BENCH_PRACTICE_ROWS ?? 10_000), target: { sqlite: '≤ 50 ms', postgres: '≤ 100 ms' } },
  ...(process.env.BENCH_PRACTICE_BIG === '1'
    ? [
        {
          orgs: Number(process.env.BENCH_PRACTICE_BIG_ORGS ?? 20),
          rows: Number(process.env.BENCH_PRACTICE_BIG_ROWS ?? 1_000_000),
          target: { sqlite: '≤ 50 ms', postgres: '≤ 100 ms' },
        },
      ]
    : []),
];

const nameOf = (size: Size) => `${size.orgs}x${size.rows}`;

/** Organizations practice-1..n, each with `rows` demo transactions (loaded once, kept). */
async function fill(ledger: Ledger, size: Size): Promise<number> {
  const started = performance.now();
  for (let i = 1; i <= size.orgs; i++) {
    const org = await ledger.forOrg('all', () => createOrganization(ledger, { slug: `practice-${i}`, name: `Client ${String(i).padStart(3, '0')} Ltd` }));
    await ledger.forOrg(org.seq, () => fillDemo(ledger, org.seq, org.slug, size.rows, org.currency, BENCH_SHAPE));
  }
  return (performance.now() - started) / 1000;
}

/** The Practice data as the screen asks it (the machine's owner: every organization), and one organization's dashboard. */
async function time(ledger: Ledger, size: Size, engine: 'sqlite' | 'postgres'): Promise<string[]> {
  const ctx: DeskContext = { ledger, dataDir: '', agentUrl: '', mode: 'browser', reviewer: deskActor() };
  const first = (await ledger.forOrg('all', () => listOrganizations(ledger)))[0];
  const practice = () => ledger.forOrg('all', () => deskOperations.practice.run(ctx, {}));
  const dashboard = () => ledger.forOrg(first.seq, () => dashboardSummary(ledger, first.seq));
  const shown = await practice();
  if (shown.rows.length !== size.orgs) throw new Error(`the Practice data has ${shown.rows.length} rows, not ${size.orgs}`);
  const [p, d] = await pairedPercentiles([practice, dashboard], RUNS, 5);
  return [
    timedRow(`${engine}: Practice data, ${en(size.orgs)} organizations of ${en(size.rows)} rows`, p, size.target[engine]),
    timedRow(`${engine}: one organization's dashboard (same run)`, d, '(beside it)'),
  ];
}

async function sqlite(size: Size): Promise<string[]> {
  const folder = resolve(root, 'bench', `.data-practice-${nameOf(size)}`);
  const fresh = !existsSync(ledgerFile(folder));
  mkdirSync(folder, { recursive: true });
  const ledger = openLedger(ledgerFile(folder));
  try {
    if (fresh) console.log(`SQLite: ${en(size.orgs * size.rows)} rows loaded in ${(await fill(ledger, size)).toFixed(1)} s (${folder}).`);
    return await time(ledger, size, 'sqlite');
  } finally {
    ledger.close();
  }
}

async function postgres(cluster: BenchCluster, size: Size): Promise<string[]> {
  const database = `bench_practice_${nameOf(size)}`;
  if (!cluster.psql('postgres', `SELECT 1 FROM pg_database WHERE datname = '${database}'`)) {
    cluster.psql('postgres', `CREATE DATABASE ${database}`);
    const loader = await openPostgres(cluster.urlOf(database));
    try {
      console.log(`PostgreSQL: ${en(size.orgs * size.rows)} rows loaded in ${(await fill(loader, size)).toFixed(1)} s (${database}).`);
    } finally {
      await loader.end();
    }
    cluster.psql(database, 'VACUUM (ANALYZE)');
  }
  // Read as a server reads: its role, bound by row-level security.
  const ledger = await openPostgres(cluster.urlOf(database));
  try {
    return await time(ledger, size, 'postgres');
  } finally {
    await ledger.end();
  }
}

async function main() {
  const lines = ['| what | p50 | p99 | target |', '|---|---|---|---|'];
  if (engines.has('sqlite')) for (const size of SIZES) lines.push(...(await sqlite(size)));
  if (engines.has('postgres')) {
    const cluster = startCluster(resolve(root, process.env.BENCH_PG_DATA ?? join('bench', '.data-pg')));
    try {
      for (const size of SIZES) lines.push(...(await postgres(cluster, size)));
    } finally {
      cluster.stop();
    }
  }
  console.log(`\nIssue 55: the Practice screen's data (${RUNS} runs after 5 warm-up runs)\n`);
  for (const line of lines) console.log(line);
  if (process.env.BENCH_PRACTICE_BIG !== '1') console.log('\n20 organizations of 1,000,000 rows: BENCH_PRACTICE_BIG=1 (20,000,000 rows to load first).');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
