// `npm start`: the desktop app where Electron can run; elsewhere (no Electron
// binary, no display) the headless server, said in one line. `npm install`
// built everything (scripts/build.mjs); a build older than its sources is
// rebuilt here first.
//
// Stopping: the headless server runs in this very process, so a signal to it
// stops the server. npm does not pass a SIGTERM on to the script it runs (it
// exits, and the shell between them goes too), so this process also stops
// when its parent is gone. Electron runs as a child that watches a pipe from
// this process (LEDGERDESK_LIFELINE): when this process ends in any way, on
// any platform, the pipe closes and the app quits.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appStale, cliStale, root } from './freshness.mjs';

const args = process.argv.slice(2);

function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

/**
 * Electron 42+ downloads its binary on first use: where a window can open, fetch
 * it now (it needs internet once); where none can, there is nothing to fetch it for.
 */
function electronForThisDesktop() {
  if (process.env.LEDGERDESK_HEADLESS) return null;
  if (!hasDisplay) return electronBinary();
  if (!electronBinary() && existsSync(join(root, 'node_modules', 'electron', 'install.js'))) {
    console.log('Downloading the Electron binary for the desktop app (once)...');
    spawnSync(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], { cwd: root, stdio: 'inherit' });
  }
  return electronBinary();
}

const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const bin = electronForThisDesktop();

/** Calls fn once the process that started this one has gone (checked twice a second). */
function whenParentGoes(fn) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    let alive = process.ppid === parent; // reparented on POSIX
    if (alive) {
      try {
        process.kill(parent, 0); // Windows keeps the number: ask whether it still runs
      } catch (error) {
        alive = error.code === 'EPERM';
      }
    }
    if (!alive) {
      clearInterval(timer);
      fn();
    }
  }, 500);
  timer.unref();
}

function buildIfStale() {
  if (!appStale() && !cliStale()) return;
  console.log('The sources changed since the last build: building (a few seconds)...');
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

if (bin && hasDisplay) {
  if (!existsSync(join(root, 'native', 'electron', 'better_sqlite3.node'))) {
    const prepared = spawnSync(process.execPath, [join(root, 'scripts', 'prepare-electron-sqlite.mjs')], { cwd: root, stdio: 'inherit' });
    if (prepared.status !== 0) process.exit(prepared.status ?? 1);
  }
  buildIfStale();
  const child = spawn(bin, [root, ...args], { cwd: root, stdio: ['pipe', 'inherit', 'inherit'], env: { ...process.env, LEDGERDESK_LIFELINE: '1' } });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
  whenParentGoes(() => child.kill('SIGTERM'));
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const why = process.env.LEDGERDESK_HEADLESS ? 'LEDGERDESK_HEADLESS is set' : !hasDisplay ? 'no display' : 'the Electron binary could not be downloaded';
  console.log(`Electron cannot run here (${why}): serving Ledgerdesk headless on 127.0.0.1, with the screens in your browser.`);
  buildIfStale();
  // The command line's `serve`, in this process (port: --port, else LEDGERDESK_PORT, else 7311).
  process.argv = [process.argv[0], join(root, 'bin', 'ledgerdesk.mjs'), 'serve', ...args];
  // As if told to stop: serve's own handler closes the server and removes the pid file.
  whenParentGoes(() => process.emit('SIGTERM'));
  await import('../bin/ledgerdesk.mjs');
}
