// Is a build older than its sources? Used by bin/ledgerdesk.mjs (the command)
// and scripts/start.mjs (the app) so that a stale build never runs silently.
// Every command pays for this walk (~380 files): one readdir a folder and one
// stat a file, no path normalizing (it was a tenth of a command's start-up).
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The newest modification time under a path (0 when it does not exist). */
function newest(path) {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  let time = s.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const at = `${path}/${entry.name}`;
    time = Math.max(time, entry.isDirectory() ? newest(at) : (statSync(at, { throwIfNoEntry: false })?.mtimeMs ?? 0));
  }
  return time;
}

const older = (built, sources) => {
  const at = statSync(join(root, built), { throwIfNoEntry: false });
  return !at || at.mtimeMs < Math.max(...sources.map((p) => newest(join(root, p))));
};

/** The command and headless server (out/cli): the main-process and command-line sources and the data they bundle. */
export const cliStale = () => older('out/cli/index.js', ['src/cli', 'src/main', 'src/shared', 'db/ontology.json', 'db/ontology-context.json']);

/** The screens (out/renderer). */
export const screensStale = () => older('out/renderer/index.html', ['src/renderer', 'src/shared']);

/** The screens and the desktop shell (out/renderer, out/main, out/preload). */
export const appStale = () => screensStale() || older('out/main/index.js', ['src/main', 'src/shared', 'db']) || older('out/preload/index.js', ['src/preload', 'src/shared']);
