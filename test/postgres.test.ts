// The PostgreSQL driver and its migrations on a throwaway server: the schema made
// once however many processes open it together, a newer build's database refused,
// placeholders numbered, writes atomic with savepoints, integers never rounded.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NewerLedgerError } from '../src/main/ledger/core/sqlite/open';
import { findShipped } from '../src/main/ledger/core/paths';
import { postgresSettings } from '../src/main/ledger/core/postgres/settings';
import { startHeadless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { tempDir } from './support/env';
import { fillDemo } from '../src/main/demo';
import { numbered } from '../src/main/ledger/core/postgres/driver';
import { openPostgres, postgresMigrations } from '../src/main/ledger/core/postgres/open';
import { schemaDrift } from '../scripts/postgres-schema';
import { tableConfigs } from '../scripts/postgres/tables';

const postgresTables = () => tableConfigs().length;
import { startPostgres, type ThrowawayPostgres } from './support/postgres';

let server: ThrowawayPostgres;
let admin: pg.Client;
beforeAll(async () => {
  server = startPostgres();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
}, 60_000);
afterAll(async () => {
  await admin?.end();
  server?.stop();
});

let made = 0;
async function database(): Promise<string> {
  const name = `books_${++made}`;
  await admin.query(`CREATE DATABASE ${name}`);
  return server.urlOf(name);
}

describe('the PostgreSQL schema', () => {
  it('keeps its first release as released: a database made from it moves forward through the files after it', () => {
    const first = readFileSync(join(import.meta.dirname, '..', 'db', 'postgres', '0000_schema.sql'));
    expect(createHash('sha256').update(first).digest('hex')).toBe('e42acb9a7b1c06c3ad3f1d3ab4ca31837a39b941bb4cc15857c445de6f52017b');
  });

  it('is the one db/schema.ts defines: a database migrated through every file has the generated schema', async () => {
    expect(await schemaDrift(await database(), await database())).toEqual([]);
  });

  it('is made once when several processes open the database together, and opened again without change', async () => {
    const url = await database();
    const opened = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url)));
    const applied = await opened[0].rows<{ name: string }>('SELECT name FROM ledgerdesk_migrations');
    expect(applied.map((a) => a.name)).toEqual(postgresMigrations().map((m) => m.name));
    expect(await opened[0].stmt("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'ledgerdesk_migrations'").pluck().get()).toBe(postgresTables());
    await Promise.all(opened.map((l) => l.end()));
    const again = await openPostgres(url);
    expect(await again.stmt('SELECT count(*) FROM ledgerdesk_migrations').pluck().get()).toBe(applied.length);
    await again.end();
  });

  it('refuses a database written by a newer build, and leaves it as it was', async () => {
    const url = await database();
    await (await openPostgres(url)).end();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query("INSERT INTO ledgerdesk_migrations (name, hash) VALUES ('9999_from_the_future.sql', 'x')");
    await expect(openPostgres(url)).rejects.toThrow(NewerLedgerError);
    await expect(openPostgres(url)).rejects.toThrow(/1 migration\(s\) this build does not know: 9999_from_the_future.sql/);
    expect((await c.query('SELECT count(*)::int AS n FROM ledgerdesk_migrations')).rows[0].n).toBe(postgresMigrations().length + 1);
    await c.end();
  });

  it('keeps the audit log append-only', async () => {
    const ledger = await openPostgres(await database(), { role: null });
    await ledger.stmt("INSERT INTO organizations (id, slug, name, currency, created_at) VALUES ('o', 'o', 'O', 'GBP', 'now')").run();
    await ledger
      .stmt(
        "INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary) VALUES ('a', 1, 'now', 'human', 'me', 'me', 'desk', 'x', 'y', 'z', 's')",
      )
      .run();
    await expect(ledger.stmt("UPDATE audit_log SET summary = 'changed'").run()).rejects.toThrow(/append-only/);
    await expect(ledger.stmt('DELETE FROM audit_log').run()).rejects.toThrow(/append-only/);
    await ledger.end();
  });
});

