// A read replica serves reads (issue 51): a real hot standby (pg_basebackup -R
// from the test cluster, started as a standby) is opened without a write when
// its schema is current, refused naming why when it is behind, and served:
// the agent API's reads and reports answer, every write (an agent's proposal,
// a desk sign-in, a command's change) is refused with 503 read_only.
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { fillDemo } from '../src/main/demo';
import { startHeadless, type Headless } from '../src/main/headless';
import { openPostgres, ReadOnlySchemaError } from '../src/main/ledger/core/postgres/open';
import { findShipped } from '../src/main/ledger/core/paths';
import { tempDir } from './support/env';
import { psqlSync, startPostgres, startStandby, type ThrowawayPostgres } from './support/postgres';

const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
let primary: ThrowawayPostgres;
let standby: ThrowawayPostgres;
let token: string;
let code: string;
let org: L.Organization;

beforeAll(async () => {
  primary = startPostgres();
  psqlSync(primary, 'CREATE DATABASE books');
  const books = await openPostgres(primary.urlOf('books'));
  try {
    org = await books.forOrg('all', () => L.createOrganization(books, { slug: 'studio' }));
    await books.forOrg(org.seq, () => fillDemo(books, org.seq, org.slug, 80, org.currency));
    token = (await books.forOrg(org.seq, () => L.createToken(books, org.seq, { name: 'reader', scopes: ['read', 'propose-write'] }))).token;
    // A one-time sign-in code, written on the primary: the replica must not spend it (a session is a write).
    const { issueCode } = await import('../src/main/desk/transport/sessions');
    code = await issueCode(books);
  } finally {
    await books.end();
  }
  standby = startStandby(primary);
}, 120_000);
afterAll(() => {
  standby?.stop();
  primary?.stop();
});

describe('a hot standby', () => {
  it('is opened without a write, and found read-only: reads answer, writes are refused with read_only', async () => {
    const replica = await openPostgres(standby.urlOf('books'));
    try {
      expect(replica.readOnly).toBe(true);
      expect(await replica.forOrg(org.seq, () => replica.stmt('SELECT count(*) FROM transactions').pluck().get())).toBe(80);
      await expect(replica.forOrg(org.seq, () => L.addContact(replica, org.seq, L.deskActor(), { name: 'Nobody', customer: true }))).rejects.toMatchObject({ code: 'read_only' });
      await expect(replica.forOrg(org.seq, () => replica.stmt("UPDATE organizations SET name = 'x'").run())).rejects.toMatchObject({ code: 'read_only' });
    } finally {
      await replica.end();
    }
  });

  it("is refused, unchanged, naming the migrations due, when its schema is behind the build's", async () => {
    const newer = tempDir();
    cpSync(findShipped('db/postgres'), newer, { recursive: true });
    writeFileSync(join(newer, '9001_newer_build.sql'), 'CREATE TABLE newer_build_table (x bigint);');
    const opening = openPostgres(standby.urlOf('books'), { migrationsFolder: newer });
    await expect(opening).rejects.toThrow(ReadOnlySchemaError);
    await expect(openPostgres(standby.urlOf('books'), { migrationsFolder: newer })).rejects.toThrow(/read-only \(a hot standby\).*1 migration\(s\) due \(9001_newer_build\.sql\)/);
  });

  it('answers a command that reads', () => {
    const r = spawnSync(process.execPath, [BIN, 'token', 'list', '--org', 'studio', '--database', standby.urlOf('books')], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).toMatch(/is read-only \(a hot standby\): serving reads only, every write refused\.\n$/);
    expect(r.stdout).toMatch(/reader {2}read,propose-write/);
    expect(r.status).toBe(0);
  }, 120_000); // a command as a child process, as the multi-process suite's

  describe('served read-only (serve --read-only, and found out without it)', () => {
    let app: Headless;
    beforeAll(async () => {
      app = await startHeadless(tempDir(), { database: standby.urlOf('books'), port: 0, log: () => undefined, readOnly: true });
    }, 60_000);
    afterAll(() => app?.stop());

    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${app.server.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: (await res.json()) as any };
    };

    it('answers reads and reports', async () => {
      const page = await api('GET', '/transactions?limit=5&status=uncategorized');
      expect(page.status).toBe(200);
      expect(page.json.data).toHaveLength(5);
      expect((await api('GET', '/dashboard/summary')).status).toBe(200);
      expect((await api('GET', '/categories')).status).toBe(200);
    });

    it("refuses an agent's proposal and a sign-in with 503 read_only, and spends no sign-in code", async () => {
      const id = (await api('GET', '/transactions?limit=1&status=uncategorized')).json.data[0].id;
      const proposal = await api('POST', '/proposals/categorization', { transactionId: id, categoryCode: '5100' });
      expect(proposal).toMatchObject({ status: 503, json: { error: { code: 'read_only' } } });
      const byLink = await fetch(`${app.server.url}/desk/sign-in?code=${code}`, { redirect: 'manual' });
      expect(byLink.status).toBe(503);
      expect(byLink.headers.get('set-cookie')).toBeNull();
      const byPassword = await fetch(`${app.server.url}/desk/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.server.url },
        body: JSON.stringify({ email: 'someone@firm.example', password: 'a password of some length' }),
      });
      expect(byPassword.status).toBe(503);
      expect(((await byPassword.json()) as any).error.code).toBe('read_only');
      // The code is still there, unspent, on the primary.
      const c = new pg.Client({ connectionString: primary.urlOf('books') });
      await c.connect();
      expect((await c.query('SELECT count(*)::int AS n FROM sign_in_codes')).rows[0].n).toBe(1);
      await c.end();
    });

    it('is found read-only without being told', async () => {
      const found = await startHeadless(tempDir(), { database: standby.urlOf('books'), port: 0, log: () => undefined });
      try {
        expect(found.ledger.readOnly).toBe(true);
        expect(found.signInUrl).toBe('');
      } finally {
        await found.stop();
      }
    });
  });
});
