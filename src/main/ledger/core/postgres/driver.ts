// The server driver: node-postgres behind the same async Ledger interface; the domain's `?` and `@name`
// placeholders numbered here (text.ts). Every statement runs in a transaction that sets, transaction-local, the role,
// the caller's organization and the statement timeout (scope.ts), so a transaction pooler may hand its connection
// to any client next (issue 51). A write or snapshot holds one pooled connection (nested writes: savepoints), found
// again through AsyncLocalStorage; its BEGIN and settings go when its first statement does, a snapshot's COMMIT is not
// waited for, and a lone statement is framed in its own transaction in one round trip (framed.ts). Queries run as
// prepared statements: directly, once per connection (text.ts); behind a pooler, a transaction's per server session
// (pooled.ts), its opening sent alone first to learn which.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from './node-postgres';
import type Database from 'better-sqlite3';
import { type Ledger, type OrgScope, type Query, readsOnly, type SnapshotOptions } from '../storage';
import { parsedOn, runFramed } from './framed';
import { DEFAULT_SETTINGS, type PostgresSettings } from './settings';
import { types } from './types';
import { PooledStatements, tokenOf } from './pooled';
import { queryOf } from './query';
import { orgText, READER_ROLE, scopeSql, SERVER_ROLE, settingsSql } from './scope';
import { answerKey, copied, KEPT_ROWS, numbered, orderedParams, PreparedNames, readOnlyError, stale, statementName, told, writes } from './text';

export { numbered };

export { READER_ROLE, SERVER_ROLE };

export interface PostgresDriverOptions extends Partial<PostgresSettings> {
  /** The role every transaction runs as (default SERVER_ROLE); null: the login role (migrations, maintenance, tests' own checks). */
  role?: string | null;
  /** Where the driver says what the server should know (a newer build's schema found). */
  log?: (message: string) => void;
}

type Text = ReturnType<typeof numbered> & { name: string | null };

interface Inside {
  client: pg.PoolClient;
  depth: number;
  /** The organization the transaction is set to now (a forOrg inside a write changes it, transaction-local). */
  org: string;
  readOnly: boolean;
  /** A snapshot's answers by organization, statement and values: the same read in one snapshot answers the same. */
  answers?: Map<string, pg.QueryResult>;
  /** Not begun yet: BEGIN, the settings and a write's lock go when the first statement does (#opening). */
  pending?: { begin: string[]; lock: string[] };
  /** Behind a transaction pooler: the server session's token, once the opening answered (pooled.ts). */
  token?: string;
}

export class PostgresLedger implements Ledger {
  readonly engine = 'postgres';
  readonly pool: pg.Pool;
  readonly role: string | null;
  readonly #texts = new Map<string, Text>();
  readonly #queries = new Map<string, Query>();
  readonly #inside = new AsyncLocalStorage<Inside>();
  readonly #org = new AsyncLocalStorage<OrgScope>();
  readonly settings: PostgresSettings;
  /** Writes refused (read_only): a read replica, or serve --read-only. */
  readOnly: boolean;
  /** The migrations this build knows, once open: a write finding more (a newer build migrated since) is refused. */
  knownMigrations: number | null = null;
  readonly #log: (message: string) => void;
  /** Connections holding a stale named statement: ended when released, so that a new connection prepares it again. */
  readonly #stale = new WeakSet<pg.PoolClient>();
  readonly #prepared = new PreparedNames<pg.PoolClient>();
  /** Behind a transaction pooler: what this process prepared on each server session. */
  readonly #pooled = new PooledStatements();
  /** Per organization, the last of this process's writes queued for it. */
  readonly #writers = new Map<number, Promise<void>>();

  constructor(
    readonly file: string,
    connectionString: string,
    options: PostgresDriverOptions = {},
  ) {
    this.role = options.role === undefined ? SERVER_ROLE : options.role;
    if (this.role !== null && !/^[a-z_][a-z0-9_]*$/.test(this.role)) throw new RangeError(`not a role name: ${this.role}`);
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<PostgresSettings>;
    this.settings = { ...DEFAULT_SETTINGS, ...defined };
    this.readOnly = this.settings.readOnly;
    this.#log = options.log ?? (() => undefined);
    const { max, connectTimeoutMs, idleTimeoutMs } = this.settings;
    this.pool = new pg.Pool({ connectionString, max, types, connectionTimeoutMillis: connectTimeoutMs, idleTimeoutMillis: idleTimeoutMs });
    // A connection the server ends (a restart, a terminated backend) is dropped from the pool, not a crash.
    this.pool.on('error', () => undefined);
  }

