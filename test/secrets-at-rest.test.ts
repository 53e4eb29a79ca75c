// Secrets never in clear (issues 51-54), on both engines: books holding every
// kind of secret SEALED lists (a person's second factor, the mail password, a
// SimpleFIN access URL and a Stripe key, a bank sign-in's Enable Banking key
// while the bank has not yet sent the person back, HMRC's access and refresh tokens),
// each made as a person makes it (the desk over HTTP to a running server whose
// log is kept, owner commands as child processes), used once (a test message,
// a sync, HMRC's obligations), then searched for in clear: every file of the
// data folder, a backup the app makes, each export, the audit log, every answer
// of the desk, the REST API, MCP and the commands, the server's log and
// console; on PostgreSQL a pg_dump of the database. Books restored without
// their key ask to reconnect.
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember } from '../src/main/ledger/access/people';
import { totpCode } from '../src/main/ledger/access/totp';
import { openSecret, SEALED, type SecretKind } from '../src/main/ledger/core/secrets/sealed';
import { createLogger } from '../src/main/service/log';
import type { DeskContext } from '../src/main/desk/operations';
import { booksFlags, databaseOf, headlessBooks, onPostgres, openBooksOf, testBooks } from './support/books';
import { deskAs } from './support/desk';
import { tempDir } from './support/env';
import { SMTP_PASSWORD, SMTP_USER, smtpServer, type TestSmtp } from './support/smtp';
import { epoch, SimplefinDouble } from './doubles/simplefin';
import { startStripeDouble, type StripeDouble } from './doubles/stripe';
import { startHmrcDouble, type HmrcDouble } from './doubles/hmrc';
import { startEnableBankingDouble, type EnableBankingDouble } from './doubles/enable-banking';

const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
const PASSWORD = 'correct horse battery staple';
const STRIPE_KEY = 'rk_test_51AtRestReaderKeyNeverShownAnywhere';
const VRN = '123456782';
const EB_APP = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const ebKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const EB_PEM = ebKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** The key's base64 lines: found even where the PEM's line breaks were escaped (in JSON). */
const EB_KEY_LINES = EB_PEM.split('\n').filter((l) => l.length > 20);
const data = tempDir('ldk-at-rest-');
const work = tempDir('ldk-at-rest-out-');
const ENV_SET = [
  'LEDGERDESK_ENABLE_BANKING_URL',
  'LEDGERDESK_STRIPE_URL',
  'LEDGERDESK_HMRC_CLIENT_ID',
  'LEDGERDESK_HMRC_CLIENT_SECRET',
  'LEDGERDESK_HMRC_URL',
  'LEDGERDESK_MAIL_CA_FILE',
] as const;
const saved = ENV_SET.map((k) => process.env[k]);

let app: Headless;
let books: L.Ledger;
let org: L.Organization;
let bank: SimplefinDouble;
let stripe: StripeDouble;
let hmrc: HmrcDouble;
let eb: EnableBankingDouble;
let smtp: TestSmtp;
let cookie = '';
/** Everything the test was answered (desk, REST, MCP, commands) and everything the server wrote to its log or console. */
const answers: string[] = [];
const logged: string[] = [];

const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${app.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** The desk's operations on the person signed in, not on an organization. */
const PERSONAL = ['newSecondFactor', 'confirmSecondFactor', 'whoAmI'];

/** A desk operation over HTTP as the signed-in owner; its answer kept (unless `keep` is false: the one answer that shows a secret by design). */
async function desk<T = any>(name: string, input: Record<string, unknown> = {}, keep = true): Promise<T> {
  const body = PERSONAL.includes(name) ? input : { orgId: org.id, ...input };
  const res = await post(`/desk/api/${name}`, body, { cookie: `ldk_desk=${cookie}` });
  const text = await res.text();
  if (keep) answers.push(text);
  expect(res.status, `${name}: ${text}`).toBe(200);
  return (JSON.parse(text) as { data: T }).data;
}

/** An owner command as a child process, awaited (the doubles answer from this process); its output kept. */
function command(args: string[], env: Record<string, string> = {}, input = ''): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let [out, err] = ['', ''];
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (status) => {
      answers.push(out, err);
      resolve({ status, out, err });
    });
    child.stdin.end(input);
  });
}
const ledgerdesk = async (...args: string[]) => {
  const r = await command([...args, '--org', org.slug, ...booksFlags(data)]);
  expect(r.status, `${args.join(' ')}: ${r.err}`).toBe(0);
  return r.out;
};

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** `hmrc connect` as a person runs it: the command prints HMRC's link, the "browser" follows it back to the command's listener. */
async function connectHmrc(): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'hmrc', 'connect', VRN, '--org', org.slug, '--port', String(port), ...booksFlags(data)], { env: process.env });
  let [out, err] = ['', ''];
  child.stderr.on('data', (c) => (err += String(c)));
  const exited = new Promise<number | null>((ok) => child.on('exit', ok));
  const link = await new Promise<string>((ok, fail) => {
    child.stdout.on('data', (c) => {
      out += String(c);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(out);
      if (m) ok(m[1]);
    });
    void exited.then(() => fail(new Error(`hmrc connect exited: ${out} ${err}`)));
  });
  const signIn = await fetch(link, { redirect: 'manual' });
  await (await fetch(signIn.headers.get('location')!)).text();
  expect(await exited, err).toBe(0);
  answers.push(out, err);
}

