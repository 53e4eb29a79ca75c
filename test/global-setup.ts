// Once before every suite: what the tests need from Debian (installed here
// where the run can, else a stop naming the one command: scripts/test-tools.mjs),
// then the app as `npm install` builds it (screens, shell, command line),
// rebuilt only when older than its sources. The browser tests
// serve out/renderer; test/built.test.ts runs out/cli; none of them builds
// on its own, so parallel suites never write out/ at the same time.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { appStale, cliStale } from '../scripts/freshness.mjs';
import { ensureTestTools } from '../scripts/test-tools.mjs';

export default function setup(): void {
  ensureTestTools();
  if (!appStale() && !cliStale()) return;
  const root = join(__dirname, '..');
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
}
