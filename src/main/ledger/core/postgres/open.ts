// Opening a PostgreSQL database: forward-only migrations from db/postgres, run
// once however many processes start together (a transaction-level advisory
// lock: the others wait, then find nothing due; it ends with its transaction,
// so a transaction pooler cannot strand it on a connection), and refusal of a
// database written by a newer build, as a SQLite file is refused. A database
// whose schema is current is opened without a write: a read replica opens.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { NewerLedgerError } from '../sqlite/open';
import { findShipped } from '../paths';
import { PostgresLedger, type PostgresDriverOptions } from './driver';
import { withoutPassword } from './address';
import { postgresSettings } from './settings';

export { withoutPassword };

/** The advisory lock's key: "ldk-migr" as a 64-bit integer, the same in every process and build. */
const MIGRATION_LOCK = '7810485496620607346';

export interface PostgresOptions extends PostgresDriverOptions {
  migrationsFolder?: string;
  /** Where the settings not given here are read (LEDGERDESK_DB_*; default process.env). */
  env?: NodeJS.ProcessEnv;
}

interface Migration {
  name: string;
  hash: string;
  sql: string;
}

export function postgresMigrations(folder = findShipped('db/postgres')): Migration[] {
  return readdirSync(folder)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort()
    .map((name) => {
      const sql = readFileSync(join(folder, name), 'utf8');
      return { name, hash: createHash('sha256').update(sql).digest('hex'), sql };
    });
}

/** A read-only database (a hot standby) whose schema is behind this build: it cannot be migrated there. */
export class ReadOnlySchemaError extends Error {
  override name = 'ReadOnlySchemaError';
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresLedger> {
  const { migrationsFolder, env, ...driver } = options;
  const given = Object.fromEntries(Object.entries(driver).filter(([, v]) => v !== undefined));
  const ledger = new PostgresLedger(withoutPassword(url), url, { ...postgresSettings(env), ...given });
  const log = options.log ?? (() => undefined);
  try {
    const known = postgresMigrations(migrationsFolder);
    const readOnly = await migrate(ledger, known, log);
    if (readOnly && !ledger.readOnly) log(`${ledger.file} is read-only (a hot standby): serving reads only, every write refused.`);
    ledger.readOnly ||= readOnly;
    ledger.knownMigrations = known.length;
    return ledger;
  } catch (error) {
    await ledger.end();
    throw error;
  }
}

interface Found {
  readOnly: boolean;
  applied: { name: string; hash: string }[];
}

/** What the database says, read without writing: read-only or not, and the migrations applied (none without the table). */
async function look(client: pg.PoolClient): Promise<Found> {
  const state = (
    await client.query<{ ro: number; made: number }>(
      "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' AS ro, to_regclass('ledgerdesk_migrations') IS NOT NULL AS made",
    )
  ).rows[0];
  const applied = state.made ? (await client.query<{ name: string; hash: string }>('SELECT name, hash FROM ledgerdesk_migrations ORDER BY name')).rows : [];
  return { readOnly: state.ro === 1, applied };
}

/** The migrations due, after refusing a database that holds one this build does not know. */
function due(known: Migration[], applied: Found['applied']): Migration[] {
  const unknown = applied.filter((a) => !known.some((m) => m.name === a.name && m.hash === a.hash));
  if (unknown.length > 0) {
    throw new NewerLedgerError(
      `This database was written by a newer or different Ledgerdesk build (${unknown.length} migration(s) this build does not know: ${unknown.map((u) => u.name).join(', ')}). ` +
        'Update Ledgerdesk to open it; the database was not changed.',
    );
  }
  return known.filter((k) => !applied.some((a) => a.name === k.name));
}

/** Applies what is due, in one transaction under the lock; answers whether the database is read-only. */
async function migrate(ledger: PostgresLedger, known: Migration[], log: (message: string) => void): Promise<boolean> {
  const client = await ledger.pool.connect();
  try {
    const found = await look(client);
    const first = due(known, found.applied);
    if (first.length === 0) return found.readOnly;
    if (found.readOnly) {
      throw new ReadOnlySchemaError(
        `${ledger.file} is read-only (a hot standby) and its schema is behind this build: ${first.length} migration(s) due (${first.map((m) => m.name).join(', ')}). ` +
          'Migrate the primary (any Ledgerdesk command of this build there does), and open the replica once it has replayed it; it was not changed.',
      );
    }
    const started = Date.now();
    await client.query('BEGIN');
    try {
      await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await client.query('CREATE TABLE IF NOT EXISTS ledgerdesk_migrations (name text PRIMARY KEY, hash text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      // Read again under the lock: another process may have migrated while this one waited.
      const todo = due(known, (await client.query<{ name: string; hash: string }>('SELECT name, hash FROM ledgerdesk_migrations ORDER BY name')).rows);
      for (const m of todo) {
        await client.query(m.sql);
        await client.query('INSERT INTO ledgerdesk_migrations (name, hash) VALUES ($1, $2)', [m.name, m.hash]);
      }
      await client.query('COMMIT');
      if (todo.length > 0) log(`${ledger.file}: applied ${todo.map((m) => m.name).join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return false;
  } finally {
    client.release();
  }
}
