// The server driver: node-postgres behind the same async Ledger interface. The
// domain's SQL keeps SQLite's `?` (and `@name`) placeholders; they are numbered
// here. A write holds one pooled connection for its transaction (nested writes:
// savepoints), found again through AsyncLocalStorage by every statement the
// write runs; a statement outside a write takes any free connection. Each
// connection's organization (row-level security's `app.org`) is set to the
// caller's before its statement runs: outside forOrg, to none, which reads nothing.
// Queries run as named prepared statements (text.ts: statementName), so
// that each connection parses and plans a text once, not at every call.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type Database from 'better-sqlite3';
import type { Ledger, Query, SnapshotOptions } from '../storage';
import { answerKey, copied, KEPT_ROWS, numbered, orderedParams, stale, statementName } from './text';

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

type Text = ReturnType<typeof numbered> & { name: string | null };

interface Inside {
  client: pg.PoolClient;
  depth: number;
  readOnly: boolean;
  /** A snapshot's answers by organization, statement and values: the same read in one snapshot answers the same. */
  answers?: Map<string, pg.QueryResult>;
}

/** Prepared statements per connection, at most: a server's hot statements are a few hundred texts. */
const MOST_PREPARED = 400;

const orgSetting = (org: number | 'all' | undefined): string => (org === undefined ? '' : String(org));

export class PostgresLedger implements Ledger {
  readonly engine = 'postgres';
  readonly pool: pg.Pool;
  readonly role: string | null;
  readonly #texts = new Map<string, Text>();
  readonly #queries = new Map<string, Query>();
  readonly #inside = new AsyncLocalStorage<Inside>();
  readonly #org = new AsyncLocalStorage<number | 'all'>();
  /** What each connection's app.org is now, as far as this process knows (forgotten on a rollback, which may undo it). */
  readonly #orgOf = new WeakMap<pg.PoolClient, string>();
  readonly #roleSet = new WeakSet<pg.PoolClient>();
  /** Connections holding a stale named statement: ended when released, so that a new connection prepares it again. */
  readonly #stale = new WeakSet<pg.PoolClient>();
  /** The statement names each connection prepared. */
  readonly #prepared = new WeakMap<pg.PoolClient, Set<string>>();
  /** Per organization, the last of this process's writes queued for it. */
  readonly #writers = new Map<number, Promise<void>>();

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

