// A test file's own PostgreSQL cluster with Debian's PgBouncer in transaction pooling in front (issue 51), started
// before its tests and stopped after them, with the ledgers the file opened ended first.
import { afterAll, beforeAll } from 'vitest';
import type { PostgresLedger } from '../../src/main/ledger/core/postgres/driver';
import { psqlSync, startPgBouncer, startPostgres, type Pooler, type ThrowawayPostgres } from './postgres';

export interface PooledCluster {
  server: ThrowawayPostgres;
  pooler: Pooler;
  /** Ledgers to end before the cluster stops. */
  opened: PostgresLedger[];
}

/** `size` server connections per database and user (few, so that clients share them); `sql` run first as the superuser. */
export function pooledCluster(size: number, options: { users?: string[]; sql?: string } = {}): PooledCluster {
  const world = { opened: [] as PostgresLedger[] } as PooledCluster;
  beforeAll(() => {
    world.server = startPostgres();
    if (options.sql) psqlSync(world.server, options.sql);
    world.pooler = startPgBouncer(world.server, size, options.users);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(world.opened.map((l) => l.end()));
    world.pooler?.stop();
    world.server?.stop();
  });
  return world;
}
