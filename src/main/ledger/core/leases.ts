// Leases (issue 52): what one process holds for a while so that no other does
// the same meanwhile: a job's turn (jobs/runner.ts), one connector's sync. A
// lease is taken with ONE conditional statement, the same text on both engines
// (an upsert that updates only an expired lease, or one the taker already
// holds), so two processes racing for it cannot both win; it names a time, not a
// process, so a holder that dies lets it expire. The clock is the caller's.
import type { Ledger } from './storage';

const TAKE = `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
  WHERE leases.expires_at <= ? OR leases.holder = excluded.holder`;
/** A job's turn: taken only once expired, whoever held it (the holder's own lease is its wait until the next turn). */
const TAKE_EXPIRED = `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
  WHERE leases.expires_at <= ?`;

/**
 * Takes the lease `name` for `holder` until `until` (ms since the epoch) unless another holds it past `now` (the holder
 * extends its own; with `expiredOnly`, even the holder waits for it to expire). Answers whether it was taken.
 */
export async function takeLease(ledger: Ledger, name: string, holder: string, now: number, until: number, expiredOnly = false): Promise<boolean> {
  return (await ledger.stmt(expiredOnly ? TAKE_EXPIRED : TAKE).run(name, holder, until, now)).changes === 1;
}

/** Lets a lease go early (its work done), only if the holder still holds it. Or keeps it until `until` (a job's next turn). */
export async function releaseLease(ledger: Ledger, name: string, holder: string, until = 0): Promise<void> {
  await ledger.stmt('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?').run(until, name, holder);
}

/** Who holds a lease now, if anyone (for the tests and the status line). */
export async function leaseHolder(ledger: Ledger, name: string, now: number): Promise<string | null> {
  return ((await ledger.stmt('SELECT holder FROM leases WHERE name = ? AND expires_at > ?').pluck().get(name, now)) as string | undefined) ?? null;
}
