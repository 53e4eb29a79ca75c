// The domain's SQL as PostgreSQL reads it, and the driver's rules for its
// prepared statements and a snapshot's answers. Kept apart from the driver so
// that the replay script and the tests read it without opening a pool.
import { createHash } from 'node:crypto';
import type { QueryResult } from 'pg';
import { LedgerError } from '../errors';

/**
 * `?` placeholders as `$1, $2...` and `@name` ones as one `$n` per name (not inside quoted strings or names), and
 * SQLite's planner hint `INDEXED BY <index>` left out (PostgreSQL's planner takes no hints; the index is there).
 * Answers the text and, for named placeholders, the names in `$n` order.
 */
export function numbered(sql: string): { text: string; names: string[] | null; count: number } {
  return placeholders(sql.replace(/\s+INDEXED BY\s+\w+/gi, ''));
}

function placeholders(sql: string): { text: string; names: string[] | null; count: number } {
  let out = '';
  let n = 0;
  let names: string[] | null = null;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '?') {
      out += `$${++n}`;
      continue;
    } else if (ch === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_]\w*/.exec(sql.slice(i + 1))![0];
      names ??= [];
      let at = names.indexOf(name);
      if (at < 0) at = names.push(name) - 1;
      out += `$${at + 1}`;
      i += name.length;
      continue;
    }
    out += ch;
  }
  return { text: out, names, count: names ? names.length : n };
}

/**
 * The values in `$n` order, as better-sqlite3 binds them: named placeholders take theirs from the one object
 * passed; an array passed alone to a statement of several placeholders is their values (to one of a single
 * placeholder, it is that placeholder's value: a list read with `= ANY(?)`).
 */
export function orderedParams(names: string[] | null, params: unknown[], count: number): unknown[] {
  if (!names) return params.length === 1 && Array.isArray(params[0]) && count > 1 ? (params[0] as unknown[]) : params;
  const values = (params[0] ?? {}) as Record<string, unknown>;
  return names.map((name) => {
    if (!(name in values)) throw new RangeError(`no value for the named parameter @${name}`);
    return values[name];
  });
}

/** Queries and DML: prepared once per connection. DDL, SET and transaction control run unnamed (nothing to plan again). */
const PREPARED = /^\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH|VALUES)\b/i;

/**
 * The prepared statement's name for a numbered text (the same in every process, so that pg_stat_statements and
 * pg_prepared_statements read alike), or null for a statement that runs unnamed. 96 bits of its SHA-1: two texts
 * sharing one would fail loudly (node-postgres refuses a name prepared for another text), never run the other.
 */
export function statementName(text: string): string | null {
  return PREPARED.test(text) ? `ldk_${createHash('sha1').update(text).digest('hex').slice(0, 24)}` : null;
}

/** Prepared statements per connection, at most: a server's hot statements are a few hundred texts. */
export const MOST_PREPARED = 400;

/** The statement names each connection prepared: a connection prepares at most MOST_PREPARED, then runs the rest unnamed. */
export class PreparedNames<C extends object> {
  readonly #names = new WeakMap<C, Set<string>>();

  /** Whether `name` runs named on `connection` (recorded as prepared there if so). */
  take(connection: C, name: string): boolean {
    let names = this.#names.get(connection);
    if (!names) this.#names.set(connection, (names = new Set()));
    if (!names.has(name) && names.size >= MOST_PREPARED) return false;
    names.add(name);
    return true;
  }
}

/**
 * A named statement the connection can no longer run as prepared: its result changed shape under it (a column
 * added by a migration: "cached plan must not change result type"), or the server forgot it.
 */
export const stale = (error: unknown): boolean => {
  const { code, message } = error as { code?: string; message?: string };
  return code === '26000' || (code === '0A000' && /cached plan must not change result type/.test(message ?? ''));
};

/** A snapshot keeps answers of at most this many rows (a report's organization, chart, currencies), not a walk's. */
export const KEPT_ROWS = 500;

export const answerKey = (org: string, text: string, rowMode: string | undefined, values: unknown[]): string | null => {
  try {
    return `${org}\0${rowMode ?? ''}\0${text}\0${JSON.stringify(values)}`;
  } catch {
    return null; // a value JSON does not write (a BigInt): run it
  }
};

/** A kept answer, its rows copied: a caller may change the rows it was given. */
export const copied = (result: QueryResult): QueryResult => ({ ...result, rows: result.rows.map((r: unknown) => (Array.isArray(r) ? [...r] : { ...(r as object) })) });

/**
 * A statement that writes (or changes the schema): refused on a read-only database before it is sent, and checked
 * against a newer build's schema. A WITH writes when it holds a data-modifying statement.
 */
export const writes = (text: string): boolean =>
  /^\s*(INSERT|UPDATE|DELETE|MERGE|CREATE|ALTER|DROP|TRUNCATE|GRANT|REVOKE|COPY)\b/i.test(text) || (/^\s*WITH\b/i.test(text) && /\b(INSERT|UPDATE|DELETE)\b/i.test(text));

/** What the schema check's failure says; the check fails the transaction before its write runs. */
const NEWER_SCHEMA = 'Ledgerdesk: a newer build migrated this database';

/**
 * A select-list item failing the transaction when the database holds more migrations than this build knows: a
 * newer build migrated it since this process opened it. The cast of a text that is no number is the failure (SQL
 * has no RAISE); its text varies with count(*), so the planner cannot fold it and fail every call.
 */
export const outdatedCheck = (known: number): string =>
  `(SELECT CASE WHEN count(*) > ${known} THEN CAST('${NEWER_SCHEMA}: ' || count(*) || ' migrations' AS int) END FROM ledgerdesk_migrations)`;

/** The LedgerError a server error stands for, if any: the schema check's failure, or a write on a hot standby. */
export function told(error: unknown): LedgerError | null {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === '22P02' && message?.includes(NEWER_SCHEMA)) {
    const migrations = /(\d+) migrations/.exec(message)?.[1];
    return new LedgerError(
      'outdated_build',
      `A newer Ledgerdesk build migrated this database (${migrations} migrations) after this process started: it no longer writes into a schema it does not know. Restart it with the newer build.`,
      { migrations: Number(migrations) },
    );
  }
  // A read-only transaction (a hot standby) refused a write the driver did not see coming.
  if (code === '25006') return readOnlyError();
  return null;
}

/** A write refused on a read-only database. */
export const readOnlyError = (): LedgerError =>
  new LedgerError('read_only', 'This server serves reads only (a read replica of the database, or serve --read-only): make changes through a server on the primary database.');
