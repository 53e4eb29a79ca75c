// Signing a person in (issue 45): an invitation link sets the password once;
// then email and password, the same refusal for an unknown address and a wrong
// password (and as long: an unknown address is checked against a stand-in hash).
// Failures are counted per person: each one slows the next answer, and after
// LOCK_AFTER within LOCK_WINDOW_MS the account refuses sign-in for LOCK_MS,
// audited in each of the person's organizations. A second factor (TOTP) when the
// person enrolled one or an organization of theirs requires it.
import { createHash } from 'node:crypto';
import type { Ledger } from '../core/storage';
import { LedgerError } from '../core/errors';
import { appendAudit } from './audit';
import { checkPassword, dummyHash, hashPassword, verifyPassword } from './passwords';
import { normalEmail, orgsOfPerson, personByEmail, personBySeq, personOf, type Person, type PersonRow } from './people';
import { totpStep } from './totp';

export const LOCK_AFTER = 10;
const LOCK_WINDOW_MS = 15 * 60_000;
const LOCK_MS = 15 * 60_000;

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const refused = () => new LedgerError('unauthorized', 'The email address or the password is wrong.', { reason: 'sign_in' });

/** Sets the password an invitation (or reset) link's code asks for, spending the code. Answers the person. */
export async function acceptInvitation(ledger: Ledger, code: string, password: string, now = Date.now()): Promise<PersonRow> {
  checkPassword(password);
  const stored = await hashPassword(password);
  return ledger.write(async () => {
    const userSeq = (await ledger.stmt('SELECT user_seq FROM invitations WHERE hash = ? AND expires_at >= ?').pluck().get(hash(code), now)) as number | undefined;
    // Spent by deleting it: of two tabs using one link, one sets the password.
    if (userSeq === undefined || (await ledger.stmt('DELETE FROM invitations WHERE hash = ?').run(hash(code))).changes !== 1) {
      throw new LedgerError('unauthorized', 'This link was already used or has expired: ask for a new one.', { reason: 'invitation' });
    }
    await ledger.stmt('UPDATE users SET password_hash = ? WHERE seq = ?').run(stored, userSeq);
    return (await personBySeq(ledger, userSeq))!;
  });
}

/** Recent failures of a person (within the window). */
const failures = async (ledger: Ledger, userSeq: number, now: number): Promise<number[]> =>
  (await ledger
    .stmt('SELECT at FROM sign_in_failures WHERE user_seq = ? AND at > ? ORDER BY at')
    .pluck()
    .all(userSeq, now - LOCK_WINDOW_MS)) as number[];

/** How long the next attempt for this person waits (a second per recent failure, at most five): guesses slow down. */
export async function delayFor(ledger: Ledger, email: string, now = Date.now()): Promise<number> {
  const row = await personByEmail(ledger, email);
  return row ? Math.min(5, (await failures(ledger, row.seq, now)).length) * 1000 : 0;
}

export interface SignedIn {
  person: PersonRow;
  /** A second factor is still to be checked (the person enrolled one). */
  totpDue: boolean;
}

/** Email and password: the person, or 401 (the same for an unknown address and a wrong password), or 429 while locked. */
export async function signIn(ledger: Ledger, email: string, password: string, now = Date.now()): Promise<SignedIn> {
  const row = await personByEmail(ledger, email);
  const usable = row && !row.removed_at && row.password_hash ? row : null;
  if (usable) {
    const recent = await failures(ledger, usable.seq, now);
    if (recent.length >= LOCK_AFTER && now - recent[recent.length - 1] < LOCK_MS) {
      const until = new Date(recent[recent.length - 1] + LOCK_MS).toISOString();
      throw new LedgerError('rate_limited', `Too many failed sign-ins for this account: try again after ${until}.`, { reason: 'locked', until });
    }
  }
  const ok = await verifyPassword(password, usable?.password_hash ?? (await dummyHash()));
  if (!usable || !ok) {
    if (usable) await fail(ledger, usable, now);
    throw refused();
  }
  await ledger.stmt('DELETE FROM sign_in_failures WHERE user_seq = ?').run(usable.seq);
  // A person who enrolled a second factor gives its code next; one an organization requires it of and who has none
  // is let in to set one up, and to nothing of that organization until they have (desk/scope.ts).
  return { person: usable, totpDue: usable.totp_secret !== null };
}

