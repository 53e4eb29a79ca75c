// Several `serve` processes on one PostgreSQL database (issue 44): agents'
// proposals with and without Idempotency-Key, imports, approvals and hand edits
// in two organizations across two processes at once; then the audit chains
// verify, every maintained total equals its recount, a key replayed on the
// other process answers the same proposal, and nothing acknowledged is lost
// when one process is SIGKILLed mid-write while the other goes on. Connected
// directly, and through PgBouncer in transaction pooling (issue 51).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as L from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { databaseOf } from './support/books';
import { tempDir } from './support/env';
import { expectTotalsMatchRows } from './support/aggregates';
import { startPgBouncer, type Pooler } from './support/postgres';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');
let url: string;
/** The processes' environment: behind the pooler, LEDGERDESK_DB_POOLER=transaction. */
let env: NodeJS.ProcessEnv = process.env;

function command(...args: string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args, '--database', url], { cwd: root, encoding: 'utf8', timeout: 120_000, env });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A command in the background (an import while the servers take other writes). */
function commandAsync(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, '--database', url], { cwd: root, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')}: ${err}`))));
  });
}

interface Server {
  root: string;
  child: ChildProcess;
  cookie: string;
}

async function serve(): Promise<Server> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', tempDir(), '--database', url], { cwd: root, env: { ...env, LEDGERDESK_HEADLESS: '' } });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const found = /^(http:\/\/127\.0\.0\.1:\d+)\/api\/v1$/m.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.stderr!.on('data', (c) => (out += c));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  // A desk session from a code written into the database by another process (`sign-in --database --url`).
  const link = command('sign-in', '--url', base).trim();
  const signedIn = await fetch(link, { redirect: 'manual' });
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
  return { root: base, child, cookie };
}

const stop = (s: Server, signal: NodeJS.Signals = 'SIGTERM') =>
  new Promise<void>((done) => {
    if (s.child.exitCode !== null || s.child.signalCode !== null) return done();
    s.child.once('exit', () => done());
    s.child.kill(signal);
  });