describe('the PostgreSQL driver', () => {
  it("numbers ? placeholders, but not a ? inside a quoted string or name, and leaves out SQLite's INDEXED BY", () => {
    expect(numbered(`SELECT a FROM t WHERE b = ? AND c = '?' AND "d?" = ? AND e = 'it''s ?' AND f IN (?, ?)`).text).toBe(
      `SELECT a FROM t WHERE b = $1 AND c = '?' AND "d?" = $2 AND e = 'it''s ?' AND f IN ($3, $4)`,
    );
    expect(numbered('SELECT t.seq FROM transactions t INDEXED BY transactions_account_date WHERE t.account_seq = ?').text).toBe(
      'SELECT t.seq FROM transactions t WHERE t.account_seq = $1',
    );
  });

  it('commits a write whole or not at all, a failed nested write undoing only itself', async () => {
    const ledger = await openPostgres(await database(), { role: null });
    await ledger.stmt('CREATE TABLE t (x bigint)').run();
    await ledger.write(async () => {
      await ledger.stmt('INSERT INTO t VALUES (?)').run(1);
      await ledger
        .write(async () => {
          await ledger.stmt('INSERT INTO t VALUES (?)').run(2);
          throw new Error('nested');
        })
        .catch(() => undefined);
      await ledger.stmt('INSERT INTO t VALUES (?)').run(3);
    });
    await expect(
      ledger.write(async () => {
        await ledger.stmt('INSERT INTO t VALUES (?)').run(4);
        throw new Error('whole');
      }),
    ).rejects.toThrow('whole');
    expect(await ledger.stmt('SELECT x FROM t ORDER BY x').pluck().all()).toEqual([1, 3]);
    await ledger.end();
  });

  it('plans once for any values only inside a snapshot that asks (the general ledger), never after it', async () => {
    const ledger = await openPostgres(await database(), { role: null });
    const mode = () => ledger.stmt('SELECT current_setting(?) AS m').pluck().get('plan_cache_mode');
    expect(await ledger.snapshot(mode, { genericPlans: true })).toBe('force_generic_plan');
    expect(await ledger.snapshot(mode)).toBe('auto');
    expect(await mode()).toBe('auto');
    await ledger.end();
  });

  it('reads bigint and numeric as exact numbers, and refuses one beyond the safe range instead of rounding it', async () => {
    const ledger = await openPostgres(await database(), { role: null });
    expect(
      await ledger.stmt('SELECT CAST(? AS bigint) AS n, sum(x) AS s FROM (VALUES (CAST(? AS bigint)), (CAST(? AS bigint))) AS v (x)').get(123456789012345, 9007199254740000, 991),
    ).toEqual({
      n: 123456789012345,
      s: 9007199254740991,
    });
    await expect(ledger.stmt('SELECT CAST(? AS bigint) + 1 AS n').get(Number.MAX_SAFE_INTEGER)).rejects.toThrow(/beyond the integers JavaScript holds exactly/);
    await ledger.end();
  });
});

