// Signing a person in (issues 45 and 51): email and password, the same refusal
// for an unknown address and a wrong password, and the same work and waits: an
// unknown address is checked against a stand-in hash (scrypt runs either way)
// and counted as a known one is. Each attempt is counted by the address typed
// BEFORE its password is checked, in one statement inside the database
// (attempts.ts), so guesses sent in parallel, to several server processes, are
// numbered in turn: each earlier attempt in the window slows the next answer by a
// second (at most five); LOCK_AFTER within the window lock the address for
// LOCK_MS (429), audited in each organization of the person who has it; the
// right password clears the count. The second factor: second-factor.ts.
import type { Ledger } from '../core/storage';
import { LedgerError } from '../core/errors';
import { appendAudit } from './audit';
import { addressKey, allowed, attemptsSoFar, clearAttempts, countAttempt, type Limit } from './attempts';
import { dummyHash, verifyPassword } from './passwords';
import { normalEmail, orgsOfPerson, personByEmail, type PersonRow } from './people';

export const LOCK_AFTER = 10;
const LOCK_WINDOW_MS = 15 * 60_000;
const LOCK_MS = 15 * 60_000;
export const PASSWORD_LIMIT: Limit = { limit: LOCK_AFTER, windowMs: LOCK_WINDOW_MS, lockMs: LOCK_MS };
/** Each earlier attempt in the window slows the next by this much, at most MOST_DELAY_MS. */
const DELAY_MS = 1000;
const MOST_DELAY_MS = 5000;

export const refusedSignIn = (): LedgerError => new LedgerError('unauthorized', 'The email address or the password is wrong.', { reason: 'sign_in' });

/** 429 while an address (or a person's second factor) is locked: until when, and nothing else. */
export function locked(until: number, what = 'sign-ins'): LedgerError {
  const at = new Date(until).toISOString();
  return new LedgerError('rate_limited', `Too many failed ${what} for this account: try again after ${at}.`, { reason: 'locked', until: at });
}

const delayOf = (earlier: number) => Math.min(MOST_DELAY_MS, Math.max(0, earlier) * DELAY_MS);

/** How long the next attempt at this address waits (a second per attempt so far in the window, at most five). */
export async function delayFor(ledger: Ledger, email: string, now = Date.now()): Promise<number> {
  return delayOf(await attemptsSoFar(ledger, addressKey(email), PASSWORD_LIMIT, now));
}

export interface SignedIn {
  person: PersonRow;
  /** A second factor is still to be checked (the person enrolled one). */
  totpDue: boolean;
}

/**
 * Email and password: the person, or 401 (the same for an unknown address and a wrong password), or 429 while the
 * address is locked. The attempt is counted first; `wait` is how the answer is slowed (the HTTP route sleeps).
 */
export async function signIn(ledger: Ledger, email: string, password: string, now = Date.now(), wait: (ms: number) => Promise<unknown> = async () => undefined): Promise<SignedIn> {
  const key = addressKey(email);
  const counted = await countAttempt(ledger, key, PASSWORD_LIMIT, now);
  if (!allowed(counted, PASSWORD_LIMIT)) throw locked(counted.lockedUntil);
  await wait(delayOf(counted.count - 1));
  const row = await personByEmail(ledger, email);
  const usable = row && !row.removed_at && row.password_hash ? row : null;
  const ok = await verifyPassword(password, usable?.password_hash ?? (await dummyHash()));
  if (!usable || !ok) {
    // The attempt that reached the limit locked the address (counted); the person who has it, if any, is told in their log.
    if (counted.count === LOCK_AFTER && row) await auditLocked(ledger, row, `${LOCK_AFTER} failed sign-ins within ${LOCK_WINDOW_MS / 60_000} minutes`, LOCK_MS);
    throw refusedSignIn();
  }
  await clearAttempts(ledger, key);
  // A person who enrolled a second factor gives its code next; one an organization requires it of and who has none
  // is let in to set one up, and to nothing of that organization until they have (desk/scope.ts).
  return { person: usable, totpDue: usable.totp_secret !== null };
}

/** `person.locked` in each organization of the person's. */
export async function auditLocked(ledger: Ledger, row: PersonRow, why: string, lockMs: number): Promise<void> {
  for (const orgSeq of await orgsOfPerson(ledger, row.seq)) {
    await ledger.forOrg(orgSeq, () =>
      ledger.write(() =>
        appendAudit(
          ledger,
          orgSeq,
          { type: 'human', userId: 'ledgerdesk', name: 'Ledgerdesk', channel: 'desk' },
          { action: 'person.locked', targetType: 'person', targetId: row.id, summary: `${row.name} <${row.email}>: ${why}; sign-in refused for ${lockMs / 60_000} minutes` },
        ),
      ),
    );
  }
}

export { normalEmail };
