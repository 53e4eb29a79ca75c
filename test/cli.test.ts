// The owner's commands exactly as documented, as child processes on real data folders.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../src/main/paths';
import { tempDir } from './support/env';

const root = join(__dirname, '..');
const TSX = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const CLI = join(root, 'src', 'cli', 'index.ts');
/** The command in this process (LEDGERDESK_SOURCE: the sources through tsx's loader, no child process between). */
const BIN = join(root, 'bin', 'ledgerdesk.mjs');

function ledgerdesk(...args: string[]) {
  const r = spawnSync(process.execPath, [TSX, CLI, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.trim().split('\n') };
}

function serve(
  data: string,
  command = [TSX, CLI, 'serve'],
  options: { port?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<{ base: string; output: () => string; stop: () => Promise<number | null>; child: ChildProcess }> {
  const child = spawn(process.execPath, [...command, ...(options.port ?? ['--port', '0']), '--data', data], {
    cwd: root,
    env: { ...process.env, LEDGERDESK_HEADLESS: '', ...options.env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stderr.on('data', (c) => (out += c));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const base = /^(http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/m.exec(out)?.[1];
      if (base)
        resolve({
          base,
          child,
          output: () => out,
          stop: () =>
            new Promise((done) => {
              child.once('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

describe('ledgerdesk owner commands', () => {
  it('demo, token create/list/revoke and serve work together on one data folder', async () => {
    const data = tempDir();
    const demo = ledgerdesk('demo', '--data', data, '--org', 'acme', '--transactions', '250');
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/^Demo data for acme \(acme\): 250 transactions/);

    const server = await serve(data);
    const created = ledgerdesk('token', 'create', '--data', data, '--org', 'acme', '--name', 'ci agent', '--scopes', 'read,propose-write');
    expect(created.code, created.stderr).toBe(0);
    const token = created.lines.at(-1)!;
    expect(token).toMatch(/^ldk_live_[0-9A-Za-z]{49}$/);

    const res = await fetch(`${server.base}/transactions?limit=5`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).meta.totalCount).toBe(250);

    const listed = ledgerdesk('token', 'list', '--data', data, '--org', 'acme');
    const id = /^(\S+)\s+ci agent\s+read,propose-write/m.exec(listed.stdout)?.[1];
    expect(id, listed.stdout).toBeDefined();
    expect(listed.stdout).not.toContain(token);
    expect(ledgerdesk('token', 'revoke', id!, '--data', data, '--org', 'acme').code).toBe(0);
    const after = await fetch(`${server.base}/transactions`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    expect(await server.stop()).toBe(0);
  });

  it('creates a default organization on an empty folder and refuses bad usage with exit 2', () => {
    const data = tempDir();
    const created = ledgerdesk('token', 'create', '--data', data, '--name', 'first', '--scopes', 'read');
    expect(created.code, created.stderr).toBe(0);
    expect(ledgerdesk('org', 'list', '--data', data).stdout).toMatch(/^default\s+My organization\s+USD/m);
    expect(ledgerdesk('token', 'create', '--data', data, '--name', 'x', '--scopes', 'admin').code).toBe(1);
    expect(ledgerdesk('frobnicate').code).toBe(2);
    expect(ledgerdesk('demo', '--data', data, '--transactions', 'many').code).toBe(2);
    expect(ledgerdesk('serve', '--bogus').code).toBe(2);
  });

  it('token and demo need --org when the folder keeps several organizations, and name the one they acted on', () => {
    const data = tempDir();
    const first = ledgerdesk('token', 'create', '--data', data, '--name', 'first', '--scopes', 'read');
    expect(first.lines[0]).toMatch(/^Created token "first" \([0-9a-f-]{36}\) for My organization \(default\) with scopes read\.$/);
    expect(ledgerdesk('org', 'create', 'studio', '--name', 'Hartley Studio', '--data', data).code).toBe(0);
    const several = 'Several organizations: My organization (default), Hartley Studio (studio); name one with --org <slug>.';
    for (const args of [
      ['token', 'create', '--name', 'second', '--scopes', 'read'],
      ['token', 'list'],
      ['demo', '--transactions', '5'],
    ]) {
      const refused = ledgerdesk(...args, '--data', data);
      expect([refused.code, refused.stdout, refused.stderr], args.join(' ')).toEqual([1, '', expect.stringContaining(several)]);
    }
    const made = ledgerdesk('token', 'create', '--data', data, '--org', 'studio', '--name', 'second', '--scopes', 'read');
    expect(made.lines[0]).toContain('for Hartley Studio (studio) with scopes read.');
    const id = /\(([0-9a-f-]{36})\)/.exec(made.lines[0])![1];
    expect(ledgerdesk('token', 'revoke', id, '--data', data, '--org', 'studio').stdout).toMatch(/^Revoked token "second" \(.*\) of Hartley Studio \(studio\) at /);
  });

  it('npm start falls back to the headless server with a one-line explanation, with a default organization', async () => {
    const data = tempDir();
    const server = await serve(data, [join(root, 'scripts', 'start.mjs')]);
    expect(server.output().split('\n')[0]).toMatch(/^Electron cannot run here \(.+\): serving Ledgerdesk headless/);
    expect((await fetch(`${server.base}/ontology.jsonld`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(ledgerdesk('org', 'list', '--data', data).stdout).toMatch(/^default\s/m);
  });

  it('npm start listens on LEDGERDESK_PORT, and SIGTERM to it stops the server it started', async () => {
    const data = tempDir();
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const server = await serve(data, [join(root, 'scripts', 'start.mjs')], { port: [], env: { LEDGERDESK_PORT: String(port) } });
    expect(server.base).toBe(`http://127.0.0.1:${port}/api/v1`);
    expect(existsSync(join(data, 'ledgerdesk.pid'))).toBe(true);
    expect(await server.stop()).toBe(0);
    await expect(fetch(`${server.base}/ontology.jsonld`)).rejects.toThrow();
    expect(existsSync(join(data, 'ledgerdesk.pid'))).toBe(false);
    const bad = spawnSync(process.execPath, [TSX, CLI, 'serve', '--data', data], { cwd: root, encoding: 'utf8', env: { ...process.env, LEDGERDESK_PORT: 'http' } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/LEDGERDESK_PORT must be a port number/);
  });

  it('a second npm start says Ledgerdesk is running and gives a sign-in link to it; a port taken by another folder is named', async () => {
    const data = tempDir();
    const first = await serve(data, [join(root, 'scripts', 'start.mjs')]);
    const again = spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs'), '--port', '0', '--data', data], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, LEDGERDESK_HEADLESS: '1' },
    });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout + again.stderr).not.toMatch(/EADDRINUSE/);
    const origin = first.base.replace('/api/v1', '');
    expect(again.stdout).toContain(`Ledgerdesk is already running for ${data}`);
    const link = new RegExp(`sign-in link in your browser: (${origin}/desk/sign-in\\?code=\\S+)`).exec(again.stdout)?.[1];
    expect(link).toBeDefined();
    // The link signs a browser in to the running server.
    const signedIn = await fetch(link!, { redirect: 'manual' });
    expect(signedIn.headers.get('set-cookie')).toMatch(/HttpOnly/);
    const port = new URL(origin).port;
    const other = spawnSync(process.execPath, [TSX, CLI, 'serve', '--port', port, '--data', tempDir()], { cwd: root, encoding: 'utf8' });
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(new RegExp(`Port ${port} on 127.0.0.1 is taken by another program .*--port <p>`));
    expect(other.stderr).not.toMatch(/EADDRINUSE/);
    expect(await first.stop()).toBe(0);
  });

  it("a pid file naming another program's live process (a reused id) does not block a start; a live server does, and a second start names it", async () => {
    const data = tempDir();
    const other = spawn('sleep', ['600']);
    try {
      // What a crash leaves, after the system gave its process id to another program.
      writeFileSync(join(data, 'ledgerdesk.pid'), JSON.stringify({ pid: other.pid, url: 'http://127.0.0.1:9' }));
      const first = await serve(data, [BIN, 'serve']);
      expect(first.output()).not.toContain('already running');
      const again = ledgerdesk('serve', '--port', '0', '--data', data);
      expect(again.code, again.stderr).toBe(0);
      const pid = Number(/already running for .* \(process (\d+)\) at (http:\S+)\./.exec(again.stdout)?.[1]);
      expect(pid).not.toBe(other.pid);
      expect(again.stdout).toContain(first.base.replace('/api/v1', ''));
      expect(ledgerdesk('restore', join(data, 'nothing.backup'), '--data', data).stderr).toMatch(/Ledgerdesk is running on .* \(process \d+\): stop it/);
      expect(await first.stop()).toBe(0);
      // Killed outright, a server leaves its pid file; the next start is not blocked by it (nor by the id's next owner).
      const killed = await serve(data, [BIN, 'serve']);
      const gone = new Promise((done) => killed.child.once('exit', done));
      killed.child.kill('SIGKILL');
      await gone;
      expect(existsSync(join(data, 'ledgerdesk.pid'))).toBe(true);
      writeFileSync(join(data, 'ledgerdesk.pid'), String(other.pid)); // as earlier builds wrote it
      const after = await serve(data, [BIN, 'serve']);
      expect(after.output()).not.toContain('already running');
      expect(await after.stop(), after.output()).toBe(0);
      expect(existsSync(join(data, 'ledgerdesk.pid'))).toBe(false);
    } finally {
      other.kill();
    }
  }, 120_000);

  it('stopping `npm start` with SIGTERM stops the server too (npm does not pass the signal on)', async () => {
    const data = tempDir();
    const npm = spawn('npm', ['start', '--', '--port', '0', '--data', data], { cwd: root, env: { ...process.env, LEDGERDESK_HEADLESS: '1' } });
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      npm.stdout.on('data', (c) => {
        out += c;
        const found = /^(http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/m.exec(out)?.[1];
        if (found) resolve(found);
      });
      npm.once('exit', (code) => reject(new Error(`npm start exited ${code}: ${out}`)));
    });
    expect((await fetch(`${base}/ontology.jsonld`)).status).toBe(200);
    npm.kill('SIGTERM');
    await expect
      .poll(
        async () =>
          fetch(`${base}/ontology.jsonld`).then(
            () => 'serving',
            () => 'stopped',
          ),
        { timeout: 5000 },
      )
      .toBe('stopped');
    await expect.poll(() => existsSync(join(data, 'ledgerdesk.pid')), { timeout: 5000 }).toBe(false);
  });

  it('an MCP client configured as the README says lists the 12 tools and runs the categorization workflow against npm start', async () => {
    const data = tempDir();
    const server = await serve(data, [join(root, 'scripts', 'start.mjs')]);
    expect(ledgerdesk('demo', '--data', data, '--transactions', '60').code).toBe(0);
    const created = ledgerdesk('token', 'create', '--data', data, '--name', 'Claude', '--scopes', 'read,propose-write');
    expect(created.code, created.stderr).toBe(0);
    const client = new Client({ name: 'readme-client', version: '1.0.0' });
    const url = new URL(server.base.replace(/\/api\/v1$/, '/api/mcp'));
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${created.lines.at(-1)}` } } }));
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return (result.structuredContent as { data: any }).data;
    };

    expect((await client.listTools()).tools).toHaveLength(12);
    const category = (await call('list_categories')).find((c: { name: string }) => c.name === 'Software & tools');
    const [target] = await call('list_transactions', { status: 'uncategorized', limit: 1 });
    expect((await call('get_transaction', { id: target.id })).transaction.status).toBe('uncategorized');
    const proposal = await call('propose_categorization', {
      transactionId: target.id,
      categoryCode: category.code,
      confidence: 0.8,
      reason: 'Recurring software subscription',
      evidence: [{ type: 'keyword', value: target.description }],
    });
    expect(proposal).toMatchObject({ status: 'pending', proposedBy: expect.stringMatching(/^mcp:/) });
    expect((await call('list_pending_proposals')).map((p: { id: string }) => p.id)).toContain(proposal.id);
    await client.close();
    expect(await server.stop()).toBe(0);
  });

  it('defaults to the per-user app-data folder of the OS', () => {
    expect(defaultDataDir({ HOME: '/home/a' }, 'linux')).toMatch(/\.config\/Ledgerdesk$/);
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Ledgerdesk');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toMatch(/Roaming.Ledgerdesk$/);
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/Ledgerdesk$/);
  });
});
