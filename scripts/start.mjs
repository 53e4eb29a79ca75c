// `npm start`: the desktop app where Electron can run; elsewhere (no Electron
// binary, no display) the headless server, said in one line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const bin = process.env.LEDGERDESK_HEADLESS ? null : electronBinary();

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

/** The screens (and the Electron main/preload bundles): a second or two with electron-vite. */
function build() {
  const built = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

if (bin && hasDisplay) {
  if (!existsSync(join(root, 'native', 'electron', 'better_sqlite3.node'))) {
    const prepared = spawnSync(process.execPath, [join(root, 'scripts', 'prepare-electron-sqlite.mjs')], { cwd: root, stdio: 'inherit' });
    if (prepared.status !== 0) process.exit(prepared.status ?? 1);
  }
  build();
  run(bin, [root, ...args]);
} else {
  const why = bin ? 'no display' : 'the Electron binary is not installed';
  console.log(`Electron cannot run here (${why}): serving Ledgerdesk headless on 127.0.0.1, with the screens in your browser.`);
  build();
  run(process.execPath, [join(root, 'bin', 'ledgerdesk.mjs'), 'serve', ...args]);
}
