// The official MCP conformance suite against /api/mcp, through a test-only
// proxy that adds the bearer token. Every check is read, not just the exit code.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { authProxy } from './support/auth-proxy';
import { tempDir, world, type World } from './support/env';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
  details?: { statusCode?: number; body?: { error?: { data?: { code?: string } } } };
}

let w: World;
let proxyUrl: string;
beforeAll(async () => {
  w = await world(50);
  const proxy = await authProxy(w.server, w.tokenA);
  proxyUrl = proxy.url;
  return () => proxy.close();
});

async function scenario(name: string): Promise<Check[]> {
  const out = tempDir('ldk-conformance-');
  await run(process.execPath, [CLI, 'server', '--url', `${proxyUrl}/api/mcp`, '--scenario', name, '-o', out], { timeout: 60_000 }).catch((e) => e);
  const [dir] = readdirSync(out);
  expect(dir, `no results for ${name}`).toBeDefined();
  return JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[];
}

describe('MCP conformance (0.1.13)', () => {
  for (const name of ['server-initialize', 'ping', 'tools-list']) {
    it(`passes ${name}`, async () => {
      const checks = await scenario(name);
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((c) => c.status !== 'SUCCESS')).toEqual([]);
    });
  }

  it('passes dns-rebinding-protection because the Host guard refused, not the token check', async () => {
    const checks = await scenario('dns-rebinding-protection');
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['localhost-host-rebinding-rejected', 'SUCCESS'],
      ['localhost-host-valid-accepted', 'SUCCESS'],
    ]);
    const rejected = checks[0].details!;
    expect(rejected.statusCode).toBe(403);
    expect(rejected.body?.error?.data?.code).toBe('forbidden_host');
    expect(checks[1].details!.statusCode).toBe(200);
  });
});
