// The books a test works on, on the engine of its run: a SQLite file in a temp
// folder, or (the "postgres" project, LEDGERDESK_TEST_ENGINE=postgres) a
// database of the throwaway cluster test/postgres-setup.ts started, copied from
// its migrated template. A data folder stands for its books either way: the
// same folder always maps to the same database, so a test that prepares books,
// starts a server on the folder and runs commands on it sees one set of books.
import { recountAfterEach } from './recount';
import { inject } from 'vitest';
import { atFileEnd } from './file-end';
import { openLedger, type Ledger } from '../../src/main/ledger';
import { openPostgres } from '../../src/main/ledger/core/postgres/open';
import { ledgerFile } from '../../src/main/paths';
import { psqlSync } from './postgres';

export const engine: 'sqlite' | 'postgres' = process.env.LEDGERDESK_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
export const onPostgres = engine === 'postgres';

const databases = new Map<string, string>();
let made = 0;

/** The PostgreSQL database standing for a data folder (made on first use, from the template), or undefined on SQLite. */
export function databaseOf(dataDir: string): string | undefined {
  if (!onPostgres) return undefined;
  let url = databases.get(dataDir);
  if (!url) {
    const cluster = inject('postgres');
    const name = `books_${process.pid}_${++made}`;
    psqlSync(cluster, `CREATE DATABASE ${name} TEMPLATE ${cluster.template}`);
    url = `postgresql://ledgerdesk@localhost/${name}?host=${encodeURIComponent(cluster.socketDir)}&port=${cluster.port}`;
    databases.set(dataDir, url);
  }
  return url;
}

/**
 * Opens the books of a data folder. On PostgreSQL as the login role (a superuser: row-level security does not
 * bind it), as a test's own checks read any organization; `asServer` opens them as the server's role instead.
 */
export async function openBooksOf(dataDir: string, options: { asServer?: boolean } = {}): Promise<Ledger> {
  const url = databaseOf(dataDir);
  if (!url) return openLedger(ledgerFile(dataDir));
  return openPostgres(url, { role: options.asServer ? undefined : null, max: 4 });
}

/** The same books as a server opens them: on SQLite the same connection; on PostgreSQL a pool bound by row-level security. */
export async function serverBooks(ledger: Ledger, dataDir: string): Promise<Ledger> {
  if (!onPostgres) return ledger;
  const served = await openBooksOf(dataDir, { asServer: true });
  atFileEnd(() => served.end());
  return served;
}

/**
 * The books as a test's own setup and checks use them (the domain called directly, SQL read or tampered with) beside
 * a server it started on the folder (startHeadless): on SQLite the server's own connection; on PostgreSQL the login
 * role's pool, which row-level security does not bind (the server's pool, outside an organization's forOrg, reads
 * nothing and may write nothing: a check over every organization would pass empty). Ended after the file's tests.
 */
export async function testBooks(served: Ledger, dataDir: string): Promise<Ledger> {
  const books = onPostgres ? await openBooksOf(dataDir) : served;
  const forget = recountAfterEach(books);
  atFileEnd(() => {
    forget();
    return onPostgres ? books.end() : undefined;
  });
  return books;
}

/** Flags naming a folder's books to a command (`--data`, and `--database` on PostgreSQL). */
export function booksFlags(dataDir: string): string[] {
  const url = databaseOf(dataDir);
  return url ? ['--data', dataDir, '--database', url] : ['--data', dataDir];
}

/** What a server or command started by a test is told of its books: the database standing for the folder, if any. */
export const headlessBooks = (dataDir: string): { database?: string } => {
  const database = databaseOf(dataDir);
  return database ? { database } : {};
};
