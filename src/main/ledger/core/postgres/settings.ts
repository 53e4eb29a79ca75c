// The PostgreSQL settings a firm's IT sets in the environment (issue 51,
// docs/postgres.md "Settings"): the pool, the timeouts, whether a transaction
// pooler stands between, whether the database is read-only. Each is checked
// at start and refused naming the variable, what it takes and what it got.

export interface PostgresSettings {
  /** Connections in this process's pool. */
  max: number;
  /** A statement running longer is cancelled (0: the server's own statement_timeout), set in each transaction. */
  statementTimeoutMs: number;
  /** How long to wait for a connection, to open one or for one of the pool's to be free (0: for ever). */
  connectTimeoutMs: number;
  /** A pooled connection idle this long is closed (0: never). */
  idleTimeoutMs: number;
  /** 'transaction': a transaction pooler (PgBouncer's pool_mode = transaction) stands between: no named statements. */
  pooler: 'none' | 'transaction';
  /** Serve reads only (a read replica): every write refused with read_only. Also found out at open (a hot standby). */
  readOnly: boolean;
}

export const DEFAULT_SETTINGS: PostgresSettings = { max: 10, statementTimeoutMs: 0, connectTimeoutMs: 30_000, idleTimeoutMs: 10_000, pooler: 'none', readOnly: false };

/** A setting that cannot be read: the variable, what it takes and what it was given. */
export class SettingError extends Error {
  constructor(
    readonly variable: string,
    expected: string,
    given: string,
  ) {
    super(`${variable} must be ${expected}, not "${given}"`);
    this.name = 'SettingError';
  }
}

function whole(env: NodeJS.ProcessEnv, variable: string, fallback: number, min: number, max: number): number {
  const text = env[variable]?.trim();
  if (!text) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) throw new SettingError(variable, `a whole number from ${min} to ${max}`, text);
  return n;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, variable: string, fallback: T, allowed: readonly T[]): T {
  const text = env[variable]?.trim().toLowerCase();
  if (!text) return fallback;
  if (!(allowed as readonly string[]).includes(text)) throw new SettingError(variable, `one of ${allowed.join(', ')}`, text);
  return text as T;
}

const DAY_MS = 86_400_000;

/** The settings from the environment (LEDGERDESK_DB_*), each checked; unset ones take their defaults. */
export function postgresSettings(env: NodeJS.ProcessEnv = process.env): PostgresSettings {
  return {
    max: whole(env, 'LEDGERDESK_DB_POOL_MAX', DEFAULT_SETTINGS.max, 1, 1000),
    statementTimeoutMs: whole(env, 'LEDGERDESK_DB_STATEMENT_TIMEOUT_MS', DEFAULT_SETTINGS.statementTimeoutMs, 0, DAY_MS),
    connectTimeoutMs: whole(env, 'LEDGERDESK_DB_CONNECT_TIMEOUT_MS', DEFAULT_SETTINGS.connectTimeoutMs, 0, DAY_MS),
    idleTimeoutMs: whole(env, 'LEDGERDESK_DB_IDLE_TIMEOUT_MS', DEFAULT_SETTINGS.idleTimeoutMs, 0, DAY_MS),
    pooler: oneOf(env, 'LEDGERDESK_DB_POOLER', DEFAULT_SETTINGS.pooler, ['none', 'transaction']),
    readOnly: oneOf(env, 'LEDGERDESK_DB_READ_ONLY', 'no', ['yes', 'no', 'true', 'false', '1', '0']).match(/^(yes|true|1)$/) !== null,
  };
}
