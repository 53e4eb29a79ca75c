// Is a build older than its sources? Used by bin/ledgerdesk.mjs (the command)
// and scripts/start.mjs (the app) so that a stale build never runs silently.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The newest modification time under a path (0 when it does not exist). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let time = s.mtimeMs;
  for (const name of readdirSync(path)) time = Math.max(time, newest(join(path, name)));
  return time;
}

const older = (built, sources) => {
  const at = join(root, built);
  return !existsSync(at) || statSync(at).mtimeMs < Math.max(...sources.map((p) => newest(join(root, p))));
};

/** The command and headless server (out/cli): the main-process and command-line sources and the data they bundle. */
export const cliStale = () => older('out/cli/index.js', ['src/cli', 'src/main', 'src/shared', 'db/ontology.json', 'db/ontology-context.json']);

/** The screens (out/renderer). */
export const screensStale = () => older('out/renderer/index.html', ['src/renderer', 'src/shared']);

/** The screens and the desktop shell (out/renderer, out/main, out/preload). */
export const appStale = () => screensStale() || older('out/main/index.js', ['src/main', 'src/shared', 'db']) || older('out/preload/index.js', ['src/preload', 'src/shared']);
