#!/usr/bin/env node
// The `ledgerdesk` command (package.json bin). It runs the built JavaScript in
// out/cli, made by `npm install` and `npm run build`. A build older than its
// sources is never run silently: it is rebuilt first (esbuild, about a second)
// or, where the build tools are not installed, the command to run is named.
// LEDGERDESK_SOURCE=1 runs the TypeScript sources through tsx instead (the tests).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliStale, root, screensStale } from '../scripts/freshness.mjs';

if (process.env.LEDGERDESK_SOURCE) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/index.ts');
} else {
  const built = join(root, 'out', 'cli', 'index.js');
  if (cliStale()) {
    const what = existsSync(built) ? 'the sources changed since the last build' : 'the command is not built yet';
    if (!existsSync(join(root, 'node_modules', 'esbuild'))) {
      process.stderr.write(`ledgerdesk: ${what}: run "npm run build" in ${root}\n`);
      process.exit(1);
    }
    process.stderr.write(`ledgerdesk: ${what}: building the command line first ("npm run build" builds the screens too)...\n`);
    // Loaded here only: node:child_process (and the net and stream modules under it) cost every command ~10 ms.
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--cli'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  if (process.argv[2] === 'serve' && screensStale()) process.stderr.write('ledgerdesk: the screens are older than their sources: run "npm run build" to see the changes.\n');
  await import(pathToFileURL(built).href);
}
