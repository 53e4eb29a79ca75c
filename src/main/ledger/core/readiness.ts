// Whether the books can be served (issue 51, `GET /readyz`): the database
// answers, and the migrations applied to it are exactly the ones this build
// knows. A database a newer build has migrated since this process opened it
// (another server process upgraded first), or one still missing a migration,
// is not this build's to serve. Each engine keeps its own list, read side by side.
import { findShipped } from './paths';
import type { Ledger } from './storage';

/** A migration as the database records it, and as the build ships it: the same text on both sides. */
const keyOf = (a: string, b: string | number): string => `${a}\u0000${b}`;

let sqliteKnown: Set<string> | undefined;
let postgresKnown: Set<string> | undefined;

/** The build's migrations, read once per process (the files do not change under a running build). */
async function known(ledger: Pick<Ledger, 'engine'>): Promise<Set<string>> {
  if (ledger.engine === 'sqlite') {
    // drizzle's migrator pulls in its query layer (~80 ms): loaded at the first readiness check, not at start-up.
    const { readMigrationFiles } = await import('drizzle-orm/migrator');
    sqliteKnown ??= new Set(readMigrationFiles({ migrationsFolder: findShipped('db/migrations') }).map((m) => keyOf(m.hash, m.folderMillis)));
    return sqliteKnown;
  }
  // The server's list loads only for a server's books (no PostgreSQL driver on the desktop).
  const { postgresMigrations } = await import('./postgres/open');
  postgresKnown ??= new Set(postgresMigrations().map((m) => keyOf(m.name, m.hash)));
  return postgresKnown;
}

const APPLIED = {
  sqlite: 'SELECT hash AS a, created_at AS b FROM __drizzle_migrations',
  postgres: 'SELECT name AS a, hash AS b FROM ledgerdesk_migrations',
};

/** True when the database answers and holds exactly this build's migrations; false (never a throw) otherwise. */
export async function migrationsCurrent(ledger: Ledger): Promise<boolean> {
  try {
    // SQLite's created_at may come back as text or a number (drizzle wrote it as a number): compared as numbers.
    const applied = (await ledger.rows<{ a: string; b: string | number }>(APPLIED[ledger.engine])).map((r) => keyOf(r.a, ledger.engine === 'sqlite' ? Number(r.b) : r.b));
    const mine = await known(ledger);
    return applied.length === mine.size && applied.every((k) => mine.has(k));
  } catch {
    return false;
  }
}