  #text(sql: string): Text {
    let text = this.#texts.get(sql);
    if (text === undefined) {
      const n = numbered(sql);
      this.#texts.set(sql, (text = { ...n, name: statementName(n.text) }));
    }
    return text;
  }

  /** Sets the connection's role, once: a failure fails the statement, never runs it as the login role. */
  async #setRole(client: pg.PoolClient): Promise<void> {
    if (!this.role || this.#roleSet.has(client)) return;
    await client.query(`SET ROLE ${this.role}`);
    this.#roleSet.add(client);
  }

  /** Sets the connection's role and its organization to the caller's, unless it is that already. */
  async #setOrg(client: pg.PoolClient): Promise<void> {
    await this.#setRole(client);
    const want = orgSetting(this.#org.getStore());
    if (this.#orgOf.get(client) === want) return;
    await client.query("SELECT set_config('app.org', $1, false)", [want]);
    this.#orgOf.set(client, want);
  }

  /** Runs one statement on the write's (or snapshot's) connection, else on a free one. */
  async #query(sql: string, params: unknown[], rowMode?: 'array'): Promise<pg.QueryResult> {
    const { text, names, count, name } = this.#text(sql);
    const config = { text, values: orderedParams(names, params, count), ...(rowMode ? { rowMode } : {}) };
    // A connection prepares at most MOST_PREPARED texts (each keeps its plan, ~50 KB): any further one runs unnamed.
    const named = (client: pg.PoolClient) => {
      if (!name) return config;
      let prepared = this.#prepared.get(client);
      if (!prepared) this.#prepared.set(client, (prepared = new Set()));
      if (!prepared.has(name) && prepared.size >= MOST_PREPARED) return config;
      prepared.add(name);
      return { ...config, name };
    };
    const inside = this.#inside.getStore();
    if (inside) {
      const run = async () => {
        await this.#setOrg(inside.client);
        return inside.client.query(named(inside.client)).catch((error: unknown) => {
          if (stale(error)) this.#stale.add(inside.client); // the transaction has failed: the connection goes at its end
          throw error;
        });
      };
      const key = inside.answers && answerKey(orgSetting(this.#org.getStore()), text, rowMode, config.values);
      if (!key) return run();
      // Within one snapshot (read only) a statement with the same values answers the same: asked again, not run again.
      const kept = inside.answers!.get(key);
      if (kept) return copied(kept);
      const result = await run();
      if (result.rows.length <= KEPT_ROWS) inside.answers!.set(key, copied(result));
      return result;
    }
    const client = await this.pool.connect();
    let broken = false;
    try {
      await this.#setOrg(client);
      return await client.query(named(client));
    } catch (error) {
      if (!stale(error)) throw error;
      // Outside a transaction nothing was undone: the statement runs unnamed, and the connection goes.
      broken = true;
      return await client.query(config);
    } finally {
      client.release(broken);
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
  async snapshot<T>(fn: () => T | Promise<T>, options?: SnapshotOptions): Promise<T> {
    if (this.#inside.getStore()) return fn();
    const begin = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
    return this.#transaction(options?.genericPlans ? `${begin}; SET LOCAL plan_cache_mode = force_generic_plan` : begin, true, false, fn);
  }

  /** A write: its organization's row locked first (FOR UPDATE), so that one organization's writes run one at a time on every process. */
  async write<T>(fn: () => T | Promise<T>): Promise<T> {
    const outer = this.#inside.getStore();
    if (outer?.readOnly) throw new Error('a write inside a snapshot: take the snapshot for reads only');
    if (outer) return this.#savepoint(outer, fn);
    const org = this.#org.getStore();
    const run = () => this.#transaction('BEGIN', false, true, fn);
    if (typeof org !== 'number') return run();
    // This process's writes of one organization wait their turn here (in order), not on its row lock holding a
    // pooled connection each: those stay free for the other organizations' writes and for reads.
    const mine = (this.#writers.get(org) ?? Promise.resolve()).then(run, run);
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    this.#writers.set(org, tail);
    void tail.then(() => this.#writers.get(org) === tail && this.#writers.delete(org));
    return mine;
  }

  /**
   * BEGIN, the connection's organization and (a write in an organization) its row lock, in one round trip: one
   * simple-query message, whose statements run in order and stop at the first error (the caller rolls back).
   * The role is set before, on its own: a rollback must never undo it.
   */
  async #begin(client: pg.PoolClient, begin: string, lock: boolean): Promise<void> {
    await this.#setRole(client);
    const org = this.#org.getStore();
    const want = orgSetting(org);
    if (!/^(\d*|all)$/.test(want)) throw new RangeError(`not an organization: ${want}`);
    const parts = [begin];
    if (this.#orgOf.get(client) !== want) parts.push(`SELECT set_config('app.org', '${want}', false)`);
    if (lock && typeof org === 'number') parts.push(`SELECT seq FROM organizations WHERE seq = ${org} FOR UPDATE`);
    await client.query(parts.join('; '));
    this.#orgOf.set(client, want);
  }

  async #transaction<T>(begin: string, readOnly: boolean, lock: boolean, fn: () => T | Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await this.#begin(client, begin, lock);
      const result = await this.#inside.run({ client, depth: 0, readOnly, ...(readOnly ? { answers: new Map() } : {}) }, fn);
      // Back to the pool with no organization, in the commit's round trip: the next statement outside forOrg there
      // (a request's token lookup) has none to clear, and a write or snapshot sets one with its BEGIN.
      await client.query(this.#orgOf.get(client) === '' ? 'COMMIT' : "COMMIT; SELECT set_config('app.org', '', false)");
      this.#orgOf.set(client, '');
      return result;
    } catch (error) {
      this.#orgOf.delete(client);
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release(this.#stale.has(client));
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
