// The server behind PgBouncer in transaction pooling (issue 51): consecutive
// transactions of one client run on different server connections, and each
// server connection serves many clients, so nothing may be left on a connection
// for the next transaction: no role, no organization, no named statement, no
// session advisory lock. The login role here is a firm's (not a superuser), as
// docs/postgres.md sets it up, so that row-level security binds a raw client too.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { fillDemo } from '../src/main/demo';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import type { PostgresLedger } from '../src/main/ledger/core/postgres/driver';
import { findShipped } from '../src/main/ledger/core/paths';
import { tempDir } from './support/env';
import { psqlSync } from './support/postgres';
import { pooledCluster } from './support/pooled';

const LOGIN = 'firm';
// Two server connections per database: every client shares them.
const cluster = pooledCluster(2, {
  users: ['ledgerdesk', LOGIN],
  sql: `CREATE ROLE ledgerdesk_app NOLOGIN; CREATE ROLE ledgerdesk_reader NOLOGIN; CREATE ROLE ${LOGIN} LOGIN; GRANT ledgerdesk_app, ledgerdesk_reader TO ${LOGIN}`,
});
let made = 0;

/** A new database owned by the firm's login role, reached through the pooler. */
function database(): string {
  const name = `pooled_${++made}`;
  psqlSync(cluster.server, `CREATE DATABASE ${name} OWNER ${LOGIN}`);
  return cluster.pooler.urlOf(name, LOGIN);
}

async function open(url: string, options: Parameters<typeof openPostgres>[1] = {}): Promise<PostgresLedger> {
  const ledger = await openPostgres(url, { pooler: 'transaction', ...options });
  cluster.opened.push(ledger);
  return ledger;
}

/** Today's migrations and one more: a newer build's folder. */
function newerMigrations(): string {
  const folder = tempDir();
  cpSync(findShipped('db/postgres'), folder, { recursive: true });
  writeFileSync(join(folder, '9001_newer_build.sql'), 'CREATE TABLE newer_build_table (x bigint);');
  return folder;
}

