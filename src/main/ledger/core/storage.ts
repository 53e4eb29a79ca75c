// The async storage interface the domain is written against, once: each
// driver (better-sqlite3 embedded, node-postgres for a firm's server) implements
// it. Statements are SQL texts with ? placeholders; a write is one transaction.
import type Database from 'better-sqlite3';

/** A statement by its SQL text: prepared once per connection, run asynchronously. */
export interface Query {
  get(...params: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rows are cast where read
  all(...params: unknown[]): Promise<any[]>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
  run(...params: unknown[]): Promise<{ changes: number }>;
  /** Runs an INSERT into a table keyed by `seq` and answers the new row's seq. */
  insert(...params: unknown[]): Promise<number>;
  pluck(): Pick<Query, 'get' | 'all'>;
  /**
   * Rows as arrays, a chunk of them at a time: a long result walked (a page's day counts, a rule run), not held.
   * Chunks, not rows: a promise per row was most of a million-row rule run's cost over the synchronous walk.
   */
  iterateRaw(...params: unknown[]): AsyncIterable<unknown[][]>;
}

export interface SnapshotOptions {
  /**
   * PostgreSQL: each statement planned once for any values (plan_cache_mode force_generic_plan), for reads whose
   * best plan does not depend on them (the general ledger's, keyed by organization, category and dates); its
   * planner otherwise plans some statements again at every call. Not for a read whose plan does (a register's
   * filters). SQLite plans once anyway.
   */
  genericPlans?: boolean;
}

/**
 * Whose rows a scope shows: one organization's; 'all' (the organizations' own rows, no books); or several
 * organizations' at once, to read (the Practice screen: every organization a person may see in one statement).
 */
export type OrgScope = number | 'all' | readonly number[];

/** Refuses a write in several organizations' scope: a write is one organization's (on PostgreSQL its policies say so too). */
export function readsOnly(org: OrgScope | undefined): void {
  if (Array.isArray(org)) throw new Error("a write in several organizations' scope: write in one organization's");
}

export interface Ledger {
  /** Which driver: the embedded SQLite file, or a PostgreSQL server. */
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Every write refused with read_only (503): a PostgreSQL read replica, or serve --read-only (issue 51). What a read
   * writes in passing (a token's last use, a session's last sight) is not written there. Never on SQLite.
   */
  readonly readOnly: boolean;
  /** The SQLite file, or the server's address without its password. */
  readonly file: string;
  /** The SQLite connection, for what has no portable form yet (backup, bulk loads); on PostgreSQL it throws, naming what is not there yet. */
  readonly sqlite: Database.Database;
  /** A statement by its SQL text (compiled once per connection). */
  stmt(sql: string): Query;
  /**
   * All rows of a query as objects keyed by column name. They are read as
   * arrays and zipped here: better-sqlite3 builds each row object through the
   * V8 API, which on a 50-row page costs more than the query itself.
   */
  rows<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  /**
   * Runs fn in one write transaction: all of it commits, or none (nested: a savepoint). On PostgreSQL it first
   * locks the organization fn runs for (forOrg), so that one organization's writes are serial on every process,
   * as they are on SQLite's one connection.
   */
  write<T>(fn: () => T | Promise<T>): Promise<T>;
  /**
   * Runs fn for one organization (or 'all': the organizations' own rows, no books; or a list: those organizations'
   * rows, to read only). PostgreSQL's row-level security shows every statement fn runs only that organization's rows
   * (the list's: theirs alone, and no write passes its policies); outside it, none. SQLite has the organizations'
   * filters in every query and nothing to set.
   */
  forOrg<T>(org: OrgScope, fn: () => T | Promise<T>): Promise<T>;
  /** The organization of the forOrg around the caller, if any. */
  readonly org: OrgScope | undefined;
  /** Runs fn's reads in one snapshot: a page and its count, a report's parts, agree with each other whatever commits meanwhile. */
  snapshot<T>(fn: () => T | Promise<T>, options?: SnapshotOptions): Promise<T>;
  /** Closes the connection (PostgreSQL: the pool, in the background). */
  close(): void;
  /** Closes and waits until every connection has ended. */
  end(): Promise<void>;
}