describe('prepared statements', () => {
  it('prepares a query once per connection, and a statement that fails to prepare does not take its name', async () => {
    const ledger = await openPostgres(await database(), { role: null, max: 1 });
    await ledger.stmt('CREATE TABLE t (x bigint)').run();
    await expect(ledger.stmt('SELECT y FROM t WHERE x = ?').all(1)).rejects.toThrow(/column "y" does not exist/);
    await ledger.stmt('ALTER TABLE t ADD COLUMN y bigint').run();
    // The text that failed prepares now that it can: its name was not kept for a statement the server never made.
    expect(await ledger.stmt('SELECT y FROM t WHERE x = ?').all(1)).toEqual([]);
    await ledger.stmt('INSERT INTO t VALUES (?, ?)').run(1, 2);
    await ledger.stmt('INSERT INTO t VALUES (?, ?)').run(3, 4);
    const prepared = await ledger.rows<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement');
    expect(prepared.map((p) => p.statement)).toEqual([
      'INSERT INTO t VALUES ($1, $2)',
      'SELECT statement FROM pg_prepared_statements ORDER BY statement',
      'SELECT y FROM t WHERE x = $1',
    ]);
    await ledger.end();
  });

  it('runs a statement again after the table it reads changed shape under it, on a new connection', async () => {
    const ledger = await openPostgres(await database(), { role: null, max: 1 });
    await ledger.stmt('CREATE TABLE t (x bigint)').run();
    await ledger.stmt('INSERT INTO t VALUES (?)').run(1);
    expect(await ledger.stmt('SELECT * FROM t').all()).toEqual([{ x: 1 }]);
    await ledger.stmt('ALTER TABLE t ADD COLUMN y bigint').run(); // "cached plan must not change result type" for the prepared one
    expect(await ledger.stmt('SELECT * FROM t').all()).toEqual([{ x: 1, y: null }]);
    expect(await ledger.stmt('SELECT * FROM t').all()).toEqual([{ x: 1, y: null }]); // prepared on the new connection
    await ledger.stmt('ALTER TABLE t ADD COLUMN z bigint').run();
    // Inside a write the transaction has failed; its connection goes, and the next write prepares the statement again.
    await expect(ledger.write(() => ledger.stmt('SELECT * FROM t').all())).rejects.toThrow(/cached plan must not change result type/);
    expect(await ledger.write(() => ledger.stmt('SELECT * FROM t').all())).toEqual([{ x: 1, y: null, z: null }]);
    await ledger.end();
  });

  it('answers a read asked again in one snapshot without running it again, each caller its own rows', async () => {
    const ledger = await openPostgres(await database(), { role: null, max: 1 });
    const read = () => ledger.stmt('SELECT random() AS r, ? AS n').all(1);
    const [first, again, other] = await ledger.snapshot(async () => {
      const a = await read();
      const r = a[0].r;
      a[0].r = -1; // the caller's own copy
      return [r, (await read())[0].r, (await ledger.stmt('SELECT random() AS r, ? AS n').all(2))[0].r];
    });
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    // Outside a snapshot (and in the next one) it runs again.
    expect((await read())[0].r).not.toBe(first);
    await ledger.end();
  });

  it("queues one organization's writes in the process, so that they hold no pooled connection while they wait their turn", async () => {
    const ledger = await openPostgres(await database(), { role: null, max: 2 });
    for (const slug of ['a', 'b']) await ledger.stmt("INSERT INTO organizations (id, slug, name, currency, created_at) VALUES (?, ?, 'O', 'GBP', 'now')").run(slug, slug);
    const [a, b] = (await ledger.stmt('SELECT seq FROM organizations ORDER BY slug').pluck().all()) as number[];
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    const order: string[] = [];
    const first = ledger.forOrg(a, () => ledger.write(async () => (await held, order.push('a1'))));
    const queued = [2, 3].map((k) => ledger.forOrg(a, () => ledger.write(async () => order.push(`a${k}`))));
    // Organization b's write gets the other connection at once, while a's first write still holds its lock.
    await ledger.forOrg(b, () => ledger.write(async () => order.push('b')));
    expect(order).toEqual(['b']);
    release();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['b', 'a1', 'a2', 'a3']);
    await ledger.end();
  });
});