/** Every secret the books keep, opened, by kind (the connector's JSON and each string in it). */
async function clearSecrets(): Promise<Map<SecretKind, string[]>> {
  const found = new Map<SecretKind, string[]>();
  for (const [kind, c] of Object.entries(SEALED) as [SecretKind, (typeof SEALED)[SecretKind]][]) {
    const rows = await books.rows<{ id: string; value: string }>(`SELECT id, ${c.column} AS value FROM ${c.table} WHERE ${c.column} IS NOT NULL`);
    const clear = rows.flatMap((r) => {
      const secret = openSecret(books, kind, r.id, r.value);
      const inner =
        kind === 'connector' || kind === 'connectorSignIn' ? Object.values(JSON.parse(secret) as Record<string, unknown>).filter((v): v is string => typeof v === 'string') : [];
      return [secret, ...inner];
    });
    found.set(kind, clear);
  }
  return found;
}

/** Every file under a folder, read whole (binary as latin1: the secrets are ASCII). */
function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) out[`data folder: ${name}`] = readFileSync(path, 'latin1');
  }
  return out;
}

beforeAll(async () => {
  [bank, stripe, hmrc, smtp, eb] = await Promise.all([
    SimplefinDouble.start(),
    startStripeDouble(STRIPE_KEY),
    startHmrcDouble({ vrn: VRN, obligations: [{ periodKey: '26A1', start: '2026-01-01', end: '2026-03-31', due: '2026-05-07' }] }),
    smtpServer(),
    startEnableBankingDouble({ applicationId: EB_APP, publicKey: ebKeys.publicKey as KeyObject }),
  ]);
  Object.assign(process.env, {
    LEDGERDESK_ENABLE_BANKING_URL: eb.url,
    LEDGERDESK_STRIPE_URL: stripe.url,
    LEDGERDESK_HMRC_CLIENT_ID: hmrc.clientId,
    LEDGERDESK_HMRC_CLIENT_SECRET: hmrc.clientSecret,
    LEDGERDESK_HMRC_URL: hmrc.url,
    LEDGERDESK_MAIL_CA_FILE: smtp.certFile,
  });
  const logger = createLogger({ level: 'trace', format: 'json' }, { write: (line: string) => logged.push(line) } as unknown as NodeJS.WritableStream);
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: (m) => logged.push(m), logger });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
  await books.forOrg(org.seq, () => addMember(books, org.seq, L.deskActor(), { email: 'owner@firm.example', name: 'Olive', role: 'owner', password: PASSWORD }));
  // What the process prints besides its log (a provider's afterSync failure, an unexpected error) is kept too.
  for (const level of ['log', 'error', 'warn', 'info', 'debug'] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
      original(...args);
    };
  }
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([bank?.close(), stripe?.close(), hmrc?.close(), smtp?.close(), eb?.close()]);
  ENV_SET.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
});

