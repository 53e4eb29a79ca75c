// `ledgerdesk serve` as IT runs it (issue 51), a child process on both engines:
// its log is JSON lines on stderr (stdout keeps its addresses), each request's line naming its id, the 500's
// line naming the id its answer gave, and no secret in any line; SIGTERM lets a
// proposal whose body is still arriving finish (answered and stored with its
// audit entry) while new connections are refused, then exits 0; the owner's
// one-time link is printed only where nobody signs in with a password, or when asked.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { addMember } from '../src/main/ledger/access/people';
import { fillDemo } from '../src/main/demo';
import { booksFlags, databaseOf, onPostgres, openBooksOf } from './support/books';
import { tempDir } from './support/env';

const root = join(__dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');
const PASSWORD = 'correct horse battery staple';

function command(data: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args, ...booksFlags(data)], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

interface Served {
  child: ChildProcess;
  base: string;
  /** What it printed before its first log line (the start lines), and every log line since, parsed. */
  banner: () => string[];
  logs: () => Record<string, any>[];
  stdout: () => string;
  stderr: () => string;
  /** The first log line (so far or to come) that fits. */
  until: (fits: (line: Record<string, any>) => boolean) => Promise<Record<string, any>>;
  exited: Promise<number | null>;
}

function serve(data: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...booksFlags(data), ...args], { cwd: root, env: { ...process.env, LEDGERDESK_HEADLESS: '', ...env } });
  let out = '';
  let err = '';
  const waiting: (() => void)[] = [];
  const lines = () => out.split('\n').filter(Boolean);
  const logs = () => err.split('\n').flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Record<string, any>] : []));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr!.on('data', (c) => {
    err += c;
    for (const w of waiting.splice(0)) w();
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      for (const w of waiting.splice(0)) w();
      const base = /^(http:\/\/127\.0\.0\.1:\d+)\/api\/v1$/m.exec(out)?.[1];
      if (base)
        resolve({
          child,
          base,
          banner: () => lines().filter((l) => !l.startsWith('{')),
          logs,
          stdout: () => out,
          stderr: () => err,
          exited,
          until: (fits) =>
            new Promise((found, fail) => {
              const look = () => {
                const hit = logs().find(fits);
                if (hit) return found(hit);
                if (child.exitCode !== null) return fail(new Error(`serve exited without that line: ${out}${err}`));
                waiting.push(look);
              };
              look();
            }),
        });
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${out}${err}`)));
  });
}

const stop = async (s: Served): Promise<number | null> => {
  s.child.kill('SIGTERM');
  return s.exited;
};

/** A fault the server cannot foresee, made in the database from outside it: the notes table out of its reach, then back. */
async function notesOutOfReach<T>(data: string, fn: () => Promise<T>): Promise<T> {
  const books = await openBooksOf(data);
  const [away, back] = onPostgres
    ? ['REVOKE SELECT ON notes FROM ledgerdesk_app', 'GRANT SELECT ON notes TO ledgerdesk_app']
    : ['ALTER TABLE notes RENAME TO notes_away', 'ALTER TABLE notes_away RENAME TO notes'];
  await books.stmt(away).run();
  try {
    return await fn();
  } finally {
    await books.stmt(back).run();
    await books.end();
  }
}

/** Books to serve, made in this process (a command per step would cost seconds each): demo rows, an agent's token, a person invited. */
async function prepare(data: string, person?: { email: string; role: string }): Promise<{ token: string; txId: string; invitation: string | null }> {
  const books = await openBooksOf(data);
  try {
    const org = await books.forOrg('all', () => L.ensureDefaultOrganization(books));
    return await books.forOrg(org.seq, async () => {
      await fillDemo(books, org.seq, org.slug, 20, org.currency);
      const { token } = await L.createToken(books, org.seq, { name: 'agent', scopes: ['read', 'propose-write'] });
      const invitation = person ? (await addMember(books, org.seq, L.deskActor(), { ...person, name: 'Ann' })).invitation : null;
      const txId = (await books.stmt("SELECT id FROM transactions WHERE org_seq = ? AND status = 'uncategorized' ORDER BY seq LIMIT 1").pluck().get(org.seq)) as string;
      return { token, txId, invitation };
    });
  } finally {
    await books.end();
  }
}

describe('the log', () => {
  it('is a JSON line an event with an access line per request naming its id; a 500 names the id of its log line; no secret is in any line', async () => {
    const data = tempDir('ldk-serve-log-');
    const { token, txId, invitation } = await prepare(data, { email: 'ann@firm.example', role: 'bookkeeper' });
    const s = await serve(data, [], { LEDGERDESK_LOG_LEVEL: 'debug' });

    // The owner's one-time link, asked for, followed; the invitation's password set; a person signs in; an agent reads.
    const link = command(data, 'sign-in', ...(databaseOf(data) ? ['--url', s.base] : [])).trim();
    const code = new URL(link).searchParams.get('code')!;
    const owner = await fetch(link, { redirect: 'manual' });
    const ownerCookie = /ldk_desk=([^;]*)/.exec(owner.headers.get('set-cookie')!)![1];
    const json = { 'content-type': 'application/json' };
    expect((await fetch(`${s.base}/desk/invitation`, { method: 'POST', headers: json, body: JSON.stringify({ code: invitation!, password: PASSWORD }) })).status).toBe(200);
    const signedIn = await fetch(`${s.base}/desk/sign-in`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'ann@firm.example', password: PASSWORD }) });
    const personCookie = /ldk_desk=([^;]*)/.exec(signedIn.headers.get('set-cookie')!)![1];
    const read = await fetch(`${s.base}/api/v1/transactions?limit=2&access_token=${token}`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-me-1' } });
    expect([read.status, read.headers.get('x-request-id')]).toEqual([401, 'log-me-1']); // a token in the URL is refused, and not logged
    expect(
      (await fetch(`${s.base}/api/v1/transactions?limit=2`, { headers: { authorization: `Bearer ${token}`, cookie: `ldk_desk=${ownerCookie}`, 'x-request-id': 'log-me-2' } }))
        .status,
    ).toBe(200);
    const failed = await notesOutOfReach(data, () => fetch(`${s.base}/api/v1/transactions/${txId}`, { headers: { authorization: `Bearer ${token}` } }));
    const failure = ((await failed.json()) as { error: { details: { requestId: string } } }).error;
    expect(failed.status).toBe(500);

    const access = await s.until((l) => l.requestId === 'log-me-2' && l.msg === 'request');
    expect(access).toMatchObject({ level: 'info', method: 'GET', route: '/api/v1/transactions', path: '/api/v1/transactions', status: 200, pid: s.child.pid });
    expect(access.ms).toBeTypeOf('number');
    const id = failure.details.requestId;
    expect(failed.headers.get('x-request-id')).toBe(id);
    const error = await s.until((l) => l.requestId === id && l.level === 'error');
    expect(error.msg).toMatch(/^internal error: .*notes[\s\S]*\n\s+at /);
    expect(await s.until((l) => l.requestId === id && l.msg === 'request')).toMatchObject({ route: '/api/v1/transactions/{id}', status: 500 });
    expect(s.banner().join('\n')).not.toContain('sign-in?code='); // people sign in here: no owner link at start
    expect(await stop(s)).toBe(0);

    expect(s.banner()).toEqual(s.stdout().split('\n').filter(Boolean)); // no log line among the addresses
    const logLines = s
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(8);
    for (const secret of [token, token.slice(9), code, invitation!, PASSWORD, ownerCookie, personCookie, 'Bearer', 'access_token'])
      expect(
        logLines.filter((l) => l.includes(secret)),
        `a log line holds ${secret.slice(0, 12)}...`,
      ).toEqual([]);
    expect(logLines.map((l) => JSON.parse(l).msg)).toEqual(expect.arrayContaining(['serving', 'request received', 'request', 'stopped']));
  }, 180_000);
});

describe('SIGTERM', () => {
  it('lets a proposal whose body is still arriving finish, answered and stored with its audit entry, refuses new connections, and exits 0', async () => {
    const data = tempDir('ldk-serve-stop-');
    const { token, txId: transactionId } = await prepare(data);
    const s = await serve(data, [], { LEDGERDESK_LOG_LEVEL: 'debug' });
    const body = JSON.stringify({ transactionId, categoryCode: '5100', reason: 'in flight at SIGTERM' });
    const { port } = new URL(s.base);
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/proposals/categorization',
      agent: false,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': 'in-flight' },
    });
    const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
      });
    });
    req.write(body.slice(0, 20));
    await s.until((l) => l.requestId === 'in-flight' && l.msg === 'request received');
    s.child.kill('SIGTERM');
    await s.until((l) => l.msg?.startsWith('stopping'));
    // A new connection is refused; the request in flight gets the rest of its body, and its answer.
    const fresh = await new Promise<string>((done) => {
      const probe = request({ host: '127.0.0.1', port, path: '/healthz', agent: false }, () => done('answered'));
      probe.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? 'error'));
      probe.end();
    });
    expect(fresh).toBe('ECONNREFUSED');
    req.end(body.slice(20));
    const answered = await answer;
    expect(answered.status, answered.body).toBe(201);
    expect(answered.connection).toBe('close');
    const id = (JSON.parse(answered.body) as { data: { id: string } }).data.id;
    expect(await s.exited).toBe(0);
    expect(s.logs().at(-1)).toMatchObject({ msg: 'stopped' });
    expect(s.logs().find((l) => l.requestId === 'in-flight' && l.msg === 'request')).toMatchObject({ status: 201 });

    const books = await openBooksOf(data);
    try {
      expect(await books.stmt('SELECT status, reason FROM proposals WHERE id = ?').get(id)).toEqual({ status: 'pending', reason: 'in flight at SIGTERM' });
      expect(await books.stmt("SELECT count(*) FROM audit_log WHERE target_id = ? AND action = 'proposal.created'").pluck().get(id)).toBe(1);
      const org = (await L.listOrganizations(books))[0];
      expect(await books.forOrg(org.seq, () => L.verifyAuditChain(books, org.seq))).toMatchObject({ ok: true });
    } finally {
      await books.end();
    }
  }, 180_000);
});

describe("the owner's one-time link", () => {
  it('is printed where nobody signs in with a password (the first start), not once people do, and on request', async () => {
    const data = tempDir('ldk-serve-link-');
    const LINK = /^Screens: open this one-time sign-in link in your browser: (http:\/\/127\.0\.0\.1:\d+\/desk\/sign-in\?code=[\w-]{43})$/m;
    const first = await serve(data);
    expect(first.banner().join('\n')).toMatch(LINK);
    expect(await stop(first)).toBe(0);

    await prepare(data, { email: 'ann@firm.example', role: 'owner' });
    const firm = await serve(data);
    expect(firm.banner().join('\n')).not.toMatch(/sign-in\?code=/);
    expect(firm.banner()).toContain(
      `Screens: ${firm.base}/ (people sign in with their email and password (a one-time owner link: \`ledgerdesk sign-in\`, or serve --sign-in-link))`,
    );
    expect(await stop(firm)).toBe(0);

    const asked = await serve(data, ['--sign-in-link']);
    const link = LINK.exec(asked.banner().join('\n'))?.[1];
    expect(link).toBeDefined();
    const followed = await fetch(link!, { redirect: 'manual' });
    expect([followed.status, followed.headers.get('set-cookie')]).toEqual([303, expect.stringMatching(/^ldk_desk=/)]);
    expect(await stop(asked)).toBe(0);
  }, 180_000);
});
