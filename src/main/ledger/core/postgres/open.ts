// Opening a PostgreSQL database: forward-only migrations from db/postgres, run
// once however many processes start together (a session advisory lock: the
// others wait, then find nothing due), and refusal of a database written by a
// newer build, as a SQLite file is refused.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NewerLedgerError } from '../sqlite/open';
import { findShipped } from '../paths';
import { PostgresLedger, type PostgresDriverOptions } from './driver';
import { withoutPassword } from './address';

export { withoutPassword };

/** The advisory lock's key: "ldk-migr" as a 64-bit integer, the same in every process and build. */
const MIGRATION_LOCK = '7810485496620607346';

export interface PostgresOptions extends PostgresDriverOptions {
  migrationsFolder?: string;
  log?: (message: string) => void;
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

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresLedger> {
  const ledger = new PostgresLedger(withoutPassword(url), url, { max: options.max, role: options.role });
  try {
    await migrate(ledger, postgresMigrations(options.migrationsFolder), options.log ?? (() => undefined));
    return ledger;
  } catch (error) {
    await ledger.end();
    throw error;
  }
}

async function migrate(ledger: PostgresLedger, known: Migration[], log: (message: string) => void): Promise<void> {
  const client = await ledger.pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    await client.query('CREATE TABLE IF NOT EXISTS ledgerdesk_migrations (name text PRIMARY KEY, hash text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const applied = (await client.query<{ name: string; hash: string }>('SELECT name, hash FROM ledgerdesk_migrations ORDER BY name')).rows;
    const unknown = applied.filter((a) => !known.some((m) => m.name === a.name && m.hash === a.hash));
    if (unknown.length > 0) {
      throw new NewerLedgerError(
        `This database was written by a newer or different Ledgerdesk build (${unknown.length} migration(s) this build does not know: ${unknown.map((u) => u.name).join(', ')}). ` +
          'Update Ledgerdesk to open it; the database was not changed.',
      );
    }
    for (const m of known.filter((k) => !applied.some((a) => a.name === k.name))) {
      const started = Date.now();
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO ledgerdesk_migrations (name, hash) VALUES ($1, $2)', [m.name, m.hash]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      log(`${ledger.file}: applied ${m.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    client.release();
  }
}