describe('every secret the books keep, nowhere in clear', () => {
  const totp = { secret: '' };

  it('is set up as a person sets each up: a second factor, mail, SimpleFIN, Stripe, HMRC; and each used once', async () => {
    const signIn = await post('/desk/sign-in', { email: 'owner@firm.example', password: PASSWORD });
    answers.push(await signIn.clone().text());
    cookie = /ldk_desk=([^;]*)/.exec(signIn.headers.get('set-cookie') ?? '')![1];
    // The one answer that shows a secret, by design: the new second factor, once, for the person's app.
    totp.secret = (await desk<{ secret: string }>('newSecondFactor', {}, false)).secret;
    await desk('confirmSecondFactor', { secret: totp.secret, code: totpCode(totp.secret, Date.now()) });

    await desk('setMailSettings', { host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: SMTP_USER, password: SMTP_PASSWORD, from: 'books@firm.example' });
    await desk('testMail', { to: 'olive@firm.example' });
    expect(smtp.received).toHaveLength(1);

    await desk('createAccount', { name: 'Checking', type: 'checking' });
    await desk('createAccount', { name: 'Stripe balance', type: 'payment_processor' });
    bank
      .account('acc-1', 'Checking', org.currency)
      .transactions.push({ id: 't1', posted: epoch(new Date().toISOString().slice(0, 10)), amount: '-9.99', description: 'SUBSCRIPTION' });
    await desk('addSimplefinConnector', { name: 'Bank', setupToken: bank.setupToken(), account: 'Checking' });
    stripe.balance = { ...stripe.balance, available: [{ amount: 0, currency: org.currency.toLowerCase() }] };
    await desk('addStripeConnector', { key: STRIPE_KEY, account: 'Stripe balance' });
    const synced = await desk<{ connector: string; outcome: string }[]>('syncAllConnectors');
    expect(synced.map((s) => [s.connector, s.outcome]).sort()).toEqual([
      ['Bank', 'ok'],
      ['Stripe', 'ok'],
    ]);

    // A bank sign-in begun on a server with a public address, the bank not yet come back: its key waits sealed.
    const server: DeskContext = { ledger: app.ledger, dataDir: data, agentUrl: '', publicUrl: 'https://books.firm.example', mode: 'browser', reviewer: L.deskActor() };
    const begun = await deskAs(server, org.id, 'addEnableBankingConnector', { applicationId: EB_APP, privateKey: EB_PEM, country: 'GB', bank: eb.banks[0].name });
    answers.push(JSON.stringify(begun));

    await connectHmrc();
    expect(await ledgerdesk('hmrc', 'obligations')).toMatch(/^26A1\s/m);

    const opened = await clearSecrets();
    // Every kind SEALED lists is held (a kind added later without a line here fails this), and they are the ones given.
    for (const [kind, values] of opened) expect(values.length, `no ${kind} secret in the books`).toBeGreaterThan(0);
    expect(opened.get('totp')).toContain(totp.secret);
    expect(opened.get('mail')).toContain(SMTP_PASSWORD);
    expect(opened.get('connector')).toEqual(expect.arrayContaining([bank.accessUrl, STRIPE_KEY]));
    expect(opened.get('connectorSignIn')).toContain(EB_PEM.trim());
  });

  it('is in no file of the data folder, backup, export, audit entry, answer, log line or database dump', async () => {
    const opened = await clearSecrets();
    const secrets = [...new Set([...[...opened.values()].flat(), totp.secret, SMTP_PASSWORD, STRIPE_KEY, bank.accessUrl, bank.password, ...EB_KEY_LINES])];

    // Answers of the REST API and MCP to a read token, and the desk's views of the same things.
    const token = (await books.forOrg(org.seq, () => L.createToken(books, org.seq, { name: 'reader', scopes: ['read'] }))).token;
    const rest = await fetch(`${app.server.url}/api/v1/connectors`, { headers: { authorization: `Bearer ${token}` } });
    answers.push(await rest.text());
    expect(rest.status).toBe(200);
    const mcp = new Client({ name: 'at-rest', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${app.server.url}/api/mcp?tools=all`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    answers.push(JSON.stringify(await mcp.callTool({ name: 'list_connectors', arguments: {} })));
    await mcp.close();
    for (const name of ['listConnections', 'mailSettings', 'hmrcStatus', 'whoAmI']) await desk(name);
    await desk('listAudit', { limit: 200 });

    const exports: Record<string, string> = {};
    for (const format of ['csv', 'hledger', 'beancount']) exports[`export ${format}`] = await ledgerdesk('export', '--format', format);
    const audit = JSON.stringify(await books.rows('SELECT * FROM audit_log'));
    const backup = join(work, 'books.backup');
    let backupText: string;
    let dump = '';
    if (onPostgres) {
      const r = await command(['backup', '--database', databaseOf(data)!, '--out', backup]);
      expect(r.status, r.err).toBe(0);
      // The app's backup is pg_dump's custom format (compressed): read back as the SQL a restore runs.
      const { bin, socketDir, port } = inject('postgres');
      backupText = spawnSync(join(bin, 'pg_restore'), ['--file=-', backup], { encoding: 'latin1', maxBuffer: 1 << 28 }).stdout;
      const name = new URL(databaseOf(data)!).pathname.slice(1);
      dump = spawnSync(join(bin, 'pg_dump'), ['--host', socketDir, '--port', String(port), '--username', 'ledgerdesk', '--format=plain', name], {
        encoding: 'latin1',
        maxBuffer: 1 << 28,
      }).stdout;
      expect(dump).toContain('COPY public.connectors');
    } else {
      const r = await command(['backup', '--out', backup, ...booksFlags(data)]);
      expect(r.status, r.err).toBe(0);
      backupText = readFileSync(backup, 'latin1');
    }
    expect(backupText).toContain('ldk-sealed:v1:');

    const haystacks: Record<string, string> = {
      ...filesUnder(data),
      backup: backupText,
      ...exports,
      audit,
      answers: answers.join('\n'),
      log: logged.join('\n'),
      'pg_dump of the database': dump,
    };
    if (!onPostgres) expect(Object.keys(haystacks)).toEqual(expect.arrayContaining(['data folder: ledger.db', 'data folder: ledger.db-wal', 'data folder: secret.key']));
    expect(logged.some((l) => l.includes('"msg"'))).toBe(true);
    for (const secret of secrets) for (const [where, text] of Object.entries(haystacks)) expect(text.includes(secret), `${where} holds a secret in clear`).toBe(false);
  });
});

describe('books restored without their key', () => {
  it('open and ask to reconnect: a connector, HMRC and the mail password say so in words; reconnecting keeps the history', async () => {
    const backup = join(work, 'books.backup');
    if (onPostgres) {
      // A server's books refuse to open without the key that sealed them (test/secrets.test.ts): there is nothing to reconnect.
      const r = spawnSync(process.execPath, [BIN, 'connector', 'list', '--org', org.slug, ...booksFlags(data)], {
        env: { ...process.env, LEDGERDESK_SECRET_KEY: '' },
        encoding: 'utf8',
      });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain('this process has no key to open them');
      return;
    }
    expect(existsSync(backup)).toBe(true);
    const elsewhere = tempDir('ldk-at-rest-elsewhere-');
    const restored = spawnSync(process.execPath, [BIN, 'restore', backup, '--data', elsewhere], { encoding: 'utf8' });
    expect(restored.status, restored.stderr).toBe(0);
    const there = await openBooksOf(elsewhere);
    try {
      const ctx: DeskContext = { ledger: there, dataDir: elsewhere, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
      const run = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
      const before = Number(await there.stmt('SELECT count(*) FROM transactions').pluck().get());
      const report = (await run<{ connector: string; outcome: string; error: string | null }[]>('syncAllConnectors')).find((r) => r.connector === 'Bank')!;
      expect(report.outcome).toBe('error');
      expect(report.error).toMatch(/^The credentials of "Bank" cannot be opened on these books: .*Reconnect "Bank"/);
      expect((await run<{ name: string; syncStatus: string; nextSyncAt: string | null }[]>('listConnections')).find((c) => c.name === 'Bank')).toMatchObject({
        syncStatus: 'error',
        nextSyncAt: null,
      });
      await expect(run('testMail', { to: 'olive@firm.example' })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'secret_key' } });
      await expect(run('hmrcObligations')).rejects.toMatchObject({ code: 'conflict', details: { reason: 'secret_key' } });
      // Reconnecting: a new setup token under the same name; the row already brought is not brought twice.
      await run('addSimplefinConnector', { name: 'Bank', setupToken: bank.setupToken() });
      expect(await run('syncConnector', { connector: 'Bank' })).toMatchObject({ outcome: 'ok', accounts: [{ imported: 0, duplicates: 1 }] });
      expect(Number(await there.stmt('SELECT count(*) FROM transactions').pluck().get())).toBe(before);
    } finally {
      there.close();
    }
  });
});
