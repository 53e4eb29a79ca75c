// A person's second factor (issues 45 and 51): enrolled once a code from the
// new secret is right, the secret sealed (core/secrets: never stored in clear);
// each code taken once (its time step is remembered). Codes are counted before
// they are checked, atomically (attempts.ts): 10 wrong codes within 15 minutes
// lock the person for 15 minutes, at their address too, as 10 wrong passwords
// do, audited; what a pending session may try is counted by the session
// (desk/transport/sessions.ts). An owner may require one of everyone.
import type { Ledger } from '../core/storage';
import { LedgerError } from '../core/errors';
import { openSecret, sealSecret } from '../core/secrets/sealed';
import { SecretError } from '../core/secrets/seal';
import { appendAudit, type Human } from './audit';
import { addressKey, allowed, clearAttempts, countAttempt, lockKey, totpKey, type Limit } from './attempts';
import { auditLocked, PASSWORD_LIMIT, locked } from './sign-in';
import { orgsOfPerson, personBySeq, personOf, type Person, type PersonRow } from './people';
import { totpStep } from './totp';

/** Wrong codes per person: the 10th within 15 minutes locks them for 15 minutes. */
export const TOTP_LIMIT: Limit = { limit: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/** The person's second factor's secret, opened (null: none enrolled). */
function secretOf(ledger: Ledger, row: PersonRow): string | null {
  if (!row.totp_secret) return null;
  try {
    return openSecret(ledger, 'totp', row.id, row.totp_secret);
  } catch (error) {
    if (!(error instanceof SecretError)) throw error;
    throw new LedgerError('conflict', 'Your second factor cannot be read on this server (its key is not the one it was kept with): ask an owner to reset it.', {
      reason: 'secret_key',
    });
  }
}

/**
 * The second factor's code: true when it is the enrolled secret's and its step was not taken before. Counted first
 * (refused with 429 while the person is locked); the wrong code that reaches the limit locks the person.
 */
export async function checkTotp(ledger: Ledger, userSeq: number, code: string, now = Date.now()): Promise<boolean> {
  const row = await personBySeq(ledger, userSeq);
  if (!row?.totp_secret) return false;
  const counted = await countAttempt(ledger, totpKey(row.id), TOTP_LIMIT, now);
  if (!allowed(counted, TOTP_LIMIT)) throw locked(counted.lockedUntil, 'second factor');
  const step = totpStep(secretOf(ledger, row)!, code, now);
  // Spent: the same code (seen over a shoulder, or replayed) is refused next time; of two at once, one wins.
  const ok =
    step !== null &&
    step > (row.totp_step ?? -1) &&
    (await ledger.stmt('UPDATE users SET totp_step = ? WHERE seq = ? AND coalesce(totp_step, -1) < ?').run(step, userSeq, step)).changes === 1;
  if (ok) await clearAttempts(ledger, totpKey(row.id));
  else if (counted.count === TOTP_LIMIT.limit) await lockPerson(ledger, row, counted.lockedUntil, now);
  return ok;
}

/** Too many wrong codes: the person's address is locked as long (a password does not open a pending sign-in meanwhile), and their pending sessions end. */
async function lockPerson(ledger: Ledger, row: PersonRow, until: number, now: number): Promise<void> {
  await ledger.write(async () => {
    await lockKey(ledger, addressKey(row.email), PASSWORD_LIMIT, until, now);
    await ledger.stmt('DELETE FROM desk_sessions WHERE user_seq = ? AND totp_due = 1').run(row.seq);
  });
  await auditLocked(ledger, row, `${TOTP_LIMIT.limit} wrong second-factor codes within ${TOTP_LIMIT.windowMs / 60_000} minutes`, TOTP_LIMIT.lockMs);
}

/** Enrolls a second factor: kept (sealed) only once a code from it is right (the person's app has it). */
export async function enrollTotp(ledger: Ledger, userSeq: number, secret: string, code: string, now = Date.now()): Promise<Person> {
  const step = totpStep(secret, code, now);
  if (step === null) throw new LedgerError('validation_failed', 'That code is not the one your app shows now.', [{ field: 'code', message: 'is not the current code' }]);
  const row = (await personBySeq(ledger, userSeq))!;
  const sealed = sealSecret(ledger, 'totp', row.id, secret);
  const orgs = await orgsOfPerson(ledger, userSeq);
  const actor = { type: 'human' as const, userId: row.id, name: row.name, channel: 'desk' as const };
  const keep = () => ledger.stmt('UPDATE users SET totp_secret = ?, totp_step = ? WHERE seq = ?').run(sealed, step, userSeq);
  // Set with the first organization's audit entry; each organization's log says so (as a reset does).
  for (const [i, orgSeq] of orgs.entries()) {
    await ledger.forOrg(orgSeq, () =>
      ledger.write(async () => {
        if (i === 0) await keep();
        await appendAudit(ledger, orgSeq, actor, {
          action: 'person.second_factor',
          targetType: 'person',
          targetId: row.id,
          summary: `${row.name} <${row.email}> set up a second factor (TOTP)`,
        });
      }),
    );
  }
  if (!orgs.length) await keep();
  return personOf((await personBySeq(ledger, userSeq))!);
}

/** Whether an organization of the person's requires a second factor. */
export const totpRequired = async (ledger: Ledger, userSeq: number): Promise<boolean> =>
  ((await ledger.stmt('SELECT count(*) FROM memberships m JOIN organizations o ON o.seq = m.org_seq WHERE m.user_seq = ? AND o.require_totp = 1').pluck().get(userSeq)) as number) >
  0;

/** Whether the organization asks everyone for a second factor at sign-in. */
export const requiresTotp = async (ledger: Ledger, orgSeq: number): Promise<boolean> =>
  ((await ledger.stmt('SELECT require_totp FROM organizations WHERE seq = ?').pluck().get(orgSeq)) as number) === 1;

/** An owner requires (or no longer requires) a second factor of everyone in the organization; audited. */
export async function requireTotp(ledger: Ledger, orgSeq: number, actor: Human, required: boolean): Promise<{ required: boolean }> {
  return ledger.write(async () => {
    await ledger.stmt('UPDATE organizations SET require_totp = ? WHERE seq = ?').run(required ? 1 : 0, orgSeq);
    const id = (await ledger.stmt('SELECT id FROM organizations WHERE seq = ?').pluck().get(orgSeq)) as string;
    await appendAudit(ledger, orgSeq, actor, {
      action: 'organization.second_factor',
      targetType: 'organization',
      targetId: id,
      summary: `A second factor (TOTP) ${required ? 'required' : 'no longer required'} at sign-in`,
    });
    return { required };
  });
}