async function fail(ledger: Ledger, row: PersonRow, now: number): Promise<void> {
  await ledger.write(async () => {
    await ledger.stmt('INSERT INTO sign_in_failures (user_seq, at) VALUES (?, ?)').run(row.seq, now);
    await ledger.stmt('DELETE FROM sign_in_failures WHERE user_seq = ? AND at < ?').run(row.seq, now - LOCK_WINDOW_MS - LOCK_MS);
  });
  if ((await failures(ledger, row.seq, now)).length !== LOCK_AFTER) return;
  for (const orgSeq of await orgsOfPerson(ledger, row.seq)) {
    await ledger.forOrg(orgSeq, () =>
      ledger.write(() =>
        appendAudit(
          ledger,
          orgSeq,
          { type: 'human', userId: 'ledgerdesk', name: 'Ledgerdesk', channel: 'desk' },
          {
            action: 'person.locked',
            targetType: 'person',
            targetId: row.id,
            summary: `${row.name} <${row.email}>: ${LOCK_AFTER} failed sign-ins within ${LOCK_WINDOW_MS / 60_000} minutes; sign-in refused for ${LOCK_MS / 60_000} minutes`,
          },
        ),
      ),
    );
  }
}

/** Whether an organization of the person's requires a second factor. */
export const totpRequired = async (ledger: Ledger, userSeq: number): Promise<boolean> =>
  ((await ledger.stmt('SELECT count(*) FROM memberships m JOIN organizations o ON o.seq = m.org_seq WHERE m.user_seq = ? AND o.require_totp = 1').pluck().get(userSeq)) as number) >
  0;

/** The second factor's code: true when it is the enrolled secret's. */
export async function checkTotp(ledger: Ledger, userSeq: number, code: string, now = Date.now()): Promise<boolean> {
  const row = await personBySeq(ledger, userSeq);
  const step = row?.totp_secret ? totpStep(row.totp_secret, code, now) : null;
  if (step === null || step <= (row!.totp_step ?? -1)) return false;
  // Spent: the same code (seen over a shoulder, or replayed) is refused next time; of two at once, one wins.
  return (await ledger.stmt('UPDATE users SET totp_step = ? WHERE seq = ? AND coalesce(totp_step, -1) < ?').run(step, userSeq, step)).changes === 1;
}

/** Enrolls a second factor: kept only once a code from it is right (the person's app has it). */
export async function enrollTotp(ledger: Ledger, userSeq: number, secret: string, code: string, now = Date.now()): Promise<Person> {
  const step = totpStep(secret, code, now);
  if (step === null) throw new LedgerError('validation_failed', 'That code is not the one your app shows now.', [{ field: 'code', message: 'is not the current code' }]);
  const row = (await personBySeq(ledger, userSeq))!;
  const orgs = await orgsOfPerson(ledger, userSeq);
  const actor = { type: 'human' as const, userId: row.id, name: row.name, channel: 'desk' as const };
  // Set with the first organization's audit entry; each organization's log says so (as a reset does).
  for (const [i, orgSeq] of orgs.entries()) {
    await ledger.forOrg(orgSeq, () =>
      ledger.write(async () => {
        if (i === 0) await ledger.stmt('UPDATE users SET totp_secret = ?, totp_step = ? WHERE seq = ?').run(secret, step, userSeq);
        await appendAudit(ledger, orgSeq, actor, {
          action: 'person.second_factor',
          targetType: 'person',
          targetId: row.id,
          summary: `${row.name} <${row.email}> set up a second factor (TOTP)`,
        });
      }),
    );
  }
  if (!orgs.length) await ledger.stmt('UPDATE users SET totp_secret = ?, totp_step = ? WHERE seq = ?').run(secret, step, userSeq);
  return personOf((await personBySeq(ledger, userSeq))!);
}

export { normalEmail };
