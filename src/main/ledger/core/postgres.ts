// The server driver: node-postgres behind the same async Ledger interface. The
// domain's SQL keeps SQLite's `?` (and `@name`) placeholders; they are numbered
// here. A write holds one pooled connection for its transaction (nested writes:
// savepoints), found again through AsyncLocalStorage by every statement the
// write runs; a statement outside a write takes any free connection. Each
// connection's organization (row-level security's `app.org`) is set to the
// caller's before its statement runs: outside forOrg, to none, which reads nothing.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type Database from 'better-sqlite3';
import type { Ledger, Query } from './storage';
import { numbered, orderedParams } from './postgres-text';

export { numbered };

const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;

/** bigint and numeric (a bigint's sum) read as numbers, and refused beyond what a number holds exactly, never rounded. */
function exactNumber(text: string): number {
  const n = Number(text);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) throw new RangeError(`${text} is beyond the integers JavaScript holds exactly (±${Number.MAX_SAFE_INTEGER})`);
  return n;
}
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return exactNumber;
    // A comparison in a select list reads 1 or 0, as SQLite answers it.
    if (oid === BOOL) return (text: string) => (text === 't' ? 1 : 0);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** The role the server's statements run as: it owns nothing, and row-level security applies to it (db/postgres). */
export const SERVER_ROLE = 'ledgerdesk_app';

export interface PostgresDriverOptions {
  /** Connections in this process's pool. */
  max?: number;
  /** SET ROLE on each connection (default SERVER_ROLE); null: run as the login role (migrations, maintenance, tests' own checks). */
  role?: string | null;
}

interface Inside {
  client: pg.PoolClient;
  depth: number;
  readOnly: boolean;
}

const orgSetting = (org: number | 'all' | undefined): string => (org === undefined ? '' : String(org));

export class PostgresLedger implements Ledger {
  readonly engine = 'postgres';
  readonly pool: pg.Pool;
  readonly role: string | null;
  readonly #texts = new Map<string, ReturnType<typeof numbered>>();
  readonly #queries = new Map<string, Query>();
  readonly #inside = new AsyncLocalStorage<Inside>();
  readonly #org = new AsyncLocalStorage<number | 'all'>();
  /** What each connection's app.org is now, as far as this process knows (forgotten on a rollback, which may undo it). */
  readonly #orgOf = new WeakMap<pg.PoolClient, string>();
  readonly #roleSet = new WeakSet<pg.PoolClient>();

  constructor(
    readonly file: string,
    connectionString: string,
    options: PostgresDriverOptions = {},
  ) {
    this.role = options.role === undefined ? SERVER_ROLE : options.role;
    this.pool = new pg.Pool({ connectionString, max: options.max ?? 10, types });
    // A connection the server ends (a restart, a terminated backend) is dropped from the pool, not a crash.
    this.pool.on('error', () => undefined);
  }

  get sqlite(): Database.Database {
    throw new Error('This needs the SQLite driver; on PostgreSQL it has no counterpart.');
  }

  get org(): number | 'all' | undefined {
    return this.#org.getStore();
  }

  #text(sql: string): ReturnType<typeof numbered> {
    let text = this.#texts.get(sql);
    if (text === undefined) this.#texts.set(sql, (text = numbered(sql)));
    return text;
  }

  /**
   * Sets the connection's role (once: a failure fails the statement, never runs it as the login role) and its
   * organization to the caller's, unless it is that already.
   */
  async #setOrg(client: pg.PoolClient): Promise<void> {
    if (this.role && !this.#roleSet.has(client)) {
      await client.query(`SET ROLE ${this.role}`);
      this.#roleSet.add(client);
    }
    const want = orgSetting(this.#org.getStore());
    if (this.#orgOf.get(client) === want) return;
    await client.query("SELECT set_config('app.org', $1, false)", [want]);
    this.#orgOf.set(client, want);
  }

  /** Runs one statement on the write's (or snapshot's) connection, else on a free one. */
  async #query(sql: string, params: unknown[], rowMode?: 'array'): Promise<pg.QueryResult> {
    const { text, names, count } = this.#text(sql);
    const config = { text, values: orderedParams(names, params, count), ...(rowMode ? { rowMode } : {}) };
    const inside = this.#inside.getStore();
    if (inside) {
      await this.#setOrg(inside.client);
      return inside.client.query(config);
    }
    const client = await this.pool.connect();
    try {
      await this.#setOrg(client);
      return await client.query(config);
    } finally {
      client.release();
    }
  }

  stmt(sql: string): Query {
    let query = this.#queries.get(sql);
    if (!query) {
      const values = {
        get: async (...params: unknown[]) => ((await this.#query(sql, params, 'array')).rows[0] as unknown[] | undefined)?.[0],
        all: async (...params: unknown[]) => (await this.#query(sql, params, 'array')).rows.map((r) => (r as unknown[])[0]),
      };
      query = {
        get: async (...params) => (await this.#query(sql, params)).rows[0],
        all: async (...params) => (await this.#query(sql, params)).rows,
        run: async (...params) => {
          const { rowCount } = await this.#query(sql, params);
          return { changes: rowCount ?? 0 };
        },
        insert: async (...params) => ((await this.#query(`${sql} RETURNING seq`, params, 'array')).rows[0] as [number])[0],
        pluck: () => values,
        // Read whole (a cursor would hold a connection per walk); the walks are a page's day counts and a rule run's matches.
        iterateRaw: (...params) => this.#walk(sql, params),
      };
      this.#queries.set(sql, query);
    }
    return query;
  }

  async *#walk(sql: string, params: unknown[]): AsyncGenerator<unknown[][]> {
    yield (await this.#query(sql, params, 'array')).rows as unknown[][];
  }

  async rows<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return (await this.#query(sql, params)).rows as T[];
  }

  async forOrg<T>(org: number | 'all', fn: () => T | Promise<T>): Promise<T> {
    return this.#org.run(org, fn);
  }

  /** One REPEATABLE READ READ ONLY transaction: every statement fn runs sees the same committed state. */
  async snapshot<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.#inside.getStore()) return fn();
    return this.#transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', true, fn);
  }

  /** A write: its organization's row locked first (FOR UPDATE), so that one organization's writes run one at a time on every process. */
  async write<T>(fn: () => T | Promise<T>): Promise<T> {
    const outer = this.#inside.getStore();
    if (outer?.readOnly) throw new Error('a write inside a snapshot: take the snapshot for reads only');
    if (outer) return this.#savepoint(outer, fn);
    return this.#transaction('BEGIN', false, async () => {
      const org = this.#org.getStore();
      if (typeof org === 'number') await this.#query('SELECT seq FROM organizations WHERE seq = ? FOR UPDATE', [org]);
      return fn();
    });
  }

  async #transaction<T>(begin: string, readOnly: boolean, fn: () => T | Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query(begin);
      const result = await this.#inside.run({ client, depth: 0, readOnly }, fn);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      this.#orgOf.delete(client);
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async #savepoint<T>(outer: Inside, fn: () => T | Promise<T>): Promise<T> {
    const name = `nested_${++outer.depth}`;
    await outer.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      await outer.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      this.#orgOf.delete(outer.client);
      await outer.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    } finally {
      outer.depth--;
    }
  }

  close(): void {
    void this.end();
  }

  /** Closes the pool, waiting for its connections to end. */
  end(): Promise<void> {
    return this.pool.end();
  }
}
