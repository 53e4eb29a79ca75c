// Real things only: ledger files in temp folders, the HTTP server on port 0.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { atFileEnd } from './file-end';
import { createOrganization, createToken, deskActor, openLedger, type Ledger, type Organization } from '../../src/main/ledger';
import { addMember, personByEmail } from '../../src/main/ledger/access/people';
import { booksFlags, openBooksOf, serverBooks } from './books';
import { recountAfterEach } from './recount';
import { startServer, type RunningServer } from '../../src/main/api/server';
import { fillDemo } from '../../src/main/demo';

export function tempDir(prefix = 'ldk-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  atFileEnd(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A SQLite ledger in a temp folder, whatever the run's engine: for what only SQLite has (its driver, its files' upgrades). */
export function tempSqliteLedger(): { ledger: Ledger; dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, 'ledger.db');
  const ledger = openLedger(file);
  atFileEnd(() => ledger.close());
  return { ledger, dir, file };
}

/** New books in a temp folder, on the run's engine (support/books.ts); `file` is the SQLite file (on PostgreSQL, where it would be). */
export async function tempLedger(): Promise<{ ledger: Ledger; dir: string; file: string }> {
  const dir = tempDir();
  const file = join(dir, 'ledger.db');
  const ledger = await openBooksOf(dir);
  const forget = recountAfterEach(ledger);
  atFileEnd(() => {
    forget();
    return ledger.end();
  });
  return { ledger, dir, file };
}

export interface World {
  ledger: Ledger;
  dir: string;
  server: RunningServer;
  base: string;
  orgA: Organization;
  orgB: Organization;
  /** read + propose-write on A */
  tokenA: string;
  tokenAId: string;
  readOnlyA: string;
  writeOnlyA: string;
  /** read on A, made by a person whose role there is client (issue 45): what a client reads only. */
  clientA: string;
  tokenB: string;
}

/** Two organizations with demo books, tokens of each kind, and a running server. */
export async function world(transactions = 300): Promise<World> {
  const { ledger, dir } = await tempLedger();
  const orgA = await createOrganization(ledger, { slug: 'acme', name: 'Acme Ltd' });
  const orgB = await createOrganization(ledger, { slug: 'beta', name: 'Beta GmbH', currency: 'EUR' });
  await fillDemo(ledger, orgA.seq, orgA.slug, transactions, orgA.currency);
  await fillDemo(ledger, orgB.seq, orgB.slug, 50, orgB.currency);
  const a = await createToken(ledger, orgA.seq, { name: 'A agent', scopes: ['read', 'propose-write'] });
  const served = await serverBooks(ledger, dir);
  const server = await startServer({ ledger: served, port: 0, log: () => {} });
  atFileEnd(() => server.close());
  return {
    ledger,
    dir,
    server,
    base: `${server.url}/api/v1`,
    orgA,
    orgB,
    tokenA: a.token,
    tokenAId: a.info.id,
    readOnlyA: (await createToken(ledger, orgA.seq, { name: 'A reader', scopes: ['read'] })).token,
    writeOnlyA: (await createToken(ledger, orgA.seq, { name: 'A writer', scopes: ['propose-write'] })).token,
    clientA: await clientToken(ledger, orgA),
    tokenB: (await createToken(ledger, orgB.seq, { name: 'B agent', scopes: ['read', 'propose-write'] })).token,
  };
}

/** A read token of a person who is a client of the organization. */
async function clientToken(ledger: Ledger, org: Organization): Promise<string> {
  await ledger.forOrg(org.seq, () =>
    addMember(ledger, org.seq, deskActor(), { email: 'client@acme.example', name: 'A client', role: 'client', password: 'a long enough passphrase' }),
  );
  const userSeq = (await personByEmail(ledger, 'client@acme.example'))!.seq;
  return (await createToken(ledger, org.seq, { name: "A client's", scopes: ['read'], userSeq })).token;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: json stays undefined and the test says so */
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** node:http, because fetch may not set Host: for the loopback guard's tests. */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: import('node:http').IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A ledger file as an older build left it: opened with only the migrations up
 * to `lastTag` (a copy of db/migrations with its journal cut there).
 */
export function ledgerAtMigration(lastTag: string): { ledger: Ledger; file: string } {
  const root = join(__dirname, '..', '..', 'db', 'migrations');
  const folder = tempDir('ldk-migrations-');
  const journal = JSON.parse(readFileSync(join(root, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === lastTag);
  if (cut < 0) throw new Error(`no migration ${lastTag}`);
  mkdirSync(join(folder, 'meta'));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut + 1) }));
  for (const e of journal.entries.slice(0, cut + 1)) copyFileSync(join(root, `${e.tag}.sql`), join(folder, `${e.tag}.sql`));
  const file = join(tempDir(), 'ledger.db');
  return { ledger: openLedger(file, { migrationsFolder: folder }), file };
}

/** Runs the owner command (`bin/ledgerdesk.mjs ... --data <data>`) as a child process; expects it to succeed and answers its output. */
export function ownerCommand(data: string): (...args: string[]) => string {
  const bin = join(__dirname, '..', '..', 'bin', 'ledgerdesk.mjs');
  return (...args) => {
    const r = spawnSync(process.execPath, [bin, ...args, ...booksFlags(data)], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
}

/** The accountants' tools the export tests run (hledger, bean-check): where Debian installs them, or a failure saying how to get them. */
export function accountantTool(name: string): string {
  const found = ['/usr/bin', '/usr/local/bin'].map((d) => join(d, name)).find((p) => existsSync(p));
  if (!found) throw new Error(`${name} is not installed: "sudo apt-get install -y hledger beancount" (Debian/Ubuntu). The export tests run the real tools.`);
  return found;
}