async function api(s: Server, token: string, method: string, path: string, body?: unknown, key?: string) {
  const res = await fetch(`${s.root}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...(key ? { 'idempotency-key': key } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), json: (await res.json()) as any };
}

async function desk(s: Server, name: string, input: unknown) {
  const res = await fetch(`${s.root}/desk/api/${name}`, { method: 'POST', headers: { cookie: s.cookie, 'content-type': 'application/json' }, body: JSON.stringify(input) });
  const answer = (await res.json()) as { data?: any; error?: { code: string; message: string } };
  if (answer.error) throw new Error(`${name}: ${answer.error.code}: ${answer.error.message}`);
  return answer.data;
}

interface Books {
  org: L.Organization;
  token: string;
  open: string[];
}

let owner: L.Ledger;
let servers: Server[] = [];
let books: Books[] = [];
let pooler: Pooler | undefined;

/** Two organizations' books in a new database, two `serve` processes on it: directly, or through PgBouncer. */
async function start(via: 'direct' | 'pooled'): Promise<void> {
  url = databaseOf(tempDir())!;
  env = process.env;
  if (via === 'pooled') {
    pooler = startPgBouncer(inject('postgres'), 8);
    url = pooler.urlOf(new URL(url).pathname.slice(1));
    env = { ...process.env, LEDGERDESK_DB_POOLER: 'transaction' };
  }
  books = [];
  for (const slug of ['alpha', 'beta']) {
    command('org', 'create', slug, '--name', slug.toUpperCase());
    command('demo', '--org', slug, '--transactions', '300');
  }
  owner = await openPostgres(url, { role: null, pooler: via === 'pooled' ? 'transaction' : 'none' });
  for (const slug of ['alpha', 'beta']) {
    const token = command('token', 'create', '--org', slug, '--name', 'agent', '--scopes', 'read,propose-write').trim().split('\n').at(-1)!;
    const org = (await L.findOrganization(owner, slug))!;
    const open = (await owner.stmt("SELECT id FROM transactions WHERE org_seq = ? AND status = 'uncategorized' ORDER BY seq").pluck().all(org.seq)) as string[];
    books.push({ org, token, open });
  }
  servers = await Promise.all([serve(), serve()]);
}

const statement = (slug: string) => {
  const file = join(tempDir(), `${slug}.csv`);
  const rows = Array.from({ length: 120 }, (_, i) => `2026-0${1 + (i % 6)}-${String(1 + (i % 27)).padStart(2, '0')},${-(i + 1)}.25,Imported ${slug} ${i},REF-${slug}-${i}`);
  writeFileSync(file, ['Date,Amount,Description,Reference', ...rows].join('\n'));
  return file;
};

describe.each(['direct', 'pooled'] as const)('two server processes on one database (%s)', (via) => {
  beforeAll(() => start(via), 420_000); // eight commands and two servers starting: minutes on a loaded machine
  afterAll(async () => {
    await Promise.all(servers.map((s) => stop(s)));
    // Once per set of books: a start that failed before opening them leaves the last set's, already ended.
    if (owner?.file.includes(new URL(url).pathname)) await owner.end();
    pooler?.stop();
    pooler = undefined;
  });

  it('take proposals, imports, approvals and hand edits in two organizations at once, and keep the books whole', async () => {
    const keys: { books: Books; key: string; body: unknown; id: string; on: number }[] = [];
    const work = books.flatMap((b, n) => {
      const proposals = servers.map(async (s, on) => {
        const mine = b.open.slice(on * 40, on * 40 + 40);
        for (const [i, transactionId] of mine.entries()) {
          const key = i % 2 === 0 ? randomUUID() : undefined;
          const body = { transactionId, categoryCode: '5100', confidence: 0.9, reason: `parallel ${on}` };
          const r = await api(s, b.token, 'POST', '/proposals/categorization', body, key);
          expect(r.status, JSON.stringify(r.json)).toBe(201);
          if (key) keys.push({ books: b, key, body, id: r.json.data.id, on });
          // Every fifth is approved at once on the other process, while proposals keep coming.
          if (i % 5 === 0) {
            const [review] = await desk(servers[1 - on], 'reviewProposals', { orgId: b.org.id, ids: [r.json.data.id], decision: 'approve' });
            expect(review.error).toBeNull();
          }
        }
      });
      const hand = (async () => {
        for (let i = 0; i < 15; i++)
          await desk(servers[n % 2], 'addTransaction', { orgId: b.org.id, account: 'Operating account', date: '2026-05-15', amount: `-${i + 1}.10`, description: `By hand ${i}` });
      })();
      const imported = commandAsync('import', statement(b.org.slug), '--org', b.org.slug, '--account', 'Operating account');
      return [...proposals, hand, imported];
    });
    await Promise.all(work);

    // A retry with the same key on the other process answers the same proposal.
    for (const k of keys.slice(0, 6)) {
      const again = await api(servers[1 - k.on], k.books.token, 'POST', '/proposals/categorization', k.body, k.key);
      expect(again.status).toBe(201);
      expect(again.replayed).toBe('true');
      expect(again.json.data.id).toBe(k.id);
    }
    for (const b of books) {
      expect(await owner.forOrg(b.org.seq, () => L.verifyAuditChain(owner, b.org.seq))).toMatchObject({ ok: true });
      expect(await owner.stmt("SELECT count(*) FROM proposals WHERE org_seq = ? AND reason LIKE 'parallel %'").pluck().get(b.org.seq)).toBe(80);
      expect(await owner.stmt("SELECT count(*) FROM transactions WHERE org_seq = ? AND description LIKE 'By hand %'").pluck().get(b.org.seq)).toBe(15);
      expect(await owner.stmt("SELECT count(*) FROM transactions WHERE org_seq = ? AND description LIKE 'Imported %'").pluck().get(b.org.seq)).toBe(120);
    }
    await expectTotalsMatchRows(owner);
  }, 180_000);

  it('count 40 parallel sign-ins at one address over both processes before checking them: 10 checked, then even the right password is refused (issue 51)', async () => {
    const password = 'a long enough passphrase';
    // Spawned without blocking this process: a blocked event loop misses a server closing an idle keep-alive socket,
    // and the next fetch would be sent on it ("other side closed").
    const added = await new Promise<{ status: number | null; stderr: string }>((done) => {
      const child = spawn(
        process.execPath,
        [BIN, 'user', 'add', 'guessed@firm.example', '--name', 'Guessed', '--org', 'alpha', '--role', 'bookkeeper', '--password-stdin', '--database', url],
        { cwd: root },
      );
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      child.once('exit', (status) => done({ status, stderr }));
      child.stdin.end(`${password}\n`);
    });
    expect(added.status, added.stderr).toBe(0);
    const signIn = (s: Server, guess: string) =>
      fetch(`${s.root}/desk/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'guessed@firm.example', password: guess }),
      });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(servers[i % 2], `wrong guess number ${i}`)));
    const statuses = answers.map((a) => a.status);
    // Counted before they are checked, in the database: 10 checked on the two processes together, 30 refused unchecked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    // After the 10th counted failure, the right password is refused too, on either process, while the lock lasts.
    for (const s of servers) expect((await signIn(s, password)).status).toBe(429);
    const alpha = books[0].org.seq;
    expect(await owner.stmt("SELECT count(*) FROM audit_log WHERE org_seq = ? AND action = 'person.locked'").pluck().get(alpha)).toBe(1);
  }, 60_000);

  it('loses nothing acknowledged when one process is killed mid-write, and the other goes on', async () => {
    const [doomed, survivor] = servers;
    const b = books[0];
    const acknowledged: string[] = [];
    let killed = false;
    let done = false;
    // Four writers at once: when the process dies some request is being written, not only waiting.
    const queue = b.open.slice(100, 200);
    const writer = async () => {
      for (let transactionId = queue.shift(); transactionId; transactionId = queue.shift()) {
        let r: Awaited<ReturnType<typeof api>>;
        try {
          r = await api(doomed, b.token, 'POST', '/proposals/categorization', { transactionId, categoryCode: '5200', reason: 'before the kill' });
        } catch (error) {
          if (killed) return; // the connection went with the process: that one was never acknowledged
          throw error;
        }
        expect(r.status, JSON.stringify(r.json)).toBe(201);
        acknowledged.push(r.json.data.id as string);
      }
    };
    const writing = Promise.all([writer(), writer(), writer(), writer()]).finally(() => (done = true));
    while (acknowledged.length < 15) {
      if (done) break; // every request answered before the kill: the writer ended (and said why, if it failed)
      await new Promise((r) => setTimeout(r, 5));
    }
    killed = true;
    doomed.child.kill('SIGKILL');
    await writing;
    // The other process goes on, on the same organization.
    for (const transactionId of b.open.slice(200, 210))
      expect((await api(survivor, b.token, 'POST', '/proposals/categorization', { transactionId, categoryCode: '5200' })).status).toBe(201);
    for (const id of acknowledged) expect((await api(survivor, b.token, 'GET', `/proposals/${id}`)).status).toBe(200);
    // What was written is whole: a proposal committed whose answer was lost with the process is there with its audit entry.
    const written = (await owner.stmt("SELECT count(*) FROM proposals WHERE org_seq = ? AND reason = 'before the kill'").pluck().get(b.org.seq)) as number;
    expect(written).toBeGreaterThanOrEqual(acknowledged.length);
    const audited =
      "SELECT count(*) FROM audit_log a JOIN proposals p ON p.id = a.target_id WHERE p.org_seq = ? AND p.reason = 'before the kill' AND a.action = 'proposal.created'";
    expect(await owner.stmt(audited).pluck().get(b.org.seq)).toBe(written);
    expect(await owner.forOrg(b.org.seq, () => L.verifyAuditChain(owner, b.org.seq))).toMatchObject({ ok: true });
    await expectTotalsMatchRows(owner);
  }, 120_000);
});
