// Attempts counted before they are checked (issue 51): a sign-in's address, a
// person's second-factor codes. One statement records the attempt and answers
// its number in the window and the lock, inside the database (an upsert: SQLite
// runs one writer at a time, PostgreSQL locks the row), so guesses sent in
// parallel to several server processes are numbered one after the other and no
// more than `limit` of them are ever checked. A success deletes the row.
import { createHash } from 'node:crypto';
import type { Ledger } from '../core/storage';
import { normalEmail } from './addresses';

export interface Limit {
  /** Attempts checked within the window; the next ones are refused until the lock ends. */
  limit: number;
  windowMs: number;
  lockMs: number;
}

export interface Counted {
  /** This attempt's number in the window (1 = the first). */
  count: number;
  /** Refused until then (ms); 0: not locked. */
  lockedUntil: number;
}

/** The row counting sign-ins at an address: by the address typed, whether or not a person has it (names no one). */
export const addressKey = (email: string): string => `address:${createHash('sha256').update(normalEmail(email)).digest('hex')}`;
/** The row counting a person's second-factor codes. */
export const totpKey = (personId: string): string => `totp:${personId}`;

/**
 * Counts an attempt and answers its number and the lock. A window that ended, or a lock that did, starts again at 1;
 * the attempt that reaches `limit` (at least 2) sets the lock, whether it is then right or wrong (a success deletes the
 * row). Attempts while locked are numbered past the limit and refused. One SQL text for both engines (upsert, RETURNING).
 */
export async function countAttempt(ledger: Ledger, key: string, rule: Limit, now: number): Promise<Counted> {
  const over = `(l.locked_until > 0 AND l.locked_until <= excluded.window_start) OR (l.locked_until = 0 AND l.window_start <= excluded.window_start - ${rule.windowMs})`;
  const row = (await ledger.write(() =>
    ledger
      .stmt(
        `INSERT INTO sign_in_limits AS l (key, count, window_start, locked_until) VALUES (?, 1, ?, 0)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN ${over} THEN 1 ELSE l.count + 1 END,
           window_start = CASE WHEN ${over} THEN excluded.window_start ELSE l.window_start END,
           locked_until = CASE WHEN ${over} THEN 0 WHEN l.count + 1 = ${rule.limit} THEN excluded.window_start + ${rule.lockMs} ELSE l.locked_until END
         RETURNING count, locked_until`,
      )
      .get(key, now),
  )) as { count: number; locked_until: number };
  return { count: Number(row.count), lockedUntil: Number(row.locked_until) };
}

/** Whether a counted attempt may be checked: within the limit, and not locked by an earlier one. */
export const allowed = (c: Counted, rule: Limit): boolean => c.count <= rule.limit;

/** Locks a key at once until `until` (a person locked by their second factor is locked at their address too). */
export async function lockKey(ledger: Ledger, key: string, rule: Limit, until: number, now: number): Promise<void> {
  await ledger
    .stmt(
      `INSERT INTO sign_in_limits AS l (key, count, window_start, locked_until) VALUES (?, ${rule.limit + 1}, ?, ?)
       ON CONFLICT (key) DO UPDATE SET count = excluded.count, window_start = excluded.window_start, locked_until = excluded.locked_until`,
    )
    .run(key, now, until);
}

/** Attempts so far in the window (a read: how long the next answer waits). */
export async function attemptsSoFar(ledger: Ledger, key: string, rule: Limit, now: number): Promise<number> {
  const row = (await ledger.stmt('SELECT count, window_start, locked_until FROM sign_in_limits WHERE key = ?').get(key)) as
    { count: number; window_start: number; locked_until: number } | undefined;
  if (!row) return 0;
  const ended = row.locked_until > 0 ? row.locked_until <= now : row.window_start <= now - rule.windowMs;
  return ended ? 0 : Number(row.count);
}

/** A success: the count starts again. */
export async function clearAttempts(ledger: Ledger, key: string): Promise<void> {
  await ledger.stmt('DELETE FROM sign_in_limits WHERE key = ?').run(key);
}
