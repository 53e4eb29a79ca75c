// A backup of a firm's server's books: pg_dump run for the person, as a role
// that row-level security does not bind (BYPASSRLS, or a superuser). As the
// app's login role pg_dump fails on the forced policies, and with
// --enable-row-security it writes a backup without one ledger row and exits 0:
// so the role is checked first, and every refusal names why before anything is
// written. The file is written beside its name and renamed when pg_dump ends
// well: nothing half-written is left under the name.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from './node-postgres';
import { LedgerError } from '../errors';
import { withoutPassword } from './address';
import { findClientProgram, libpqTarget, runClientProgram } from './programs';

export interface ServerBackupInfo {
  file: string;
  size: number;
  /** The address backed up, without its password. */
  database: string;
  role: string;
  organizations: number;
  auditEntries: number;
  pgDump: string;
  createdAt: string;
}

/** The role that can back up the books, as docs/postgres.md makes it. */
export const BACKUP_ROLE_SQL = 'CREATE ROLE ledgerdesk_backup LOGIN BYPASSRLS PASSWORD ...; GRANT pg_read_all_data TO ledgerdesk_backup;';

const refuse = (message: string, why: string) => new LedgerError('validation_failed', message, [{ field: 'database', message: why }]);

/** Connects as the address's own role (no SET ROLE, no migration: a backup changes nothing) for fn. */
export async function withServerClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

interface Facts {
  role: string;
  superuser: boolean;
  bypassrls: boolean;
  serverMajor: number;
  books: boolean;
}

async function facts(client: pg.Client): Promise<Facts> {
  const { rows } = await client.query<Facts>(
    `SELECT current_user AS role, r.rolsuper AS superuser, r.rolbypassrls AS bypassrls,
            current_setting('server_version_num')::int / 10000 AS "serverMajor",
            to_regclass('public.ledgerdesk_migrations') IS NOT NULL AS books
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  return rows[0];
}

/** What pg_dump must read and this role may not: the schema's tables and sequences (none, for a role made as documented). */
async function unreadable(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'S') AND NOT has_table_privilege(c.oid, 'SELECT')
      ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

/** Refuses, naming why, a backup that would fail or leave the books out; answers what the backup will hold. */
async function checkBackupRole(
  client: pg.Client,
  address: string,
  pgDumpMajor: number,
  pgDumpPath: string,
): Promise<{ role: string; organizations: number; auditEntries: number }> {
  const f = await facts(client);
  if (!f.books) throw refuse(`${address} holds no Ledgerdesk books (no ledgerdesk_migrations table): nothing was written.`, 'holds no Ledgerdesk books');
  if (!f.superuser && !f.bypassrls) {
    throw refuse(
      `The role ${f.role} can neither bypass row-level security nor is it a superuser: pg_dump would fail on the forced policies, or write a backup without the books' rows. ` +
        `Back up as a role made for it (as a superuser: ${BACKUP_ROLE_SQL}) and name it in --database. Nothing was written.`,
      `role ${f.role} can neither bypass row-level security nor is a superuser`,
    );
  }
  if (pgDumpMajor < f.serverMajor) {
    throw new LedgerError(
      'conflict',
      `${pgDumpPath} is of PostgreSQL ${pgDumpMajor}, older than the server (${f.serverMajor}): pg_dump refuses a newer server. Install the client programs of ${f.serverMajor} or newer. Nothing was written.`,
      {
        program: 'pg_dump',
        found: pgDumpMajor,
        server: f.serverMajor,
      },
    );
  }
  const hidden = await unreadable(client);
  if (hidden.length) {
    throw refuse(
      `The role ${f.role} may not read ${hidden.length} of the books' tables (${hidden.slice(0, 5).join(', ')}${hidden.length > 5 ? ', ...' : ''}): GRANT pg_read_all_data TO ${f.role}; as a superuser. Nothing was written.`,
      `role ${f.role} may not read every table`,
    );
  }
  const count = async (table: string) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  return { role: f.role, organizations: await count('organizations'), auditEntries: await count('audit_log') };
}

/**
 * Backs up the books at `url` to `file` with pg_dump (custom format: pg_restore reads it, whole or in part),
 * as the address's role; refused before anything is written when that role or pg_dump cannot make a whole backup.
 */
export async function dumpServer(url: string, file: string, env: NodeJS.ProcessEnv = process.env): Promise<ServerBackupInfo> {
  const address = withoutPassword(url);
  const pgDump = findClientProgram('pg_dump', env);
  const found = await withServerClient(url, (client) => checkBackupRole(client, address, pgDump.major, pgDump.path));
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.part`;
  rmSync(temp, { force: true });
  const target = libpqTarget(url, env);
  const createdAt = new Date().toISOString();
  try {
    // pg_dump's default row_security=off: were a policy to apply after all, it fails rather than leave rows out.
    const run = await runClientProgram(pgDump, ['--format=custom', '--no-password', `--file=${temp}`, `--dbname=${target.dbname}`], target.env);
    if (run.code !== 0)
      throw new LedgerError('conflict', `pg_dump failed (exit ${run.code}): ${run.stderr || 'it said nothing'}. Nothing was written.`, { program: 'pg_dump', exit: run.code });
    if (!existsSync(temp))
      throw new LedgerError('conflict', `${pgDump.path} ended well but wrote no file: is it PostgreSQL's pg_dump? Nothing was written.`, { program: 'pg_dump', exit: 0 });
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
  return { file, size: statSync(file).size, database: address, ...found, pgDump: pgDump.version, createdAt };
}
