// Backups of a data folder's books: one file holding the ledger (copied with
// SQLite's online backup, consistent while the server writes), receipts' files
// included (they live in the ledger since issue 44; a backup from before keeps
// them in a table of its own, backup_files, which a restore writes back), so a
// backup is a single SQLite file that integrity_check covers. A PostgreSQL
// server's books are backed up with its own tools (pg_dump).
// Restore checks a backup before it touches anything, keeps the books it
// replaces as a backup, and refuses while Ledgerdesk runs on the folder.
// (A server's: core/postgres/dump.ts and restore.ts.)
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Ledger } from './open';
import { LedgerError } from '../errors';
import { findShipped } from '../paths';

export interface BackupInfo {
  file: string;
  size: number;
  receipts: number;
  createdAt: string;
}

/** Writes a backup of the open ledger (receipts' files in it) to `file` (atomically: a temp file, then renamed). */
export async function backupTo(ledger: Ledger, file: string): Promise<BackupInfo> {
  if (ledger.engine !== 'sqlite')
    throw new LedgerError(
      'conflict',
      "A PostgreSQL server's books are backed up with pg_dump: ledgerdesk backup --database <address of a role that bypasses row-level security> (docs/postgres.md).",
      null,
    );
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.part`;
  rmSync(temp, { force: true });
  try {
    await ledger.sqlite.backup(temp);
    const copy = new Database(temp);
    const createdAt = new Date().toISOString();
    let receipts: number;
    try {
      copy.pragma('journal_mode = DELETE');
      // backup_files stays (empty) so that the format reads as before.
      copy.exec('CREATE TABLE backup_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE backup_files (path TEXT PRIMARY KEY, bytes BLOB NOT NULL)');
      copy.prepare('INSERT INTO backup_meta (key, value) VALUES (?, ?), (?, ?)').run('created_at', createdAt, 'format', 'ledgerdesk-backup-1');
      receipts = (copy.prepare('SELECT count(*) AS n FROM receipt_files').get() as { n: number }).n;
    } finally {
      copy.close();
    }
    renameSync(temp, file);
    return { file, size: statSync(file).size, receipts, createdAt };
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** A backup's checks: a Ledgerdesk backup, intact, consistent, of a schema this build knows. Throws with the reason. */
export function checkBackup(file: string): { createdAt: string; receipts: number } {
  if (!existsSync(file)) throw new LedgerError('validation_failed', `No backup at ${file}.`, [{ field: 'backup', message: 'no such file' }]);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('schema_version'); // reads the header: a file that is not SQLite fails here
  } catch (error) {
    throw new LedgerError('validation_failed', `${file} is not a backup Ledgerdesk can read (${(error as Error).message}).`, [{ field: 'backup', message: 'not a SQLite file' }]);
  }
  const refuse = (why: string) =>
    new LedgerError('validation_failed', `${file} cannot be restored: ${why}. The current books were not touched.`, [{ field: 'backup', message: why }]);
  try {
    const meta = (() => {
      try {
        return new Map((db.prepare('SELECT key, value FROM backup_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
      } catch {
        return null;
      }
    })();
    if (!meta?.has('created_at')) throw refuse('it is not a Ledgerdesk backup (made with "ledgerdesk backup")');
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw refuse(`its integrity check failed (${String(integrity)})`);
    const broken = db.pragma('foreign_key_check') as unknown[];
    if (broken.length) throw refuse(`${broken.length} row(s) point at rows that are not there (foreign key check)`);
    // drizzle's migrator pulls in its query layer (~80 ms): required when a backup is checked, not by every command.
    const { readMigrationFiles } = createRequire(import.meta.url)('drizzle-orm/migrator') as typeof import('drizzle-orm/migrator');
    const known = new Set(readMigrationFiles({ migrationsFolder: findShipped('db/migrations') }).map((m) => m.hash));
    const applied = db.prepare('SELECT hash FROM __drizzle_migrations').all() as { hash: string }[];
    if (applied.some((m) => !known.has(m.hash))) throw refuse('it was written by a newer Ledgerdesk build; update Ledgerdesk first');
    const { n } = db.prepare('SELECT count(*) AS n FROM backup_files').get() as { n: number };
    const kept = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'receipt_files'").get()
      ? (db.prepare('SELECT count(*) AS n FROM receipt_files').get() as { n: number }).n
      : 0;
    return { createdAt: meta.get('created_at')!, receipts: n + kept };
  } finally {
    db.close();
  }
}

/**
 * Replaces the folder's ledger with a checked backup: the backup is copied
 * beside the ledger, its receipt files written out, its backup tables dropped,
 * and only then moved into place (the current ledger's WAL files removed with it).
 */
export function restoreInto(ledgerFile: string, receiptsDir: string, backupFile: string): { receipts: number } {
  const staging = `${ledgerFile}.restoring`;
  rmSync(staging, { force: true });
  copyFileSync(backupFile, staging);
  const db = new Database(staging);
  let receipts = 0;
  try {
    for (const f of db.prepare('SELECT path, bytes FROM backup_files').iterate() as Iterable<{ path: string; bytes: Buffer }>) {
      const target = join(receiptsDir, ...f.path.split('/'));
      if (!target.startsWith(receiptsDir) || existsSync(target)) continue;
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.bytes);
      receipts++;
    }
    db.exec('DROP TABLE backup_files; DROP TABLE backup_meta;');
    db.exec('VACUUM');
  } finally {
    db.close();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${ledgerFile}${suffix}`, { force: true });
  renameSync(staging, ledgerFile);
  return { receipts };
}
