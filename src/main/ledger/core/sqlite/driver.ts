// The embedded driver: better-sqlite3 behind the async Ledger interface. One
// connection serves every caller, so its transactions are kept apart here:
// one write transaction at a time (a queue), nested writes as savepoints, and
// what another caller does meanwhile waits for the commit instead of reading
// (or joining) a transaction that may yet roll back.
import type Database from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import { type Ledger, type OrgScope, type Query, readsOnly } from '../storage';

const RECORD = process.env.LEDGERDESK_RECORD_SQL;
/** Rows a walk hands over at a time. */
const WALK_CHUNK = 1024;

/** Statements prepared once per connection, by SQL text and by how their rows are read. */
class Prepared {
  readonly #sqlite: Database.Database;
  readonly #recorded = new Set<string>();
  readonly #objects = new Map<string, Database.Statement>();
  readonly #arrays = new Map<string, { statement: Database.Statement; columns: string[] }>();
  readonly #values = new Map<string, Database.Statement>();
  constructor(sqlite: Database.Database) {
    this.#sqlite = sqlite;
  }
  objects(sql: string): Database.Statement {
    let s = this.#objects.get(sql);
    if (!s) this.#objects.set(sql, (s = this.#prepare(sql)));
    return s;
  }
  arrays(sql: string): { statement: Database.Statement; columns: string[] } {
    let s = this.#arrays.get(sql);
    if (!s) {
      const statement = this.#prepare(sql).raw(true);
      this.#arrays.set(sql, (s = { statement, columns: statement.reader ? statement.columns().map((c) => c.name) : [] }));
    }
    return s;
  }
  values(sql: string): Database.Statement {
    let s = this.#values.get(sql);
    if (!s) this.#values.set(sql, (s = this.#prepare(sql).pluck(true)));
    return s;
  }
  #prepare(sql: string): Database.Statement {
    // `npm run sql:replay` collects the statements the suites run, to try each on PostgreSQL.
    if (RECORD && !this.#recorded.has(sql)) {
      this.#recorded.add(sql);
      appendFileSync(RECORD, `${JSON.stringify(sql)}\n`);
    }
    return this.#sqlite.prepare(sql);
  }
  clear(): void {
    this.#objects.clear();
    this.#arrays.clear();
    this.#values.clear();
  }
}

/** One turn at a time on the connection: the next waits for the one before to end, however it ends. */
class Turns {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(fn, fn);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}

export function sqliteLedger(file: string, sqlite: Database.Database): Ledger {
  return new SqliteLedger(file, sqlite);
}

/** A list bound as one parameter (`IN (SELECT value FROM json_each(?))`, dialect.ts) arrives as an array: SQLite reads it as JSON. */
const asJson = (params: unknown[]): unknown[] => params.map((p) => (Array.isArray(p) ? JSON.stringify(p) : p));

class SqliteLedger implements Ledger {
  readonly engine = 'sqlite';
  readonly readOnly = false;
  readonly #prepared: Prepared;
  readonly #turns = new Turns();
  readonly #queries = new Map<string, Query>();
  readonly #inside = new AsyncLocalStorage<{ depth: number; readOnly?: boolean }>();
  readonly #org = new AsyncLocalStorage<OrgScope>();
  constructor(
    readonly file: string,
    readonly sqlite: Database.Database,
  ) {
    this.#prepared = new Prepared(sqlite);
  }

  /** Runs fn now, unless another caller's transaction is open: then after it ends (no reading or joining what may roll back). */
  #settled<T>(fn: () => T): Promise<T> {
    if (!this.sqlite.inTransaction || this.#inside.getStore()) {
      try {
        return Promise.resolve(fn());
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return this.#turns.run(async () => fn());
  }

  /** One Query per SQL text, made on first use: the domain calls stmt(sql) on every use of a statement. */
  stmt(sql: string): Query {
    let query = this.#queries.get(sql);
    if (!query) this.#queries.set(sql, (query = this.#query(sql)));
    return query;
  }

  /** A statement reading a list parameter with json_each gets its arrays as JSON; any other binds its parameters as they are. */
  #query(sql: string): Query {
    const inner = this.#plain(sql);
    if (!sql.includes('json_each(?)')) return inner;
    const values = inner.pluck();
    const lists = { get: (...p: unknown[]) => values.get(...asJson(p)), all: (...p: unknown[]) => values.all(...asJson(p)) };
    return {
      get: (...p) => inner.get(...asJson(p)),
      all: (...p) => inner.all(...asJson(p)),
      run: (...p) => inner.run(...asJson(p)),
      insert: (...p) => inner.insert(...asJson(p)),
      pluck: () => lists,
      iterateRaw: (...p) => inner.iterateRaw(...asJson(p)),
    };
  }

