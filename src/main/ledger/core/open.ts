// Opening the books wherever they are: a data folder's SQLite file (the
// desktop's, and every command's by default) or a PostgreSQL server named by
// --database or LEDGERDESK_DATABASE_URL (a firm's). The server's driver loads
// only when one is named. Either way the stored secrets are sealed with the
// current key before anything reads them (secrets/sealed.ts).
import { openLedger, type OpenOptions } from './sqlite/open';
import { sealStoredSecrets } from './secrets/sealed';
import { SecretError } from './secrets/seal';
import type { Ledger } from './storage';

export { withoutPassword } from './postgres/address';

export interface BooksAt {
  /** The data folder whose ledger.db is opened when no database is named. */
  ledgerFile: string;
  /** A PostgreSQL connection string (postgres://...): the books on that server instead. */
  database?: string;
}

export interface BooksOptions extends OpenOptions {
  /** PostgreSQL: connections in this process's pool. */
  max?: number;
  /** PostgreSQL: the role statements run as (default the server's, which row-level security binds); null: the login role. */
  role?: string | null;
  /** PostgreSQL: serve reads only, every write refused (serve --read-only; a hot standby is found out anyway). */
  readOnly?: boolean;
}

export const isDatabaseUrl = (s: string): boolean => /^postgres(ql)?:\/\//i.test(s);

/** --database, else LEDGERDESK_DATABASE_URL, else none (the data folder). Anything but a postgres:// address is refused. */
export function configuredDatabase(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = flag ?? (env.LEDGERDESK_DATABASE_URL || undefined);
  if (url !== undefined && !isDatabaseUrl(url)) {
    throw new Error(`${flag !== undefined ? '--database' : 'LEDGERDESK_DATABASE_URL'} must be a PostgreSQL address (postgres://user@host/database), not "${url}"`);
  }
  return url;
}

export async function openBooks(at: BooksAt, options: BooksOptions = {}): Promise<Ledger> {
  if (!at.database && options.readOnly) throw new Error("Read-only books are a PostgreSQL read replica's (--database): a data folder's file is not served read-only.");
  const ledger = at.database
    ? await (await import('./postgres/open')).openPostgres(at.database, { log: options.log, max: options.max, role: options.role, readOnly: options.readOnly || undefined })
    : openLedger(at.ledgerFile, options);
  // Nothing is written to books opened to read (a file's check, a replica's).
  if (options.readonly || ledger.readOnly) return ledger;
  try {
    await sealStoredSecrets(ledger, options.log);
  } catch (error) {
    // A data folder whose key file is gone (restored elsewhere) still opens: its people set their second factor up
    // again. A server without the key its secrets need is refused: IT gives it the key.
    if (error instanceof SecretError && ledger.engine === 'sqlite') options.log?.(`${at.ledgerFile}: ${error.message}`);
    else {
      await ledger.end();
      throw error;
    }
  }
  return ledger;
}
