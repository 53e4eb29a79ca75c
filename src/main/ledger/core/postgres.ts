// The server driver: node-postgres behind the same async Ledger interface. The
// domain's SQL keeps SQLite's `?` placeholders; they are numbered here. A write
// holds one pooled connection for its transaction (nested writes: savepoints),
// found again through AsyncLocalStorage by every statement the write runs; a
// statement outside a write takes any free connection.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type Database from 'better-sqlite3';
import type { Ledger, Query } from './storage';

const INT8 = 20;
const NUMERIC = 1700;

/** bigint and numeric (a bigint's sum) read as numbers, and refused beyond what a number holds exactly, never rounded. */
function exactNumber(text: string): number {
  const n = Number(text);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) throw new RangeError(`${text} is beyond the integers JavaScript holds exactly (±${Number.MAX_SAFE_INTEGER})`);
  return n;
}
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return exactNumber;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * The domain's SQL as PostgreSQL reads it: `?` placeholders as `$1, $2...` (not inside quoted strings or names),
 * and SQLite's planner hint `INDEXED BY <index>` left out (PostgreSQL's planner takes no hints; the index is there).
 */
export function numbered(sql: string): string {
  return placeholders(sql.replace(/\s+INDEXED BY\s+\w+/gi, ''));
}

function placeholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '?') {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

export class PostgresLedger implements Ledger {
  readonly engine = 'postgres';
  readonly pool: pg.Pool;
  readonly #texts = new Map<string, string>();
  readonly #queries = new Map<string, Query>();
  readonly #inside = new AsyncLocalStorage<{ client: pg.PoolClient; depth: number }>();

  constructor(
    readonly file: string,
    connectionString: string,
    max = 10,
  ) {
    this.pool = new pg.Pool({ connectionString, max, types });
  }

  get sqlite(): Database.Database {
    throw new Error('This needs the SQLite driver; on PostgreSQL it has no counterpart yet.');
  }

  #text(sql: string): string {
    let text = this.#texts.get(sql);
    if (text === undefined) this.#texts.set(sql, (text = numbered(sql)));
    return text;
  }

  /** Runs one statement on the write's connection, else on the pool. */
  async #query(sql: string, params: unknown[], rowMode?: 'array'): Promise<pg.QueryResult> {
    const on = this.#inside.getStore()?.client ?? this.pool;
    return on.query({ text: this.#text(sql), values: params, ...(rowMode ? { rowMode } : {}) });
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
        // Read whole for now (a cursor would keep a connection per walk); the walks are a page's day counts and a rule run's matches.
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

  async write<T>(fn: () => T | Promise<T>): Promise<T> {
    const outer = this.#inside.getStore();
    if (outer) return this.#savepoint(outer, fn);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await this.#inside.run({ client, depth: 0 }, fn);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async #savepoint<T>(outer: { client: pg.PoolClient; depth: number }, fn: () => T | Promise<T>): Promise<T> {
    const name = `nested_${++outer.depth}`;
    await outer.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      await outer.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
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
