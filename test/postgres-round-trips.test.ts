// What a read costs through a transaction pooler (issue 51's PgBouncer figures):
// the round trips a transaction makes (BEGIN and its settings go with its first
// statement, behind a pooler just before it, to learn the server session whose
// prepared statements it may use; a snapshot's COMMIT is not waited for), and the rows a description
// search's page reads (the date index walked when the matches are dense, the
// planner's estimate of ILIKE '%needle%' not trusted). Directly and through
// PgBouncer in transaction mode alike.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { fillDemo } from '../src/main/demo';
import { psqlSync } from './support/postgres';
import { pooledCluster } from './support/pooled';

type Via = 'direct' | 'pooled';
const cluster = pooledCluster(2);
let made = 0;

/** A new database with one organization of `rows` demo transactions, and a counter of the driver's round trips. */
async function books(via: Via, rows: number) {
  const name = `trips_${++made}`;
  psqlSync(cluster.server, `CREATE DATABASE ${name}`);
  const ledger = await openPostgres(via === 'direct' ? cluster.server.urlOf(name) : cluster.pooler.urlOf(name), { pooler: via === 'direct' ? 'none' : 'transaction' });
  cluster.opened.push(ledger);
  const org = await ledger.forOrg('all', () => L.createOrganization(ledger, { slug: 'alpha' }));
  await ledger.forOrg(org.seq, () => fillDemo(ledger, org.seq, org.slug, rows, org.currency));
  // Every round trip ends in the server's ReadyForQuery: counted on each pooled connection, as node-postgres reads it.
  let trips = 0;
  const watched = new WeakSet<object>();
  ledger.pool.on('acquire', (client) => {
    if (watched.has(client)) return;
    watched.add(client);
    (client as unknown as { connection: NodeJS.EventEmitter }).connection.on('readyForQuery', () => trips++);
  });
  const counted = async (fn: () => Promise<unknown>) => {
    trips = 0;
    await ledger.forOrg(org.seq, fn);
    // A snapshot's COMMIT is answered after the read: its round trip is counted once it is in.
    await ledger.forOrg(org.seq, () => ledger.stmt('SELECT 1').get());
    return trips - 1;
  };
  /** The planner's statistics of the books made (as the login role: the tables' owner). */
  const analyze = async () => {
    const owner = new pg.Client({ connectionString: cluster.server.urlOf(name) });
    await owner.connect();
    await owner.query('ANALYZE');
    await owner.end();
  };
  return { ledger, org, counted, analyze };
}

describe.each<Via>(['direct', 'pooled'])('round trips (%s)', (via) => {
  it('sends BEGIN and the settings with the first statement (through the pooler, just before it), and nothing for a transaction that runs none', async () => {
    const { ledger, org, counted } = await books(via, 30);
    // A snapshot of one statement: that statement (BEGIN and the settings before it) and the COMMIT, unwaited. Directly,
    // a statement the connection has not prepared yet goes after its BEGIN (one round trip more, once): asked twice.
    // Through the pooler the opening always goes first (pooled.ts): it answers which server session this is.
    const read = () => ledger.snapshot(() => ledger.stmt('SELECT count(*) FROM transactions').pluck().get());
    expect(await counted(read)).toBe(3);
    expect(await counted(read)).toBe(via === 'direct' ? 2 : 3);
    // A write of one statement: the same, its organization's row locked first in the same round trip.
    const write = () => ledger.write(() => ledger.stmt("UPDATE organizations SET name = 'Alpha' WHERE seq = ?").run(org.seq));
    expect(await counted(write)).toBe(3);
    expect(await counted(write)).toBe(via === 'direct' ? 2 : 3);
    expect(await counted(() => ledger.snapshot(async () => undefined))).toBe(0);
    expect(await counted(() => ledger.write(async () => undefined))).toBe(0);
    // Begun for a savepoint first; a failed first statement rolls back and leaves nothing set.
    await ledger.forOrg(org.seq, () => ledger.write(() => ledger.write(() => ledger.stmt("UPDATE organizations SET name = 'Nested' WHERE seq = ?").run(org.seq))));
    await expect(ledger.forOrg(org.seq, () => ledger.write(() => ledger.stmt('INSERT INTO organizations (seq) VALUES (?)').run(org.seq)))).rejects.toThrow();
    expect(await ledger.stmt("SELECT current_setting('app.org', true) AS org, count(*) AS n FROM transactions").get()).toEqual({ org: '', n: 0 });
    expect(await ledger.forOrg(org.seq, () => ledger.snapshot(() => ledger.stmt('SELECT name FROM organizations WHERE seq = ?').pluck().get(org.seq)))).toBe('Nested');
  });

  it('a snapshot set to one organization before its first statement reads that organization only', async () => {
    const { ledger, org } = await books(via, 20);
    const other = await ledger.forOrg('all', () => L.createOrganization(ledger, { slug: 'beta' }));
    await ledger.forOrg(other.seq, () => fillDemo(ledger, other.seq, other.slug, 7, other.currency));
    const seen = await ledger.forOrg(org.seq, () =>
      ledger.snapshot(async () => [
        await ledger.forOrg(other.seq, () => ledger.stmt('SELECT count(*) FROM transactions').pluck().get()),
        await ledger.stmt('SELECT count(*) FROM transactions').pluck().get(),
      ]),
    );
    expect(seen).toEqual([7, 20]);
  });
});

describe.each<Via>(['direct', 'pooled'])('a description search (%s)', (via) => {
  it('walks the date index for dense matches, whatever the planner estimates, and answers as the trigram index does', async () => {
    const { ledger, org, analyze } = await books(via, 4000);
    await analyze();
    const all = (await ledger.forOrg(org.seq, () =>
      ledger.stmt("SELECT id FROM transactions WHERE org_seq = ? AND description ILIKE '%figma%' ORDER BY date DESC, seq DESC").pluck().all(org.seq),
    )) as string[];
    expect(all.length).toBeGreaterThan(100);
    // The page and the transactions' rows it read, in one snapshot: pg_stat_xact_user_tables' counts (this
    // backend's, not yet reported) before and after it, on the same server connection.
    const tuples = async (when: string) =>
      (await ledger
        .stmt("SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) + 0 * length(?) FROM pg_stat_xact_user_tables WHERE relname = 'transactions'")
        .pluck()
        .get(when)) as number;
    const page = (q: Partial<L.TransactionQuery>) =>
      ledger.forOrg(org.seq, () =>
        ledger.snapshot(async () => {
          const before = await tuples('before');
          const got = await L.listTransactions(ledger, org.seq, { description: 'FIGMA', limit: 5, offset: 0, ...q });
          return { ids: got.data.map((t) => t.id), total: got.meta.totalCount, read: (await tuples('after')) - before };
        }),
      );
    // Five a page out of 4,000 rows: the walk reads about 5 x 4,000 / matches rows, not every match (nor every row).
    for (let i = 0; i < 8; i++) {
      const first = await page({});
      expect(first).toMatchObject({ ids: all.slice(0, 5), total: all.length });
      expect(first.read).toBeLessThan(all.length);
    }
    // Deep and wide pages go by the trigram index: the same answers.
    expect(await page({ offset: all.length - 3 })).toMatchObject({ ids: all.slice(-3), total: all.length });
    expect((await page({ limit: 500 })).ids).toEqual(all.slice(0, 500));
    expect(await page({ description: 'no such payee' })).toMatchObject({ ids: [], total: 0 });
  });
});
