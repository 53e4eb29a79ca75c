// Builds better-sqlite3 for Electron's ABI into native/electron/, apart from
// the Node build in node_modules (which `npm test` and the CLI use). Needs
// internet (Electron headers). Never rebuild node_modules/better-sqlite3 in place.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const source = join(root, 'node_modules', 'better-sqlite3');
const work = mkdtempSync(join(tmpdir(), 'ldk-electron-sqlite-'));
try {
  cpSync(source, work, { recursive: true, filter: (p) => !p.includes(`${source}/build`) });
  console.log(`Building better-sqlite3 for Electron ${electronVersion} (this needs internet for the headers)...`);
  execFileSync(
    process.platform === 'win32' ? 'npx.cmd' : 'npx',
    ['--yes', 'node-gyp', 'rebuild', '--release', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers'],
    { cwd: work, stdio: 'inherit' },
  );
  const out = join(root, 'native', 'electron');
  mkdirSync(out, { recursive: true });
  cpSync(join(work, 'build', 'Release', 'better_sqlite3.node'), join(out, 'better_sqlite3.node'));
  console.log(`Wrote ${join(out, 'better_sqlite3.node')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
