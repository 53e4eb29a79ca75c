// A server other people reach (issue 45), its transport: behind a TLS reverse proxy at a public URL (Host and Origin
// checked against it, cookies Secure, a session over plain HTTP refused), TLS of its own with a certificate made
// here, and the refusals of a server reachable beyond loopback without either, by startHeadless and by `serve`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planReach, reachNames } from '../src/main/api/reach';
import { startHeadless, type Headless } from '../src/main/headless';
import { headlessBooks } from './support/books';
import { certificate } from './support/certificate';
import { rawRequest, tempDir } from './support/env';

const root = join(__dirname, '..');
const TSX = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const CLI = join(root, 'src', 'cli', 'index.ts');
const PUBLIC = 'https://books.firm.example';
const quiet = { log: () => {} };

/** A stand-in for the built screens: the transport is what is tested, not them. */
function screens(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Ledgerdesk</title>');
  return dir;
}

/** https trusting `ca`; the certificate is checked against the URL's name even when a test sends another Host. */
function tls(url: string, ca: Buffer, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const { hostname } = new URL(url);
  const servername = /^[\d.]+$/.test(hostname) ? undefined : hostname; // no SNI for an IP address
  return new Promise<{ status: number; headers: import('node:http').IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = httpsRequest(url, { method: options.method ?? 'GET', headers: options.headers, ca, servername }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const codeOf = (body: string) => (JSON.parse(body) as { error: { code: string; details: unknown } }).error;
const cookieOf = (headers: import('node:http').IncomingHttpHeaders) => headers['set-cookie']?.[0] ?? '';
const desk = (op: string) => `/desk/api/${op}`;

function ledgerdesk(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [TSX, CLI, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `serve` as a child process, until it prints its API's address (the last line). */
/** `serve` started, once its last line (the API's address) is out and, on the other stream, what `alsoWaitFor` names (stdout and stderr arrive in no set order). */
function serve(args: string[], alsoWaitFor?: RegExp): Promise<{ output: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [TSX, CLI, 'serve', ...args], { cwd: root, env: { ...process.env, LEDGERDESK_HEADLESS: '' } });
  return new Promise((resolve, reject) => {
    let out = '';
    const ready = () => {
      if (/\/api\/v1$/m.test(out) && (!alsoWaitFor || alsoWaitFor.test(out)))
        resolve({ output: out, stop: () => new Promise((done) => (child.once('exit', (code) => done(code)), child.kill('SIGTERM'))) });
    };
    child.stderr.on('data', (c) => ((out += c), ready()));
    child.stdout.on('data', (chunk) => ((out += chunk), ready()));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

describe('behind a TLS reverse proxy at a public URL', () => {
  let app: Headless;
  let local: string;
  const proxied = { host: 'books.firm.example', 'x-forwarded-proto': 'https' };
  beforeAll(async () => {
    const data = tempDir();
    app = await startHeadless(data, { ...headlessBooks(data), port: 0, publicUrl: `${PUBLIC}/`, rendererDir: screens(), ...quiet });
    local = `http://127.0.0.1:${app.server.port}`;
  });
  afterAll(() => app?.stop());

  it('hands out the public URL: the server, the sign-in link', () => {
    expect(app.server.url).toBe(PUBLIC);
    expect(app.signInUrl).toMatch(/^https:\/\/books\.firm\.example\/desk\/sign-in\?code=/);
  });

  it('answers the public Host and Origin, and the loopback names; refuses a foreign Host or Origin', async () => {
    expect((await rawRequest(`${local}/`, { headers: proxied })).status).toBe(200);
    expect((await rawRequest(`${local}/`, { headers: { ...proxied, host: 'books.firm.example:443', origin: PUBLIC } })).status).toBe(200);
    expect((await rawRequest(`${local}/`)).status).toBe(200);
    for (const host of ['evil.example', 'books.firm.example.evil.example', `books.firm.example:${app.server.port}`]) {
      const res = await rawRequest(`${local}/`, { headers: { ...proxied, host } });
      expect([res.status, codeOf(res.body).code], host).toEqual([403, 'forbidden_host']);
    }
    for (const origin of ['https://evil.example', 'http://books.firm.example', 'null']) {
      const res = await rawRequest(`${local}/api/v1/transactions`, { headers: { ...proxied, origin } });
      expect([res.status, codeOf(res.body).code], origin).toEqual([403, 'forbidden_origin']);
    }
  });

  it('sets a Secure cookie, and refuses the session over plain HTTP (a cookie read on the way)', async () => {
    const link = new URL(await app.newSignInUrl());
    const path = `${link.pathname}${link.search}`;
    const signedIn = await rawRequest(`${local}${path}`, { headers: proxied });
    expect(signedIn.status).toBe(303);
    const cookie = cookieOf(signedIn.headers);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    const session = cookie.split(';')[0];
    const post = (headers: Record<string, string>) =>
      rawRequest(`${local}${desk('listOrganizations')}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: session, ...headers }, body: '{}' });
    expect((await post({ ...proxied, origin: PUBLIC })).status).toBe(200);
    const insecure: Record<string, string>[] = [{ host: 'books.firm.example' }, { ...proxied, 'x-forwarded-proto': 'http' }, {}];
    for (const headers of insecure) {
      const res = await post(headers);
      expect([res.status, codeOf(res.body)], JSON.stringify(headers)).toEqual([401, expect.objectContaining({ code: 'unauthorized', details: { reason: 'insecure' } })]);
    }
  });

  it('refuses a cross-site form post', async () => {
    const res = await rawRequest(`${local}${desk('listOrganizations')}`, {
      method: 'POST',
      headers: { ...proxied, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'x=1',
    });
    expect([res.status, codeOf(res.body).code]).toEqual([403, 'forbidden_origin']);
  });

  it('keeps the agent API and the MCP bridge token-only, naming the public URL to MCP clients', async () => {
    const rest = await rawRequest(`${local}/api/v1/transactions`, { headers: proxied });
    expect([rest.status, codeOf(rest.body).code]).toEqual([401, 'unauthorized']);
    const mcp = await rawRequest(`${local}/api/mcp`, {
      method: 'POST',
      headers: { ...proxied, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers['www-authenticate']).toContain(`resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource/api/mcp"`);
  });
});

describe('over TLS of its own', () => {
  const pem = certificate();
  let app: Headless;
  let port: number;
  beforeAll(async () => {
    const data = tempDir();
    app = await startHeadless(data, { ...headlessBooks(data), port: 0, tls: { cert: pem.cert, key: pem.key }, rendererDir: screens(), ...quiet });
    port = app.server.port;
  });
  afterAll(() => app?.stop());

  it('serves https by the names its certificate holds, with a Secure session cookie', async () => {
    expect(app.server.url).toBe(`https://127.0.0.1:${port}`);
    expect((await tls(`https://localhost:${port}/`, pem.cert)).status).toBe(200);
    const signedIn = await tls(app.signInUrl, pem.cert);
    expect(signedIn.status).toBe(303);
    expect(cookieOf(signedIn.headers)).toMatch(/; Secure/);
    const session = cookieOf(signedIn.headers).split(';')[0];
    const listed = await tls(`${app.server.url}${desk('listOrganizations')}`, pem.cert, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session, origin: `https://localhost:${port}` },
      body: '{}',
    });
    expect(listed.status).toBe(200);
    expect((await tls(`${app.server.url}/api/v1/transactions`, pem.cert)).status).toBe(401);
  });

  it('refuses a Host the certificate does not name, and a plain-http Origin', async () => {
    const host = await tls(`https://localhost:${port}/`, pem.cert, { headers: { host: `evil.example:${port}` } });
    expect([host.status, codeOf(host.body).code]).toEqual([403, 'forbidden_host']);
    const origin = await tls(`https://localhost:${port}/`, pem.cert, { headers: { origin: `http://localhost:${port}` } });
    expect([origin.status, codeOf(origin.body).code]).toEqual([403, 'forbidden_origin']);
  });

  it('listens beyond loopback with TLS: the certificate names are its Hosts', async () => {
    const data = tempDir();
    const wide = await startHeadless(data, { ...headlessBooks(data), listen: { host: '0.0.0.0' }, port: 0, tls: pem, rendererDir: screens(), ...quiet });
    try {
      const p = wide.server.port;
      expect(wide.server.url).toBe(`https://localhost:${p}`);
      expect((await tls(`https://localhost:${p}/`, pem.cert)).status).toBe(200);
      expect((await tls(`https://127.0.0.1:${p}/`, pem.cert, { headers: { host: `10.9.8.7:${p}` } })).status).toBe(403);
    } finally {
      await wide.stop();
    }
  });
});

describe('refused, with the reason and the flags that fix it', () => {
  it('by startHeadless, before the books open', async () => {
    const data = tempDir();
    await expect(startHeadless(data, { listen: { host: '0.0.0.0' }, port: 0, ...quiet })).rejects.toThrow(/beyond this computer.*--tls-cert <file> --tls-key <file>.*--public-url/);
    await expect(startHeadless(data, { port: 0, publicUrl: 'http://books.firm.example', ...quiet })).rejects.toThrow(/--public-url must be an https:\/\/ address/);
    await expect(startHeadless(data, { port: 0, publicUrl: 'https://books.firm.example/ledger', ...quiet })).rejects.toThrow(/bare origin/);
    expect(existsSync(join(data, 'ledger.db'))).toBe(false);
  });

  it('by serve (exit 2), flags and LEDGERDESK_PUBLIC_URL alike', () => {
    const data = tempDir();
    mkdirSync(data, { recursive: true });
    const wide = ledgerdesk(['serve', '--listen', '0.0.0.0:0', '--data', data]);
    expect([wide.code, wide.stderr]).toEqual([2, expect.stringMatching(/Listening on 0\.0\.0\.0 reaches beyond this computer.*--tls-cert <file> --tls-key <file>.*--public-url/)]);
    const plain = ledgerdesk(['serve', '--port', '0', '--data', data], { LEDGERDESK_PUBLIC_URL: 'http://books.firm.example' });
    expect([plain.code, plain.stderr]).toEqual([2, expect.stringContaining('--public-url must be an https:// address')]);
    const half = ledgerdesk(['serve', '--port', '0', '--tls-cert', '/nowhere.pem', '--data', data]);
    expect([half.code, half.stderr]).toEqual([2, expect.stringContaining('--tls-cert and --tls-key go together')]);
    expect(existsSync(join(data, 'ledger.db'))).toBe(false);
  });

  it('plans trust in the proxy only behind a public URL, and all of it only beyond loopback', () => {
    expect(planReach({}).trustProxy).toBe(false);
    expect(planReach({ publicUrl: PUBLIC }).trustProxy).toBe('loopback');
    expect(planReach({ listen: { host: '0.0.0.0' }, publicUrl: PUBLIC })).toMatchObject({ trustProxy: true, secure: true });
    expect(planReach({ listen: { host: '::1' } }).secure).toBe(false);
    expect([...reachNames(planReach({ publicUrl: 'https://Books.Firm.Example:8443' }))(7311).hosts]).toContain('books.firm.example:8443');
  });
});

describe('serve, reached by others', () => {
  it('--public-url: prints the public addresses and answers the proxy', async () => {
    const data = tempDir();
    const server = await serve(['--port', '0', '--public-url', PUBLIC, '--data', data], /Listening on 127\.0\.0\.1:\d+ over plain HTTP/);
    try {
      expect(server.output).toMatch(/Screens: .*https:\/\/books\.firm\.example\/desk\/sign-in\?code=/);
      expect(server.output).toContain(`MCP tool bridge: ${PUBLIC}/api/mcp`);
      expect(server.output.trim().split('\n').at(-1)).toBe(`${PUBLIC}/api/v1`);
      const port = /Listening on 127\.0\.0\.1:(\d+) over plain HTTP/.exec(server.output)?.[1];
      const res = await rawRequest(`http://127.0.0.1:${port}/api/v1/transactions`, { headers: { host: 'books.firm.example', 'x-forwarded-proto': 'https' } });
      expect([res.status, codeOf(res.body).code]).toEqual([401, 'unauthorized']);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('--listen with --tls-cert and --tls-key: https', async () => {
    const pem = certificate();
    const data = tempDir();
    const server = await serve(['--listen', '127.0.0.1:0', '--tls-cert', pem.certFile, '--tls-key', pem.keyFile, '--data', data]);
    try {
      const api = server.output.trim().split('\n').at(-1)!;
      expect(api).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect((await tls(`${api}/transactions`, pem.cert)).status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
