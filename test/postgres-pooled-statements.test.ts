// Prepared statements behind PgBouncer 1.18 in transaction pooling (src/main/ledger/core/postgres/pooled.ts):
// one server connection (default_pool_size = 1) shared by two processes' pools. A transaction's statements, its
// first too, run prepared, each process under names of its own, planned once per server session and then reused;
// a lone statement runs unnamed; a transaction that fails after preparing there, and a server session reset
// (DISCARD ALL), leave nothing stale behind.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { numbered, statementName } from '../src/main/ledger/core/postgres/text';
import type { PostgresLedger } from '../src/main/ledger/core/postgres/driver';
import { fillDemo } from '../src/main/demo';
import { psqlSync } from './support/postgres';
import { pooledCluster } from './support/pooled';

const cluster = pooledCluster(1);
let made = 0;

/** A new database of one organization with demo books, and two processes' ledgers on it through the pooler. */
async function twoProcesses(): Promise<{ a: PostgresLedger; b: PostgresLedger; url: string; seq: number; direct: PostgresLedger }> {
  const name = `pooled_statements_${++made}`;
  psqlSync(cluster.server, `CREATE DATABASE ${name}`);
  const url = cluster.pooler.urlOf(name);
  const [a, b] = [await openPostgres(url, { pooler: 'transaction' }), await openPostgres(url, { pooler: 'transaction' })];
  const direct = await openPostgres(cluster.server.urlOf(name));
  cluster.opened.push(a, b, direct);
  const org = await a.forOrg('all', () => L.createOrganization(a, { slug: 'alpha' }));
  await a.forOrg(org.seq, () => fillDemo(a, org.seq, org.slug, 60, org.currency));
  return { a, b, url, seq: org.seq, direct };
}

interface Prepared {
  name: string;
  runs: number;
}

/** The server session's prepared statements and how often each ran (planned generic or custom), read in one transaction. */
async function preparedThere(url: string): Promise<Prepared[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<Prepared>('SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements ORDER BY name')).rows;
  } finally {
    await c.end();
  }
}

const tagOf = (name: string) => name.split('_').at(-1);

describe('prepared statements behind a transaction pooler', () => {
  it("run a read's statements prepared, each process under its own names, reused on the server session", async () => {
    const { a, b, url, seq, direct } = await twoProcesses();
    const expected = await direct.forOrg(seq, () => L.dashboardSummary(direct, seq));
    const reads = Array.from({ length: 6 }, (_, i) => (i % 2 ? b : a)).map((l) => l.forOrg(seq, () => L.dashboardSummary(l, seq)));
    for (const answer of await Promise.all(reads)) expect(answer).toEqual(expected);

    const prepared = (await preparedThere(url)).filter((p) => p.name.startsWith('ldk_'));
    expect(new Set(prepared.map((p) => tagOf(p.name))).size).toBe(2); // both processes prepared there, apart
    // Each process ran its dashboard three times on the one server session: its statements planned once each, then
    // run as prepared.
    expect(Math.max(...prepared.map((p) => p.runs))).toBeGreaterThanOrEqual(3);
  });

  it("run a transaction's first statement prepared too (its opening goes first and names the session), a lone statement unnamed", async () => {
    const { a, url, seq } = await twoProcesses();
    const [first, lone] = ['SELECT count(*) FROM accounts WHERE org_seq = ?', 'SELECT count(*) FROM categories WHERE org_seq = ?'];
    for (let i = 0; i < 3; i++) {
      expect(await a.forOrg(seq, () => a.snapshot(() => a.stmt(first).pluck().get(seq)))).toBeGreaterThan(0);
      expect(await a.forOrg(seq, () => a.stmt(lone).pluck().get(seq))).toBeGreaterThan(0);
    }
    const prepared = await preparedThere(url);
    const named = (sql: string) => prepared.filter((p) => p.name.startsWith(`${statementName(numbered(sql).text)}_`));
    expect(named(first)).toEqual([{ name: expect.stringMatching(/_[0-9a-f]{8}_[0-9a-f]{8}$/), runs: 3 }]);
    expect(named(lone)).toEqual([]);
  });

  it('leave nothing stale when a transaction fails after preparing, or when the server session is reset', async () => {
    const { a, url, seq, direct } = await twoProcesses();
    const expected = await direct.forOrg(seq, () => L.listTransactions(direct, seq, { limit: 5, offset: 0 }));
    const page = () => a.forOrg(seq, () => L.listTransactions(a, seq, { limit: 5, offset: 0 }));
    // What a pooler's server_reset_query does: every prepared statement and setting of the server session gone.
    const reset = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query('DISCARD ALL');
      await c.end();
    };
    // As new: this write's opening makes the session's token, its first two statements are prepared, its third fails.
    await reset();
    const failing = a.forOrg(seq, () =>
      a.write(async () => {
        await a.stmt('SELECT count(*) FROM accounts').get();
        await a.stmt('SELECT count(*) FROM categories').get();
        await a.stmt('SELECT 1 / (count(*) - count(*)) FROM accounts').get();
      }),
    );
    await expect(failing).rejects.toMatchObject({ code: '22012' });
    // The token went with the rollback, the statement stayed: the session takes a new token, so new names, and the
    // same statement is prepared again under its new name.
    const counts = () =>
      a.forOrg(seq, () => a.snapshot(async () => [await a.stmt('SELECT count(*) FROM accounts').pluck().get(), await a.stmt('SELECT count(*) FROM categories').pluck().get()]));
    const [accounts, categories] = await counts();
    expect(accounts).toBeGreaterThan(0);
    expect(categories).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect(await counts()).toEqual([accounts, categories]);
    for (let i = 0; i < 3; i++) expect(await page()).toEqual(expected);

    await reset();
    for (let i = 0; i < 3; i++) expect(await page()).toEqual(expected);
  });
});
