// Organizations kept apart on a firm's PostgreSQL server (issue 44): row-level
// security that fails closed, the live check of the schema's keys and roles, and
// one organization's writes serial across connections (its row locked first);
// connected directly, and through PgBouncer in transaction pooling (issue 51).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { READER_ROLE, SERVER_ROLE, type PostgresLedger } from '../src/main/ledger/core/postgres/driver';
import { GLOBAL_TABLES } from '../src/main/ledger/core/postgres/tenancy';
import { checkPostgres } from '../scripts/check-postgres';
import { fillDemo } from '../src/main/demo';
import { psqlSync } from './support/postgres';
import { pooledCluster } from './support/pooled';

type Via = 'direct' | 'pooled';
const cluster = pooledCluster(4);
let made = 0;

/** A database's address, directly or through the pooler; and the driver told which. */
const reach = (name: string, via: Via) =>
  via === 'direct' ? { url: cluster.server.urlOf(name), pooler: 'none' as const } : { url: cluster.pooler.urlOf(name), pooler: 'transaction' as const };

/** A new database with two organizations' books in it; `owner` connects as the login role, `app` as the server's. */
async function twoOrganizations(via: Via = 'direct'): Promise<{ url: string; owner: PostgresLedger; app: PostgresLedger; a: L.Organization; b: L.Organization }> {
  const name = `tenancy_${++made}`;
  psqlSync(cluster.server, `CREATE DATABASE ${name}`);
  const { url, pooler } = reach(name, via);
  const owner = await openPostgres(url, { role: null, pooler });
  const app = await openPostgres(url, { pooler });
  const a = await app.forOrg('all', () => L.createOrganization(app, { slug: 'alpha' }));
  const b = await app.forOrg('all', () => L.createOrganization(app, { slug: 'beta' }));
  await app.forOrg(a.seq, () => fillDemo(app, a.seq, a.slug, 60, a.currency));
  await app.forOrg(b.seq, () => fillDemo(app, b.seq, b.slug, 40, b.currency));
  cluster.opened.push(app, owner);
  return { url, owner, app, a, b };
}

const tablesOf = async (ledger: L.Ledger): Promise<string[]> =>
  (await ledger.stmt("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'ledgerdesk_migrations' ORDER BY tablename").pluck().all()) as string[];