  get sqlite(): Database.Database {
    throw new Error('This needs the SQLite driver; on PostgreSQL it has no counterpart.');
  }

  get org(): OrgScope | undefined {
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

  /** The transaction's opening settings (scope.ts) at the caller's organization; a write's with the schema check. */
  #settingsSql(write: boolean, session = false): string {
    const known = write ? this.knownMigrations : null;
    return settingsSql({ role: this.role, org: this.#orgNow(), statementTimeoutMs: this.settings.statementTimeoutMs, knownMigrations: known, session });
  }

  /** The caller's organization as app.org takes it: a number, 'all', '' (none) or a list ({3,7}). */
  #orgNow(): string {
    return orgText(this.#org.getStore());
  }

  /** A driver error as the caller should see it: a read-only database's or an outdated build's refusal, said once in the log. */
  #told(error: unknown): unknown {
    const said = told(error);
    if (said?.code === 'outdated_build' && !this.#outdatedSaid) {
      this.#outdatedSaid = true;
      this.#log(`${this.file}: ${said.message}`);
    }
    return said ?? error;
  }

  #outdatedSaid = false;

  /** The query as a named statement where that pays: directly connected, within what the connection may prepare. */
  #named(client: pg.PoolClient, config: pg.QueryConfig, name: string | null): pg.QueryConfig {
    return name && this.settings.pooler !== 'transaction' && this.#prepared.take(client, name) ? { ...config, name } : config;
  }

