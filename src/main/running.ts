// Which process serves a data folder (issue 51): the server (headless or desktop)
// holds an exclusive lock on <data>/ledgerdesk.lock for as long as it runs, and
// writes its pid and address to <data>/ledgerdesk.pid, so that `ledgerdesk
// restore` can refuse to replace books that are open, `ledgerdesk sign-in` can
// hand out a link to the running server, and a second start says where the first
// one is. The lock, not the pid file, says whether one runs: it is an SQLite
// EXCLUSIVE lock (an fcntl lock on POSIX, LockFileEx on Windows) held by this
// process's connection, which the system releases when the process ends, however
// it ends. A pid file left by a crash names a process id that another program may
// have by now (ids are reused within minutes on a busy machine): it is only read
// while the lock is held.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerError } from './ledger/core/errors';
import { sqliteAddon } from './ledger/core/sqlite/addon';

const pidFile = (dataDir: string) => join(dataDir, 'ledgerdesk.pid');
const lockFile = (dataDir: string) => join(dataDir, 'ledgerdesk.lock');

export interface Running {
  /** The serving process (0 when its pid file is not written yet). */
  pid: number;
  /** The server's base address (http://127.0.0.1:<port>), when it serves one. */
  url: string | null;
}

export interface LockOptions {
  /** better-sqlite3 built for another ABI (the desktop app's). */
  nativeBinding?: string;
}

/** The lock held by this process, or null when another holds it. `waitMs`: how long another's brief look may delay it. */
function takeLock(dataDir: string, waitMs: number, options: LockOptions = {}): Database.Database | null {
  mkdirSync(dataDir, { recursive: true });
  const nativeBinding = options.nativeBinding ?? sqliteAddon();
  const db = new Database(lockFile(dataDir), { timeout: waitMs, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
}

/** The folder held by this process: `announce` writes where it serves; `release` gives it back. */
export interface Held {
  announce(url: string | null): void;
  release(): void;
}

/**
 * Holds the folder for this process: refused (409 conflict) while another Ledgerdesk serves it. The system gives
 * it back anyway when the process ends.
 */
export function holdFolder(dataDir: string, options: LockOptions = {}): Held {
  // Another process's look at the lock (running(), a few microseconds) may be under way: wait for it.
  const lock = takeLock(dataDir, 2_000, options);
  if (!lock) {
    const other = readPidFile(dataDir);
    throw new LedgerError('conflict', `Ledgerdesk is already running for ${dataDir}${other ? ` (process ${other.pid})` : ''}: stop that one first.`, { pid: other?.pid ?? null });
  }
  return {
    announce: (url) => writeFileSync(pidFile(dataDir), JSON.stringify({ pid: process.pid, url })),
    release() {
      if (readPidFile(dataDir)?.pid === process.pid) rmSync(pidFile(dataDir), { force: true });
      lock.close();
    },
  };
}

/** holdFolder and announce at once (the desktop app): answers what gives the folder back. */
export function markRunning(dataDir: string, url: string | null = null, options: LockOptions = {}): () => void {
  const held = holdFolder(dataDir, options);
  held.announce(url);
  return () => held.release();
}

function readPidFile(dataDir: string): Running | null {
  if (!existsSync(pidFile(dataDir))) return null;
  const text = readFileSync(pidFile(dataDir), 'utf8').trim();
  try {
    // Earlier builds wrote the pid alone.
    const found = text.startsWith('{') ? (JSON.parse(text) as Running) : { pid: Number(text), url: null };
    return Number.isInteger(found.pid) && found.pid > 0 ? found : null;
  } catch {
    return null;
  }
}

/** The live Ledgerdesk server on this folder, or null: whoever holds the lock, as its pid file names it. */
export function running(dataDir: string): Running | null {
  if (!existsSync(lockFile(dataDir))) return null;
  const lock = takeLock(dataDir, 100);
  if (lock) {
    lock.close(); // free: nobody serves the folder, whatever a pid file left by a crash says
    return null;
  }
  return readPidFile(dataDir) ?? { pid: 0, url: null };
}