describe.each<Via>(['direct', 'pooled'])('row-level security (%s)', (via) => {
  it('fails closed: a server connection with no organization set reads no row of any organization table', async () => {
    const { owner, app } = await twoOrganizations(via);
    const tables = (await tablesOf(owner)).filter((t) => !GLOBAL_TABLES.includes(t) || t === 'organizations');
    const seen: Record<string, number> = {};
    for (const t of tables) seen[t] = (await app.stmt(`SELECT count(*) FROM ${t}`).pluck().get()) as number;
    expect(Object.entries(seen).filter(([, n]) => n > 0)).toEqual([]);
    // The books are there: the login role (the tables' owner, a superuser here) sees them.
    expect(await owner.stmt('SELECT count(*) FROM transactions').pluck().get()).toBe(100);
    // And a raw connection that never names an organization, as the server's role, sees none either.
    const raw = new pg.Client({ connectionString: owner.file.replace('***', '') });
    await raw.connect();
    await raw.query('SET ROLE ledgerdesk_app');
    expect((await raw.query('SELECT count(*)::int AS n FROM transactions')).rows[0].n).toBe(0);
    expect((await raw.query('SELECT count(*)::int AS n FROM audit_log')).rows[0].n).toBe(0);
    await raw.end();
  });

  it("shows an organization only its own rows, and refuses to write a row into another's books", async () => {
    const { owner, app, a, b } = await twoOrganizations(via);
    const count = (org: number) => app.forOrg(org, () => app.stmt('SELECT count(*) FROM transactions').pluck().get());
    expect([await count(a.seq), await count(b.seq)]).toEqual([60, 40]);
    // Asked for the other organization's rows by its number, the policy still answers none.
    expect(await app.forOrg(a.seq, () => app.stmt('SELECT count(*) FROM transactions WHERE org_seq = ?').pluck().get(b.seq))).toBe(0);
    const account = (await owner.stmt('SELECT seq FROM accounts WHERE org_seq = ? LIMIT 1').pluck().get(b.seq)) as number;
    await expect(
      app.forOrg(a.seq, () =>
        app
          .stmt(
            "INSERT INTO transactions (id, org_seq, account_seq, date, amount_minor, currency, description, status, source, created_at) VALUES ('x', ?, ?, '2026-01-01', 1, 'USD', 'x', 'uncategorized', 'manual', 'now')",
          )
          .run(b.seq, account),
      ),
    ).rejects.toThrow(/row-level security/);
    // The organizations themselves: one at a time, or all by name only with 'all'.
    expect(await app.forOrg(a.seq, () => app.stmt('SELECT slug FROM organizations ORDER BY slug').pluck().all())).toEqual(['alpha']);
    expect(await app.forOrg('all', () => app.stmt('SELECT slug FROM organizations ORDER BY slug').pluck().all())).toEqual(['alpha', 'beta']);
    expect(await app.forOrg('all', () => app.stmt('SELECT count(*) FROM transactions').pluck().get())).toBe(0);
  });

  it("shows a scope of several organizations their rows alone, to read: no write passes, nothing of another's shows", async () => {
    const { owner, app, a, b } = await twoOrganizations(via);
    const c = await app.forOrg('all', () => L.createOrganization(app, { slug: 'gamma' }));
    await app.forOrg(c.seq, () => fillDemo(app, c.seq, c.slug, 20, c.currency));
    const count = (orgs: number[], sql = 'SELECT count(*) FROM transactions') => app.forOrg(orgs, () => app.stmt(sql).pluck().get());
    expect(await count([a.seq, c.seq])).toBe(80);
    expect(await count([b.seq, c.seq])).toBe(60);
    // Asked for an organization outside the list by its number, the policies still answer none.
    expect(await count([a.seq, c.seq], `SELECT count(*) FROM transactions WHERE org_seq = ${b.seq}`)).toBe(0);
    expect(await count([])).toBe(0);
    expect(await app.forOrg([a.seq, c.seq], () => app.stmt('SELECT slug FROM organizations ORDER BY slug').pluck().all())).toEqual(['alpha', 'gamma']);
    // Reads only: the scope reads as ledgerdesk_reader, whose grants are SELECT alone; and the drivers refuse a write first.
    const account = (await owner.stmt('SELECT seq FROM accounts WHERE org_seq = ? LIMIT 1').pluck().get(a.seq)) as number;
    await expect(
      app.forOrg([a.seq, c.seq], () =>
        app
          .stmt(
            "INSERT INTO transactions (id, org_seq, account_seq, date, amount_minor, currency, description, status, source, created_at) VALUES ('x', ?, ?, '2026-01-01', 1, 'USD', 'x', 'uncategorized', 'manual', 'now')",
          )
          .run(a.seq, account),
      ),
    ).rejects.toThrow(/permission denied for table transactions/);
    await expect(app.forOrg([a.seq, c.seq], () => app.stmt("UPDATE counterparties SET name = 'x'").run())).rejects.toThrow(/permission denied for table counterparties/);
    await expect(app.forOrg([a.seq, c.seq], () => app.stmt('DELETE FROM notes').run())).rejects.toThrow(/permission denied for table notes/);
    await expect(app.forOrg([a.seq, c.seq], () => app.write(() => undefined))).rejects.toThrow(/several organizations/);
    // Inside a transaction the role follows the scope: the list's reads as the reader, one organization's as the app again.
    const inOne = (org: number) => app.forOrg(org, () => app.stmt('SELECT count(*) FROM transactions').pluck().get());
    expect(await app.snapshot(async () => [await inOne(b.seq), await count([a.seq, c.seq]), await inOne(b.seq)])).toEqual([40, 80, 40]);
    expect(await owner.stmt('SELECT count(*) FROM transactions WHERE org_seq = ?').pluck().get(a.seq)).toBe(60);
  });

  it('keeps the audit log append-only for the server: no privilege to change it, and a trigger for anyone else', async () => {
    const { owner, app, a } = await twoOrganizations();
    await expect(app.forOrg(a.seq, () => app.stmt("UPDATE audit_log SET summary = 'x'").run())).rejects.toThrow(/permission denied/);
    await expect(app.forOrg(a.seq, () => app.stmt('DELETE FROM audit_log').run())).rejects.toThrow(/permission denied/);
    await expect(owner.stmt("UPDATE audit_log SET summary = 'x'").run()).rejects.toThrow(/append-only/);
  });
});

