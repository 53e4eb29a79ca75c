// What PgBouncer itself costs on this machine, bare (issue 51): the floor under
// its speed target. Every round trip through the pooler is one more process to
// wake and two more socket hops; on 2 cores shared by the client, PgBouncer and
// PostgreSQL that is not free, and a read of a millisecond that talks to the
// server three times pays it three times, whatever the driver does.
//   - A bare round trip: one unnamed statement (`SELECT $1::int`, the extended
//     protocol as the driver runs it behind a pooler) on a plain node-postgres
//     client, directly and through PgBouncer, timed in turns (timing.ts).
//   - A read's round trips: node-postgres' query calls while it runs once (a
//     framed statement, BEGIN to COMMIT in one message, is one; framed.ts).
//   - A bare write load: pgbench's TPC-B-like transaction (PostgreSQL's own
//     benchmark, from the same package), 32 clients on 2 threads, directly and
//     through PgBouncer, as the proposals' baseline.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import pg from '../src/main/ledger/core/postgres/node-postgres';
import type { BenchCluster } from './postgres-cluster';
import type { Pooler } from '../test/support/postgres';
import { pairedPercentiles } from './timing';

export interface Hop {
  direct: number;
  pooled: number;
  /** Milliseconds a round trip costs more through the pooler (medians). */
  extra: number;
}

/** A bare round trip's median, directly and through the pooler, in turns; what the pooler adds to each. */
export async function bareRoundTrip(directUrl: string, pooledUrl: string, runs = 2000): Promise<Hop> {
  const clients = [new pg.Client(directUrl), new pg.Client(pooledUrl)];
  await Promise.all(clients.map((c) => c.connect()));
  try {
    const [direct, pooled] = await pairedPercentiles(
      clients.map((c) => () => c.query({ text: 'SELECT $1::int', values: [1] })),
      runs,
      200,
    );
    return { direct: direct.p50, pooled: pooled.p50, extra: pooled.p50 - direct.p50 };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** The round trips `fn` makes to the server: node-postgres' query calls while it runs. */
export async function roundTrips(fn: () => Promise<unknown>): Promise<number> {
  const query = pg.Client.prototype.query;
  let calls = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    calls++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await fn();
    return calls;
  } finally {
    pg.Client.prototype.query = query;
  }
}

const PGBENCH_DB = 'bench_pgbench';

/** pgbench's TPC-B-like transactions a second, directly and through the pooler (each run once, `seconds` long). */
export function bareWrites(cluster: BenchCluster, bouncer: Pooler, seconds: number): { direct: number; pooled: number } {
  const pgbench = join(cluster.bin, 'pgbench');
  if (cluster.psql('postgres', `SELECT count(*) FROM pg_database WHERE datname = '${PGBENCH_DB}'`) === '0') cluster.psql('postgres', `CREATE DATABASE ${PGBENCH_DB}`);
  // Scale 8: as many branches as the proposals' organizations, so that 32 clients do not all wait on one row.
  execFileSync(pgbench, ['-i', '-q', '-s', '8', ...connection(cluster.folder, 5432), PGBENCH_DB], { stdio: 'pipe' });
  const tps = (host: string, port: number) => {
    const out = execFileSync(pgbench, ['-c', '32', '-j', '2', '-T', String(seconds), '-M', 'extended', ...connection(host, port), PGBENCH_DB], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const found = /tps = ([\d.]+)/.exec(out);
    if (!found) throw new Error(`pgbench printed no tps: ${out}`);
    return Number(found[1]);
  };
  return { direct: tps(cluster.folder, 5432), pooled: tps(bouncer.socketDir, bouncer.port) };
}

const connection = (host: string, port: number) => ['-h', host, '-p', String(port), '-U', 'ledgerdesk'];
