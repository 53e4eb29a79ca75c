// Backups at the desk (the Backups screen: the list, the last one, "Back up
// now"), `ledgerdesk backup`, and the automatic daily backup the running app
// makes in <data>/backups, keeping the last DAILY_KEPT.
import { MACHINE } from '../roles';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import * as L from '../../ledger';
import { op, type DeskContext } from '../operation';

export const DAILY_KEPT = 7;
const DAILY = /^ledgerdesk-(\d{4}-\d{2}-\d{2})\.backup$/;
export const backupsDir = (dataDir: string): string => join(dataDir, 'backups');

export interface BackupFile {
  name: string;
  size: number;
  modifiedAt: string;
  daily: boolean;
}

export function listBackupFiles(dataDir: string): BackupFile[] {
  const dir = backupsDir(dataDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.backup'))
    .map((name) => {
      const s = statSync(join(dir, name));
      return { name, size: s.size, modifiedAt: s.mtime.toISOString(), daily: DAILY.test(name) };
    })
    .sort((a, b) => (a.modifiedAt < b.modifiedAt ? 1 : -1));
}

/** Today's automatic backup unless there is one; older daily ones beyond DAILY_KEPT removed. */
export async function dailyBackup(ledger: L.Ledger, dataDir: string, today = new Date().toISOString().slice(0, 10)): Promise<L.BackupInfo | null> {
  const dir = backupsDir(dataDir);
  const file = join(dir, `ledgerdesk-${today}.backup`);
  if (existsSync(file)) return null;
  mkdirSync(dir, { recursive: true });
  const made = await L.backupTo(ledger, file);
  const dailies = readdirSync(dir)
    .filter((n) => DAILY.test(n))
    .sort()
    .reverse();
  for (const old of dailies.slice(DAILY_KEPT)) rmSync(join(dir, old), { force: true });
  return made;
}

/** While the app runs: a daily backup a minute after start, then checked every hour. */
export function scheduleDailyBackups(ledger: L.Ledger, dataDir: string, log: (m: string) => void): () => void {
  let stopped = false;
  const run = async () =>
    dailyBackup(ledger, dataDir).then(
      (made) => made && log(`daily backup: ${made.file} (${made.size} bytes, ${made.receipts} receipt file(s))`),
      // Stopping the app closes the ledger under a backup in progress: its partial file is removed, and the next start takes it.
      (error: unknown) =>
        log(
          stopped ? 'daily backup left off: the app stopped while it ran; it runs again at the next start' : `daily backup failed: ${(error as Error)?.message ?? String(error)}`,
        ),
    );
  const first = setTimeout(() => void run(), 60_000);
  const hourly = setInterval(() => void run(), 60 * 60_000);
  first.unref();
  hourly.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(hourly);
  };
}

const nowName = () => `ledgerdesk-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.backup`;

async function backupNow(ctx: DeskContext, { out }: { out?: string }) {
  if (out && ctx.mode !== 'command') throw L.invalid([{ field: 'out', message: 'only an owner command writes to a path of its choosing' }]);
  const file = out ? resolve(out) : join(backupsDir(ctx.dataDir), nowName());
  return L.backupTo(ctx.ledger, file);
}

export const backupOperations = {
  /** A data folder's backups; books on a PostgreSQL server (`server`: its address) are backed up by its own tools, not here. */
  listBackups: op(MACHINE, z.strictObject({}), (ctx) =>
    ctx.ledger.engine === 'postgres'
      ? { server: ctx.ledger.file, folder: null, kept: 0, backups: [] as BackupFile[] }
      : { server: null, folder: backupsDir(ctx.dataDir), kept: DAILY_KEPT, backups: listBackupFiles(ctx.dataDir) },
  ),

  backupNow: op(MACHINE, z.strictObject({ out: z.string().min(1).max(4096).optional().describe('The backup file (default: a new file in <data>/backups)') }), backupNow, {
    name: 'backup',
    summary: "a consistent copy of the books and the receipts, in one file, while the app may be writing; a server's books: backup --database <url> [--out <file>] (pg_dump)",
    print: (b) => [`Backed up to ${b.file} (${b.size} bytes, ${b.receipts} receipt file(s)).`],
  }),
};