describe('behind PgBouncer in transaction pooling', () => {
  it('opens a new database from three processes at once, runs the same statements on each, and a later migration does not wait forever', async () => {
    const url = database();
    const three = await Promise.all([1, 2, 3].map(() => open(url)));
    // The same texts on every pool at once: named statements would meet on the shared server connections.
    const orgs = await Promise.all(three.map((l, i) => l.forOrg('all', () => L.createOrganization(l, { slug: `org-${i}` }))));
    await Promise.all(three.flatMap((l) => orgs.map((o) => l.forOrg(o.seq, () => l.stmt('SELECT count(*) FROM accounts WHERE org_seq = ?').pluck().get(o.seq)))));
    // A newer build's migration takes the lock again: a lock left held on a pooled connection would block it.
    const newer = await open(url, { migrationsFolder: newerMigrations() });
    expect(await newer.stmt("SELECT count(*) FROM ledgerdesk_migrations WHERE name = '9001_newer_build.sql'").pluck().get()).toBe(1);
  });

  it('answers 400 mixed reads and writes of two organizations, from two processes, each with its own books only', async () => {
    const url = database();
    const [one, two] = [await open(url), await open(url)];
    const a = await one.forOrg('all', () => L.createOrganization(one, { slug: 'alpha' }));
    const b = await one.forOrg('all', () => L.createOrganization(one, { slug: 'beta' }));
    await one.forOrg(a.seq, () => fillDemo(one, a.seq, a.slug, 65, a.currency));
    await one.forOrg(b.seq, () => fillDemo(one, b.seq, b.slug, 35, b.currency));
    const rows = { [a.seq]: 65, [b.seq]: 35 };
    const failures: string[] = [];
    const request = async (i: number) => {
      const ledger = i % 2 ? one : two;
      const org = i % 3 ? a : b;
      try {
        await ledger.forOrg(org.seq, async () => {
          if (i % 4 === 0) {
            const page = await L.listTransactions(ledger, org.seq, { limit: 10, offset: 0 });
            if (page.meta.totalCount !== rows[org.seq] || page.data.length !== 10) failures.push(`${i}: page of ${page.data.length}, total ${page.meta.totalCount}`);
          } else if (i % 4 === 1) {
            await L.addContact(ledger, org.seq, L.deskActor(), { name: `Contact ${i}`, customer: true });
          } else {
            const n = await ledger.stmt('SELECT count(*) FROM transactions').pluck().get();
            if (n !== rows[org.seq]) failures.push(`${i}: ${org.slug} counted ${n}`);
          }
        });
      } catch (error) {
        failures.push(`${i}: ${(error as Error).message}`);
      }
    };
    await Promise.all(Array.from({ length: 400 }, (_, i) => request(i)));
    expect(failures).toEqual([]);
    for (const org of [a, b]) expect(await one.forOrg(org.seq, () => L.verifyAuditChain(one, org.seq))).toMatchObject({ ok: true });
  });

  it('cancels a statement past the statement timeout, set in its own transaction, and leaves no timeout on the connection', async () => {
    const url = database();
    const timed = await open(url, { statementTimeoutMs: 100 });
    await expect(timed.stmt('SELECT pg_sleep(30)').get()).rejects.toMatchObject({ code: '57014' });
    await expect(timed.write(() => timed.stmt('SELECT pg_sleep(30)').get())).rejects.toMatchObject({ code: '57014' });
    // Another client of the pooler's two server connections runs without it.
    const plain = await open(url);
    expect(await plain.stmt('SELECT pg_sleep(0.3), current_setting(?) AS t').get('statement_timeout')).toMatchObject({ t: '0' });
  });

  it('leaves nothing on a connection: a client that set nothing, after the server set an organization, reads nothing as its own login role', async () => {
    const url = database();
    const app = await open(url);
    const a = await app.forOrg('all', () => L.createOrganization(app, { slug: 'alpha' }));
    await app.forOrg(a.seq, () => fillDemo(app, a.seq, a.slug, 20, a.currency));
    // The server's statements set the role and the organization on both pooled connections...
    await Promise.all(Array.from({ length: 20 }, () => app.forOrg(a.seq, () => app.stmt('SELECT count(*) FROM transactions').pluck().get())));
    // (and a read of many statements has prepared its later ones there)
    await Promise.all(Array.from({ length: 4 }, () => app.forOrg(a.seq, () => L.dashboardSummary(app, a.seq))));
    // ...and new clients of the same login that set nothing find neither.
    const clients = [1, 2, 3, 4].map(() => new pg.Client({ connectionString: url }));
    try {
      await Promise.all(clients.map((c) => c.connect()));
      const seen = await Promise.all(
        clients.map(
          async (c) => (await c.query("SELECT current_user AS who, coalesce(current_setting('app.org', true), '') AS org, (SELECT count(*)::int FROM transactions) AS n")).rows[0],
        ),
      );
      expect(seen).toEqual(clients.map(() => ({ who: LOGIN, org: '', n: 0 })));
      // What stays on a server connection is the server's own prepared statements, each named for one process and
      // one server session (pooled.ts), and they read as whoever runs them: for a client that set nothing, nothing.
      let tried = 0;
      for (const c of clients) {
        await c.query('BEGIN'); // one server connection for the list and what runs from it
        const prepared = (await c.query<{ name: string; statement: string; n: number }>('SELECT name, statement, cardinality(parameter_types) AS n FROM pg_prepared_statements'))
          .rows;
        for (const p of prepared) expect(p.name).toMatch(/^ldk_[0-9a-f]{24}_[0-9a-f]{8}_[0-9a-f]{8}$/);
        for (const p of prepared.filter((p) => /^\s*SELECT\b/i.test(p.statement))) {
          const rows = (await c.query(`EXECUTE ${p.name}(${Array.from({ length: p.n }, () => 'NULL').join(', ')})`)).rows as Record<string, unknown>[];
          expect(rows.flatMap((r) => Object.values(r)).filter((v) => v !== null && Number(v) !== 0)).toEqual([]);
          tried++;
        }
        await c.query('COMMIT');
      }
      expect(tried).toBeGreaterThan(0);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});