describe('an older build still running after a newer one migrated (issue 51)', () => {
  it('stops writing, answers outdated_build and says so once in its log, and still reads', async () => {
    const url = await database();
    const said: string[] = [];
    // The older build: a server of today's migrations.
    const old = await startHeadless(tempDir(), { database: url, port: 0, log: (m) => said.push(m) });
    try {
      const org = (await old.ledger.forOrg('all', () => L.listOrganizations(old.ledger)))[0];
      const token = (await old.ledger.forOrg(org.seq, () => L.createToken(old.ledger, org.seq, { name: 'agent', scopes: ['read', 'propose-write'] }))).token;
      await old.ledger.forOrg(org.seq, () => fillDemo(old.ledger, org.seq, org.slug, 5, org.currency));
      const transactionId = (await old.ledger.forOrg(org.seq, () => old.ledger.stmt('SELECT id FROM transactions LIMIT 1').pluck().get())) as string;
      // The newer build: today's migrations and one more, applied while the older one runs.
      const newer = tempDir();
      cpSync(findShipped('db/postgres'), newer, { recursive: true });
      writeFileSync(join(newer, '9001_newer_build.sql'), 'CREATE TABLE newer_build_table (x bigint);');
      await (await openPostgres(url, { migrationsFolder: newer })).end();

      const post = () =>
        fetch(`${old.server.url}/api/v1/notes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ transactionId, content: 'a note' }),
        });
      for (let i = 0; i < 2; i++) {
        const res = await post();
        expect(res.status).toBe(503);
        expect(((await res.json()) as any).error).toMatchObject({ code: 'outdated_build', details: { migrations: postgresMigrations().length + 1 } });
      }
      // A write outside a transaction of the domain's (a lone statement) is refused too; reads go on.
      await expect(old.ledger.forOrg('all', () => old.ledger.stmt("UPDATE organizations SET name = 'x'").run())).rejects.toMatchObject({ code: 'outdated_build' });
      expect((await fetch(`${old.server.url}/api/v1/categories`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect(said.filter((m) => /newer Ledgerdesk build migrated this database/.test(m))).toHaveLength(1);
    } finally {
      await old.stop();
    }
  });
});

describe('the settings (issue 51)', () => {
  it('take their defaults, read the environment, and refuse a value they cannot use, naming it', () => {
    expect(postgresSettings({})).toEqual({ max: 10, statementTimeoutMs: 0, connectTimeoutMs: 30000, idleTimeoutMs: 10000, pooler: 'none', readOnly: false });
    expect(
      postgresSettings({
        LEDGERDESK_DB_POOL_MAX: '25',
        LEDGERDESK_DB_STATEMENT_TIMEOUT_MS: '15000',
        LEDGERDESK_DB_CONNECT_TIMEOUT_MS: '5000',
        LEDGERDESK_DB_IDLE_TIMEOUT_MS: '0',
        LEDGERDESK_DB_POOLER: 'Transaction',
        LEDGERDESK_DB_READ_ONLY: 'yes',
      }),
    ).toEqual({ max: 25, statementTimeoutMs: 15000, connectTimeoutMs: 5000, idleTimeoutMs: 0, pooler: 'transaction', readOnly: true });
    expect(() => postgresSettings({ LEDGERDESK_DB_POOL_MAX: 'ten' })).toThrow('LEDGERDESK_DB_POOL_MAX must be a whole number from 1 to 1000, not "ten"');
    expect(() => postgresSettings({ LEDGERDESK_DB_POOL_MAX: '0' })).toThrow(/LEDGERDESK_DB_POOL_MAX must be a whole number from 1 to 1000, not "0"/);
    expect(() => postgresSettings({ LEDGERDESK_DB_STATEMENT_TIMEOUT_MS: '1.5' })).toThrow(/LEDGERDESK_DB_STATEMENT_TIMEOUT_MS must be a whole number/);
    expect(() => postgresSettings({ LEDGERDESK_DB_POOLER: 'session' })).toThrow('LEDGERDESK_DB_POOLER must be one of none, transaction, not "session"');
  });

  it("size and time the process's pool, and a command refuses a bad one plainly, before connecting", async () => {
    const env = { LEDGERDESK_DB_POOL_MAX: '3', LEDGERDESK_DB_CONNECT_TIMEOUT_MS: '4000', LEDGERDESK_DB_IDLE_TIMEOUT_MS: '7000' };
    const ledger = await openPostgres(await database(), { env });
    try {
      expect(ledger.pool.options).toMatchObject({ max: 3, connectionTimeoutMillis: 4000, idleTimeoutMillis: 7000 });
    } finally {
      await ledger.end();
    }
    const bin = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
    const r = spawnSync(process.execPath, [bin, 'org', 'list', '--database', server.urlOf('postgres')], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, LEDGERDESK_DB_STATEMENT_TIMEOUT_MS: '-5' },
    });
    expect({ status: r.status, stderr: r.stderr.trim(), stdout: r.stdout }).toEqual({
      status: 1,
      stderr: 'ledgerdesk: LEDGERDESK_DB_STATEMENT_TIMEOUT_MS must be a whole number from 0 to 86400000, not "-5"',
      stdout: '',
    });
  }, 120_000); // a command as a child process
});