  #plain(sql: string): Query {
    const prepared = this.#prepared;
    const settled = <T>(fn: () => T) => this.#settled(fn);
    const values = {
      get: (...params: unknown[]) => settled(() => prepared.values(sql).get(...params)),
      all: (...params: unknown[]) => settled(() => prepared.values(sql).all(...params)),
    };
    return {
      get: (...params) => settled(() => prepared.objects(sql).get(...params)),
      all: (...params) => settled(() => prepared.objects(sql).all(...params)),
      run: (...params) => settled(() => prepared.objects(sql).run(...params)),
      insert: (...params) => settled(() => Number(prepared.objects(sql).run(...params).lastInsertRowid)),
      pluck: () => values,
      iterateRaw: (...params) => this.#walk(() => prepared.arrays(sql).statement.iterate(...params) as IterableIterator<unknown[]>),
    };
  }

  /** The connection cannot write while a statement is stepped: outside a write, a walk takes a turn of its own. */
  async *#walk(rows: () => IterableIterator<unknown[]>): AsyncGenerator<unknown[][]> {
    let release: (() => void) | undefined;
    if (!this.#inside.getStore()) {
      const done = new Promise<void>((resolve) => (release = resolve));
      await new Promise<void>((begin) => void this.#turns.run(() => (begin(), done)));
    }
    try {
      let chunk: unknown[][] = [];
      for (const row of rows()) {
        chunk.push(row);
        if (chunk.length === WALK_CHUNK) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length) yield chunk;
    } finally {
      release?.();
    }
  }

  async rows<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return this.#settled(() => {
      const { statement, columns } = this.#prepared.arrays(sql);
      return (statement.all(...(sql.includes('json_each(?)') ? asJson(params) : params)) as unknown[][]).map((values) => {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i];
        return row as T;
      });
    });
  }

  get org(): OrgScope | undefined {
    return this.#org.getStore();
  }

  /** Nothing to set on SQLite: one organization's filters are in every query. */
  async forOrg<T>(org: OrgScope, fn: () => T | Promise<T>): Promise<T> {
    return this.#org.run(org, fn);
  }

  /** A turn of its own: other callers' writes wait until fn's reads are done. */
  async snapshot<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.#inside.getStore()) return fn();
    return this.#turns.run(() => this.#inside.run({ depth: 0, readOnly: true }, async () => fn()));
  }

  async write<T>(fn: () => T | Promise<T>): Promise<T> {
    readsOnly(this.org);
    const outer = this.#inside.getStore();
    if (outer?.readOnly) throw new Error('a write inside a snapshot: take the snapshot for reads only');
    if (outer) return savepoint(this.sqlite, outer, fn);
    return this.#turns.run(() =>
      this.#inside.run({ depth: 0 }, async () => {
        this.sqlite.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn();
          this.sqlite.exec('COMMIT');
          return result;
        } catch (error) {
          if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
          throw error;
        }
      }),
    );
  }

  async end(): Promise<void> {
    this.close();
    return Promise.resolve();
  }

  close(): void {
    this.#prepared.clear();
    this.#queries.clear();
    if (this.sqlite.open) this.sqlite.close();
  }
}

/** A write inside a write: a savepoint, so that its failure undoes only itself. */
async function savepoint<T>(sqlite: Database.Database, outer: { depth: number }, fn: () => T | Promise<T>): Promise<T> {
  const name = `nested_${++outer.depth}`;
  sqlite.exec(`SAVEPOINT ${name}`);
  try {
    const result = await fn();
    sqlite.exec(`RELEASE ${name}`);
    return result;
  } catch (error) {
    sqlite.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
    throw error;
  } finally {
    outer.depth--;
  }
}
