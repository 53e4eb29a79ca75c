// Prepared statements behind a transaction pooler (issue 51). PgBouncer 1.18 keeps none of its own: a client's
// statements may run on any server connection, so a statement prepared on one is unknown on the next, and two
// clients preparing the same name on one server connection collide. Planning every statement again is most of
// what a pooled read costs more than a direct one (docs/benchmarks.md), so the driver keeps its own record:
//
// - Each server session carries a random token, set session-level (it stays with the server connection whichever
//   client the pooler hands it to next) by the first transaction of Ledgerdesk that runs there. Every pooled
//   transaction's opening (BEGIN and its settings) goes alone first and answers it, so the driver knows which
//   server session the transaction is on before its first statement. That is a round trip more than sending the
//   opening with the first statement, and much less than planning that statement again: the first statement of a
//   proposal's write (the row, its category, lines, journal and filing, each under row-level security) takes
//   0.5 ms to plan; a round trip through PgBouncer here, 0.05 to 0.10 ms (docs/benchmarks.md). A lone statement, framed
//   in a transaction of its own in one round trip (framed.ts), is not worth two: it runs unnamed.
// - A process prepares a statement on a session under a name of its own: the statement's name, the session's token
//   and the process's tag. No other process or session uses that name, so this process's record of what it prepared
//   under a token is the whole truth of that session for it. A transaction that failed after the token was first
//   set rolls the token back, though not the statements prepared there (PREPARE is not transactional): that
//   session then takes a new token, so new names, and the old statements are never named again.
// - node-postgres keeps a record of prepared names per client connection (to the pooler); before each named
//   statement it is set to what the session holds, so that pg sends a Parse exactly when the session lacks it.
// - A statement refused as unknown, already there, or stale on a session it was believed prepared on, stops this
//   process preparing anything more there (the transaction fails, as any failed statement's does).
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { parsedStatements } from './framed';
import { MOST_PREPARED, stale } from './text';

/** The server session's token, made by the first Ledgerdesk transaction run there (set_config(..., false): session-level). */
export const SESSION_TOKEN = `coalesce(nullif(current_setting('ldk.session', true), ''), set_config('ldk.session', md5(random()::text || clock_timestamp()::text), false)) AS ldk_session`;

/** The token an opening answered: the ldk_session column of one of its statements' results. */
export function tokenOf(results: pg.QueryResult | pg.QueryResult[]): string | undefined {
  const row = [results].flat().find((r) => r.fields?.[0]?.name === 'ldk_session')?.rows[0] as { ldk_session?: string } | undefined;
  return row?.ldk_session;
}

/** Sessions whose statements are remembered; older ones are no longer prepared on (they have likely ended). */
const KEPT_SESSIONS = 256;
/** Sessions known at all (remembered, or not to be prepared on again); beyond it the oldest are forgotten. */
const KNOWN_SESSIONS = 16_384;

export class PooledStatements {
  readonly #tag = randomBytes(4).toString('hex');
  /** By session token: the names this process prepared there, or null: prepare nothing more there. */
  readonly #sessions = new Map<string, Set<string> | null>();
  #kept = 0;

  /**
   * The name to run `name`'s statement under on the session `token`, node-postgres' record of `client` set to what
   * the session holds (a Parse sent only where it lacks it); null: run it unnamed.
   */
  #use(client: pg.PoolClient, token: string, name: string, text: string): string | null {
    let held = this.#sessions.get(token);
    if (held === null) return null;
    if (held === undefined) held = this.#remember(token);
    const named = `${name}_${token.slice(0, 8)}_${this.#tag}`;
    const parsed = parsedStatements(client);
    if (held.has(named)) parsed[named] = text;
    else if (held.size >= MOST_PREPARED)
      return null; // as many as on a direct connection
    else delete parsed[named];
    return named;
  }

  /** Runs a statement of a transaction on the server session `token` (unknown yet: unnamed), as prepared there if it may be. */
  async run(client: pg.PoolClient, token: string | undefined, config: pg.QueryConfig, name: string | null): Promise<pg.QueryResult> {
    const named = token && name ? this.#use(client, token, name, config.text) : null;
    if (!token || !named) return client.query(config);
    try {
      return await client.query({ ...config, name: named });
    } catch (error) {
      // Refused as unknown, already there or stale where this process recorded otherwise: nothing more prepared there.
      if (stale(error) || (error as { code?: string }).code === '42P05') this.#forget(token);
      throw error;
    } finally {
      this.#ran(client, token, named);
    }
  }

  /** After a named statement ran or failed: held from now on where the session said ParseComplete. */
  #ran(client: pg.PoolClient, token: string, named: string): void {
    if (parsedStatements(client)[named] !== undefined) this.#sessions.get(token)?.add(named);
  }

  /** Nothing more is prepared on this session (a statement there was not as recorded). */
  #forget(token: string): void {
    if (this.#sessions.get(token)) this.#kept--;
    this.#sessions.set(token, null);
  }

  #remember(token: string): Set<string> {
    const held = new Set<string>();
    this.#sessions.set(token, held);
    if (++this.#kept > KEPT_SESSIONS) {
      const oldest = [...this.#sessions].find(([, names]) => names !== null);
      if (oldest) this.#forget(oldest[0]);
    }
    while (this.#sessions.size > KNOWN_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    return held;
  }
}
