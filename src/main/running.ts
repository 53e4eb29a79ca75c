// Which process serves a data folder: the server (headless or desktop) writes
// its pid and its address to <data>/ledgerdesk.pid while it runs, so that
// `ledgerdesk restore` can refuse to replace books that are open and
// `ledgerdesk sign-in` can hand out a link to the running server.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const pidFile = (dataDir: string) => join(dataDir, 'ledgerdesk.pid');

export interface Running {
  pid: number;
  /** The server's base address (http://127.0.0.1:<port>), when it serves one. */
  url: string | null;
}

export function markRunning(dataDir: string, url: string | null = null): () => void {
  writeFileSync(pidFile(dataDir), JSON.stringify({ pid: process.pid, url }));
  return () => {
    if (runningPid(dataDir) === process.pid) rmSync(pidFile(dataDir), { force: true });
  };
}

/** The live Ledgerdesk server on this folder, or null (a stale file from a crash is ignored). */
export function running(dataDir: string): Running | null {
  if (!existsSync(pidFile(dataDir))) return null;
  const text = readFileSync(pidFile(dataDir), 'utf8').trim();
  let found: Running;
  try {
    // Earlier builds wrote the pid alone.
    found = text.startsWith('{') ? (JSON.parse(text) as Running) : { pid: Number(text), url: null };
  } catch {
    return null;
  }
  if (!Number.isInteger(found.pid) || found.pid <= 0) return null;
  try {
    process.kill(found.pid, 0);
    return found;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM' ? found : null;
  }
}

export const runningPid = (dataDir: string): number | null => running(dataDir)?.pid ?? null;
