// Where better-sqlite3's compiled addon is, named to it when a file is opened: without a name it asks its `bindings`
// helper, which works out its own folder from a stack trace and tries a dozen paths (2% of an owner command's start).
// A layout without the usual build (another package manager's, a prebuilt elsewhere) still gets that search, and so
// does the desktop app (Electron names its own addon, or packs it where only that search finds it).
import { createRequire } from 'node:module';

let found: string | null | undefined;

/** The addon npm builds (build/Release), or undefined where there is none: better-sqlite3 then looks for itself. */
export function sqliteAddon(): string | undefined {
  if (found === undefined) {
    if (process.versions.electron) return undefined;
    try {
      found = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
    } catch {
      found = null;
    }
  }
  return found ?? undefined;
}
