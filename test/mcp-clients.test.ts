// Real MCP clients against the tool bridge: mcp-remote (the stdio proxy Claude
// Desktop uses) and the MCP Inspector's command line. With a good token they
// list the tools; with a bad one they say the token is wrong and where a good
// one comes from, instead of failing an OAuth registration with a 404.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { tempDir, world, type World } from './support/env';

const root = join(__dirname, '..');
const MCP_REMOTE = join(root, 'node_modules', 'mcp-remote', 'dist', 'proxy.js');
const INSPECTOR = join(root, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const WRONG = 'ldk_live_notarealtoken';
const OUR_WORDS = /Ledgerdesk does not use OAuth.*token sent was missing, unknown or revoked/;

let w: World;
let url: string;

beforeAll(async () => {
  w = await world(30);
  url = `${w.server.url}/api/mcp`;
});

/** The clients keep state under HOME (tokens, catalogs): each run gets its own, and no browser. */
function clientEnv(): NodeJS.ProcessEnv {
  const home = tempDir('ldk-mcp-client-');
  return {
    ...process.env,
    HOME: home,
    MCP_REMOTE_CONFIG_DIR: join(home, '.mcp-auth'),
    MCP_CATALOG_PATH: join(home, 'catalog.json'),
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    MCP_AUTO_OPEN_ENABLED: 'true',
    BROWSER: 'false',
  };
}

/** Runs a client to its end (or `ms`), feeding `input` lines; resolves with what it wrote. */
function run(args: string[], input: string[] = [], ms = 30_000): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: clientEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    for (const line of input) child.stdin.write(`${line}\n`);
    const timer = setTimeout(() => child.kill('SIGTERM'), ms);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ stdout, stderr });
    });
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

describe('mcp-remote', () => {
  it('lists the tools through the proxy with a good token', async () => {
    const child = spawn(process.execPath, [MCP_REMOTE, url, '--header', `Authorization: Bearer ${w.tokenA}`], { env: clientEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const answers: any[] = [];
    let buffer = '';
    const got = (id: number) =>
      new Promise<any>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer ${id}`)), 30_000);
        const check = () => {
          const hit = answers.find((a) => a.id === id);
          if (hit) {
            clearTimeout(timer);
            resolve(hit);
          } else setTimeout(check, 50);
        };
        check();
      });
    child.stdout.on('data', (c) => {
      buffer += c;
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) if (line.trim()) answers.push(JSON.parse(line));
    });
    child.stdin.write(`${initialize}\n`);
    expect((await got(1)).result.serverInfo.name).toBe('ledgerdesk');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    expect((await got(2)).result.tools).toHaveLength(12);
    child.kill('SIGTERM');
  }, 60_000);

  it('says the token is wrong, in our words, for a wrong or missing token', async () => {
    for (const headers of [['--header', `Authorization: Bearer ${WRONG}`], []]) {
      const { stderr } = await run([MCP_REMOTE, url, ...headers], [initialize]);
      expect(stderr).toMatch(OUR_WORDS);
      expect(stderr).not.toMatch(/HTTP 404|Not Found/);
    }
  }, 90_000);
});

describe('the MCP Inspector (command line)', () => {
  const inspector = (headers: string[], extra: string[] = []) => run([INSPECTOR, '--cli', url, '--transport', 'http', ...headers, '--method', 'tools/list', ...extra]);

  it('lists the twelve default tools with a good token', async () => {
    const { stdout } = await inspector(['--header', `Authorization: Bearer ${w.tokenA}`]);
    expect(JSON.parse(stdout).tools.map((t: { name: string }) => t.name)).toHaveLength(12);
  }, 60_000);

  it('says the token is wrong, whether it tries to sign in or only uses what it was given', async () => {
    const signIn = await inspector(['--header', `Authorization: Bearer ${WRONG}`]);
    expect(signIn.stdout + signIn.stderr).toMatch(OUR_WORDS);
    // A revoked token, told as such by the 401 itself.
    const revoked = await L.createToken(w.ledger, w.orgA.seq, { name: 'old', scopes: ['read'] });
    await L.revokeToken(w.ledger, w.orgA.seq, revoked.info.id);
    const given = await inspector(['--header', `Authorization: Bearer ${revoked.token}`], ['--stored-auth-only']);
    expect(given.stdout + given.stderr).toContain('The bearer token was revoked; create a new one in Tokens.');
  }, 90_000);
});