describe("the server's own role", () => {
  it("carries one policy a table: the several-organizations policies are the reader role's alone", async () => {
    const { owner, a } = await twoOrganizations();
    // The plan of a register's read as the server's role, set to one organization: no list's clause in it.
    const plan = async (role: string, org: string) =>
      owner.write(async () => {
        await owner.stmt("SELECT set_config('role', ?, true), set_config('app.org', ?, true)").get(role, org);
        return ((await owner.stmt('EXPLAIN SELECT id FROM transactions ORDER BY date DESC LIMIT 50').pluck().all()) as string[]).join('\n');
      });
    expect(await plan(SERVER_ROLE, String(a.seq))).not.toMatch(/ANY|ldk_orgs/);
    expect(await plan(READER_ROLE, `{${a.seq}}`)).toMatch(/ANY/);
    const roles = await owner.rows<{ policyname: string; roles: string }>(
      "SELECT policyname, array_to_string(roles, ',') AS roles FROM pg_policies WHERE schemaname = 'public' AND policyname LIKE '%\\_orgs'",
    );
    expect(roles.length).toBeGreaterThan(60);
    expect(roles.filter((p) => p.roles !== READER_ROLE)).toEqual([]);
    // Neither role a member of the other: a member would carry the other's policies.
    expect(await owner.stmt("SELECT pg_has_role(?, ?, 'MEMBER') OR pg_has_role(?, ?, 'MEMBER')").pluck().get(SERVER_ROLE, READER_ROLE, READER_ROLE, SERVER_ROLE)).toBe(0);
  });
});

describe('the live check (npm run db:check)', () => {
  it('finds nothing wrong with the schema the migrations make', async () => {
    const { owner } = await twoOrganizations();
    const client = await owner.pool.connect();
    try {
      expect(await checkPostgres(client)).toEqual([]);
    } finally {
      client.release();
    }
  });

  it('names a table whose row-level security is off or not forced, a key that does not lead with the organization, a server role that bypasses it or is a member of the reader role', async () => {
    const { owner } = await twoOrganizations();
    const client = await owner.pool.connect();
    try {
      await client.query('ALTER TABLE notes NO FORCE ROW LEVEL SECURITY');
      await client.query('ALTER TABLE rules DISABLE ROW LEVEL SECURITY');
      await client.query('CREATE UNIQUE INDEX notes_id_alone ON notes (id)');
      await client.query('ALTER ROLE ledgerdesk_app BYPASSRLS');
      await client.query('GRANT ledgerdesk_reader TO ledgerdesk_app');
      const problems = await checkPostgres(client);
      await client.query('ALTER ROLE ledgerdesk_app NOBYPASSRLS');
      await client.query('REVOKE ledgerdesk_reader FROM ledgerdesk_app');
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^notes: row-level security is not FORCEd/),
          expect.stringMatching(/^rules: row-level security is not enabled/),
          expect.stringMatching(/^notes: unique index notes_id_alone does not lead with org_seq/),
          expect.stringMatching(/bypasses row-level security/),
          expect.stringMatching(/has the privileges of ledgerdesk_reader/),
        ]),
      );
      expect(problems).toHaveLength(5);
    } finally {
      client.release();
    }
  });
});

describe.each<Via>(['direct', 'pooled'])("one organization's writes (%s)", (via) => {
  it('run one at a time across connections: the audit chain never forks, no write is lost', async () => {
    const { url, a, b } = await twoOrganizations(via);
    // Four pools (as four server processes would have), each writing to both organizations at once.
    const pools = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url, { max: 4, pooler: via === 'pooled' ? 'transaction' : 'none' })));
    // New contacts: nothing a total counts, so only the organization's lock keeps the writers apart (a new row of
    // the books would also wait on its running totals' rows).
    const write = (ledger: L.Ledger, org: L.Organization, i: number) =>
      ledger.forOrg(org.seq, () => L.addContact(ledger, org.seq, L.deskActor(), { name: `Parallel ${i}`, customer: true }));
    await Promise.all(pools.flatMap((p, n) => Array.from({ length: 15 }, (_, i) => [write(p, a, n * 100 + i), write(p, b, n * 100 + i)]).flat()));
    for (const org of [a, b]) expect(await pools[0].forOrg(org.seq, () => L.verifyAuditChain(pools[0], org.seq))).toMatchObject({ ok: true });
    const forks = await pools[0].forOrg(a.seq, () =>
      pools[0].stmt('SELECT count(*) FROM (SELECT prev_hash FROM audit_log WHERE org_seq = ? GROUP BY prev_hash HAVING count(*) > 1) AS f').pluck().get(a.seq),
    );
    expect(forks).toBe(0);
    for (const org of [a, b])
      expect(await pools[0].forOrg(org.seq, () => pools[0].stmt("SELECT count(*) FROM counterparties WHERE name LIKE 'Parallel %'").pluck().get())).toBe(60);
    await Promise.all(pools.map((p) => p.end()));
  });
});
