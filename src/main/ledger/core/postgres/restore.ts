// Restoring a server's backup (a pg_dump custom archive) into a new, empty
// database: the roles first (a DBA's setup, docs/postgres.md), then pg_restore
// run as the role Ledgerdesk logs in as, the database's owner, in one
// transaction: all of it or nothing. Each refusal names why before anything is
// touched; a database that already holds tables is never written over.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { LedgerError } from '../errors';
import { withoutPassword } from './address';
import { READER_ROLE, SERVER_ROLE } from './driver';
import { withServerClient } from './dump';
import { postgresMigrations } from './open';
import { findClientProgram, libpqTarget, runClientProgram, type ClientProgram } from './programs';

/** The roles a DBA makes before a restore (docs/postgres.md, "Setting up the database"). */
export const ROLES_SQL = `CREATE ROLE ledgerdesk LOGIN PASSWORD ...; CREATE ROLE ${SERVER_ROLE} NOLOGIN; CREATE ROLE ${READER_ROLE} NOLOGIN; GRANT ${SERVER_ROLE}, ${READER_ROLE} TO ledgerdesk;`;

const badBackup = (file: string, why: string) =>
  new LedgerError('validation_failed', `${file} cannot be restored: ${why}. Nothing was restored.`, [{ field: 'backup', message: why }]);
const badTarget = (message: string, why: string) => new LedgerError('validation_failed', `${message} Nothing was restored.`, [{ field: 'database', message: why }]);

/** A pg_dump archive of Ledgerdesk books, whose migrations this build knows; refused otherwise. */
function checkArchive(file: string, pgRestore: ClientProgram, env: NodeJS.ProcessEnv): void {
  if (!existsSync(file)) throw new LedgerError('validation_failed', `No backup at ${file}.`, [{ field: 'backup', message: 'no such file' }]);
  const head = Buffer.alloc(5);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== 'PGDMP') throw badBackup(file, 'it is not a pg_dump archive (made by "ledgerdesk backup --database" or pg_dump --format=custom)');
  const run = (args: string[]) => execFileSync(pgRestore.path, [...args, file], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  let list: string;
  try {
    list = run(['--list']);
  } catch (error) {
    throw badBackup(file, `pg_restore ${pgRestore.version} cannot read it (${String((error as { stderr?: string }).stderr ?? '').trim() || (error as Error).message})`);
  }
  if (!/TABLE DATA public ledgerdesk_migrations /.test(list)) throw badBackup(file, 'it holds no Ledgerdesk books (no ledgerdesk_migrations table)');
  // The migrations it holds, as COPY rows (name, hash, applied_at): each must be one this build has.
  const rows = run(['--data-only', '--table=ledgerdesk_migrations', '--file=-'])
    .split('\n')
    .filter((l) => /^\d{4}_\S*\.sql\t/.test(l))
    .map((l) => l.split('\t'));
  const known = postgresMigrations();
  const unknown = rows.filter(([name, hash]) => !known.some((m) => m.name === name && m.hash === hash));
  if (unknown.length) throw badBackup(file, `it was written by a newer or different Ledgerdesk build (${unknown.map(([n]) => n).join(', ')}); update Ledgerdesk first`);
}

/** The target: an empty database owned by the role restoring it, which is a member of the server's role and the reader's. */
async function checkTarget(url: string, address: string): Promise<void> {
  const t = await withServerClient(url, async (client) => {
    const { rows } = await client.query<{ role: string; owner: string; tables: string; missing: string | null; apart: string | null }>(
      `SELECT current_user AS role, pg_get_userbyid(d.datdba) AS owner,
              (SELECT count(*) FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')) AS tables,
              (SELECT string_agg(r, ', ') FROM unnest($1::text[]) r WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r)) AS missing,
              (SELECT string_agg(r, ', ') FROM unnest($1::text[]) r WHERE EXISTS (SELECT FROM pg_roles WHERE rolname = r) AND NOT pg_has_role(current_user, r, 'MEMBER')) AS apart
         FROM pg_database d WHERE d.datname = current_database()`,
      [[SERVER_ROLE, READER_ROLE]],
    );
    return rows[0];
  });
  if (Number(t.tables) > 0)
    throw badTarget(`${address} already holds ${t.tables} table(s): a backup is restored into a new, empty database (CREATE DATABASE ... as in docs/postgres.md).`, 'is not empty');
  // Both roles: the backup's grants and policies name them (the server's, and the reader of several organizations).
  if (t.missing || t.apart)
    throw badTarget(
      `The roles come first: ${t.missing ? `there is no role ${t.missing}` : `${t.role} is not a member of ${t.apart}`}. As a superuser: ${ROLES_SQL}`,
      `role ${t.missing ?? t.apart} missing or not granted`,
    );
  if (t.role !== t.owner)
    throw badTarget(
      `Restore as the role Ledgerdesk logs in as, the database's owner (${t.owner}), not ${t.role}: the tables it restores are its own, as its later migrations need.`,
      `role ${t.role} does not own the database`,
    );
}

/** Restores a pg_dump archive of Ledgerdesk books into the empty database at `url`, all or nothing. */
export async function restoreServer(url: string, file: string, env: NodeJS.ProcessEnv = process.env): Promise<{ database: string; pgRestore: string }> {
  const address = withoutPassword(url);
  const pgRestore = findClientProgram('pg_restore', env);
  checkArchive(file, pgRestore, env);
  await checkTarget(url, address);
  const target = libpqTarget(url, env);
  const run = await runClientProgram(pgRestore, ['--exit-on-error', '--single-transaction', '--no-owner', '--no-password', `--dbname=${target.dbname}`, file], target.env);
  if (run.code !== 0)
    throw new LedgerError('conflict', `pg_restore failed (exit ${run.code}): ${run.stderr || 'it said nothing'}. Nothing was restored (one transaction).`, {
      program: 'pg_restore',
      exit: run.code,
    });
  return { database: address, pgRestore: pgRestore.version };
}
