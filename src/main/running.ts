// Which process serves a data folder: the server (headless or desktop) writes
// its pid to <data>/ledgerdesk.pid while it runs, so that `ledgerdesk restore`
// can refuse to replace books that are open.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const pidFile = (dataDir: string) => join(dataDir, 'ledgerdesk.pid');

export function markRunning(dataDir: string): () => void {
  writeFileSync(pidFile(dataDir), String(process.pid));
  return () => {
    if (runningPid(dataDir) === process.pid) rmSync(pidFile(dataDir), { force: true });
  };
}

/** The pid of a live Ledgerdesk server on this folder, or null (a stale file from a crash is ignored). */
export function runningPid(dataDir: string): number | null {
  if (!existsSync(pidFile(dataDir))) return null;
  const pid = Number(readFileSync(pidFile(dataDir), 'utf8'));
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM' ? pid : null;
  }
}
