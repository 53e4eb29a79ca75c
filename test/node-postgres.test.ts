// node-postgres loads without Node's fetch (src/main/ledger/core/postgres/node-navigator.ts): on Node 20 pg's
// Cloudflare check would otherwise construct a fetch Response, loading undici at the start of every command on a
// server's books; and the navigator lent to it while it loads is gone afterwards.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(__dirname, '..');

it('loads node-postgres without loading fetch, and leaves no navigator behind where there was none', () => {
  const script = [
    'const had = typeof globalThis.navigator;',
    "const { default: pg } = await import('./src/main/ledger/core/postgres/node-postgres.ts');",
    "const undici = process.moduleLoadList.filter((m) => m.includes('undici'));",
    'console.log(JSON.stringify({ had, after: typeof globalThis.navigator, undici, client: typeof pg.Client }));',
  ].join('\n');
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const seen = JSON.parse(r.stdout) as { had: string; after: string; undici: string[]; client: string };
  expect(seen).toEqual({ had: seen.had, after: seen.had, undici: [], client: 'function' });
});