  /** Runs one statement on the write's (or snapshot's) connection, else framed in a transaction of its own. */
  async #query(sql: string, params: unknown[], rowMode?: 'array'): Promise<pg.QueryResult> {
    const { text, names, count, name } = this.#text(sql);
    const config = { text, values: orderedParams(names, params, count), ...(rowMode ? { rowMode } : {}) };
    const write = writes(text);
    if (write && this.readOnly) throw readOnlyError();
    const inside = this.#inside.getStore();
    if (inside) {
      const org = this.#orgNow();
      if (!inside.pending && inside.org !== org) {
        // The role follows the scope: a list's reads as READER_ROLE, anything else's as this.role again.
        await inside.client.query(scopeSql(this.role, org));
        inside.org = org;
      }
      const run = () =>
        this.#inTransaction(inside, config, name).catch((error: unknown) => {
          if (stale(error)) this.#stale.add(inside.client); // the transaction has failed: the connection goes at its end
          throw this.#told(error);
        });
      const key = inside.answers && answerKey(this.#orgNow(), text, rowMode, config.values);
      if (!key) return run();
      // Within one snapshot (read only) a statement with the same values answers the same: asked again, not run again.
      const kept = inside.answers!.get(key);
      if (kept) return copied(kept);
      const result = await run();
      if (result.rows.length <= KEPT_ROWS) inside.answers!.set(key, copied(result));
      return result;
    }
    const frame = ['BEGIN', this.#settingsSql(write)];
    const client = await this.pool.connect();
    let broken = false;
    const lone = async (query: pg.QueryConfig) => {
      try {
        return await runFramed(client, query, frame, ['COMMIT']);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw error;
      }
    };
    try {
      return await lone(this.#named(client, config, name));
    } catch (error) {
      if (!stale(error)) throw this.#told(error);
      // A named statement the connection can no longer run (a migration changed its table): unnamed, and the connection goes.
      broken = true;
      return await lone(config).catch((again: unknown) => Promise.reject(this.#told(again)));
    } finally {
      client.release(broken);
    }
  }

  stmt(sql: string): Query {
    let query = this.#queries.get(sql);
    if (!query) this.#queries.set(sql, (query = queryOf(sql, (text, params, rowMode) => this.#query(text, params, rowMode))));
    return query;
  }

  async rows<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return (await this.#query(sql, params)).rows as T[];
  }

  async forOrg<T>(org: OrgScope, fn: () => T | Promise<T>): Promise<T> {
    return this.#org.run(org, fn);
  }

  /** One REPEATABLE READ READ ONLY transaction: every statement fn runs sees the same committed state. */
  async snapshot<T>(fn: () => T | Promise<T>, options?: SnapshotOptions): Promise<T> {
    if (this.#inside.getStore()) return fn();
    const begin = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
    return this.#transaction(options?.genericPlans ? [begin, 'SET LOCAL plan_cache_mode = force_generic_plan'] : [begin], true, fn);
  }

  /** A write: its organization's row locked first (FOR UPDATE), so that one organization's writes run one at a time on every process. */
  async write<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.readOnly) throw readOnlyError();
    readsOnly(this.org);
    const outer = this.#inside.getStore();
    if (outer?.readOnly) throw new Error('a write inside a snapshot: take the snapshot for reads only');
    if (outer) return this.#savepoint(outer, fn);
    const org = this.#org.getStore();
    const run = () => this.#transaction(['BEGIN'], false, fn);
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
   * A transaction on one pooled connection. BEGIN, its settings (settingsSql) and, a write in an organization, its row
   * lock go when its first statement does, in the same round trip (directly) or just before it (behind a pooler:
   * #inTransaction), and a transaction that runs no statement sends nothing. A snapshot's COMMIT is not waited for:
   * its connection goes back to the pool with the COMMIT sent, and whoever takes it next is answered after it (one
   * connection answers in order); a read-only transaction has nothing for COMMIT to fail on but a lost connection,
   * which fails the next user's statements as it would have anyway. A write's COMMIT is waited for (its answer is the write's).
   */
  async #transaction<T>(begin: string[], readOnly: boolean, fn: () => T | Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const org = this.#org.getStore();
    const lock = !readOnly && typeof org === 'number' ? [`SELECT seq FROM organizations WHERE seq = ${org} FOR UPDATE`] : [];
    const inside: Inside = { client, depth: 0, org: this.#orgNow(), readOnly, pending: { begin, lock }, ...(readOnly ? { answers: new Map() } : {}) };
    let broken = false;
    try {
      const result = await this.#inside.run(inside, fn);
      if (inside.pending) return result;
      if (readOnly) void client.query('COMMIT').catch(() => undefined);
      else await client.query('COMMIT');
      return result;
    } catch (error) {
      if (!inside.pending) await client.query('ROLLBACK').catch(() => (broken = true));
      throw this.#told(error);
    } finally {
      client.release(broken || this.#stale.has(client));
    }
  }

  /**
   * A statement of a transaction; its first takes the opening with it (framed.ts), unless it is a named statement
   * this connection has not prepared yet: its Parse would take the transaction's snapshot before a snapshot's
   * `BEGIN ISOLATION LEVEL`, and node-postgres must see its own ParseComplete first to keep its name right. Then
   * the opening goes alone first: once per connection and statement. Behind a transaction pooler the opening always
   * goes alone first, and answers the server session's token: every statement then runs as prepared on that
   * session by this process (pooled.ts).
   */
  async #inTransaction(inside: Inside, config: pg.QueryConfig, name: string | null): Promise<pg.QueryResult> {
    if (this.settings.pooler === 'transaction') {
      if (inside.pending) inside.token = tokenOf(await this.#openAlone(inside, true));
      return this.#pooled.run(inside.client, inside.token, config, name);
    }
    const query = this.#named(inside.client, config, name);
    if (!inside.pending) return inside.client.query(query);
    if (!query.name || parsedOn(inside.client, query.name)) return runFramed(inside.client, query, this.#opening(inside), []);
    await this.#openAlone(inside);
    return inside.client.query(query);
  }

  /** The pending transaction's opening statements (BEGIN, the settings at the organization of now, the lock); it is begun from here on. */
  #opening(inside: Inside, session = false): string[] {
    const { begin, lock } = inside.pending!;
    inside.pending = undefined;
    inside.org = this.#orgNow();
    return [...begin, this.#settingsSql(!inside.readOnly, session), ...lock];
  }

  /** The opening sent alone, in one message; with `session`, its settings answer the server session's token (pooled.ts). */
  #openAlone(inside: Inside, session = false): Promise<pg.QueryResult | pg.QueryResult[]> {
    return inside.client.query(this.#opening(inside, session).join('; ')) as Promise<pg.QueryResult | pg.QueryResult[]>;
  }

  async #savepoint<T>(outer: Inside, fn: () => T | Promise<T>): Promise<T> {
    const name = `nested_${++outer.depth}`;
    // Not begun yet: begun here, in the same message as the savepoint.
    const opening = outer.pending ? this.#opening(outer) : [];
    const org = outer.org;
    await outer.client.query([...opening, `SAVEPOINT ${name}`].join('; '));
    try {
      const result = await fn();
      await outer.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await outer.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      outer.org = org; // the rollback undid any set_config after the savepoint
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
