// Accepting an invitation (issues 45 and 51). A link's code: a new person's sets
// their password once; a person who already signs in was invited to join an
// organization (people.ts, addMember), and accepts with their own password
// through the link (counted as a sign-in at their address), or signed in, from
// the list of their invitations. A person's organizations and invitations.
import { createHash } from 'node:crypto';
import type { Ledger } from '../core/storage';
import { nowIso } from '../core/clock';
import { LedgerError } from '../core/errors';
import { addressKey, allowed, clearAttempts, countAttempt } from './attempts';
import { checkPassword, hashPassword, verifyPassword } from './passwords';
import { issueOrgInvitation, pendingIn, pendingOf, personBySeq, type Member, type PersonRow } from './people';
import type { Role } from './roles';
import { auditLocked, locked, LOCK_AFTER, PASSWORD_LIMIT, refusedSignIn } from './sign-in';

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const usedOrExpired = () => new LedgerError('unauthorized', 'This link was already used or has expired: ask for a new one.', { reason: 'invitation' });

interface Link {
  user_seq: number;
  org_seq: number | null;
  role: Role | null;
}

/** Joins an organization a person was invited to (inside a write): the invitation spent, the membership made. */
async function join(ledger: Ledger, userSeq: number, orgSeq: number, role: Role): Promise<void> {
  await ledger.stmt('DELETE FROM invitations WHERE user_seq = ? AND org_seq = ?').run(userSeq, orgSeq);
  await ledger.stmt('INSERT INTO memberships (user_seq, org_seq, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(userSeq, orgSeq, role, nowIso());
}

/** A person who signs in already proves it with their password (counted at their address, as a sign-in is). */
async function provePassword(ledger: Ledger, person: PersonRow, password: string, now: number): Promise<void> {
  const key = addressKey(person.email);
  const counted = await countAttempt(ledger, key, PASSWORD_LIMIT, now);
  if (!allowed(counted, PASSWORD_LIMIT)) throw locked(counted.lockedUntil);
  if (await verifyPassword(password, person.password_hash!)) return clearAttempts(ledger, key);
  if (counted.count === LOCK_AFTER) await auditLocked(ledger, person, `${LOCK_AFTER} failed sign-ins within 15 minutes`, PASSWORD_LIMIT.lockMs);
  throw refusedSignIn();
}

/**
 * A link's code and a password: a new person's password is set (the code spent); a person invited to an organization
 * who has a password gives it and joins. Answers the person.
 */
export async function acceptInvitation(ledger: Ledger, code: string, password: string, now = Date.now()): Promise<PersonRow> {
  const link = (await ledger.stmt('SELECT user_seq, org_seq, role FROM invitations WHERE hash = ? AND expires_at >= ?').get(hash(code), now)) as Link | undefined;
  const person = link && (await personBySeq(ledger, link.user_seq));
  if (!link || !person) throw usedOrExpired();
  const known = person.password_hash !== null;
  if (known) await provePassword(ledger, person, password, now);
  else checkPassword(password);
  const stored = known ? null : await hashPassword(password);
  return ledger.write(async () => {
    // Spent by deleting it: of two tabs using one link, one goes on.
    if ((await ledger.stmt('DELETE FROM invitations WHERE hash = ?').run(hash(code))).changes !== 1) throw usedOrExpired();
    if (stored) await ledger.stmt('UPDATE users SET password_hash = ? WHERE seq = ?').run(stored, person.seq);
    if (link.org_seq !== null) await join(ledger, person.seq, link.org_seq, link.role!);
    return (await personBySeq(ledger, person.seq))!;
  });
}

/** The organizations a person holds a role in, by name, with the role. */
export const membershipsOf = (ledger: Ledger, userSeq: number): Promise<{ id: string; name: string; role: Role }[]> =>
  ledger.rows(
    'SELECT o.id, o.name, m.role FROM memberships m JOIN organizations o ON o.seq = m.org_seq WHERE m.user_seq = ? AND o.removed_at IS NULL ORDER BY lower(o.name)',
    userSeq,
  );

/** The organizations a person is invited to and has not answered, by name, with the role offered. */
export const invitationsOf = (ledger: Ledger, userSeq: number): Promise<{ id: string; name: string; role: Role }[]> =>
  ledger.rows(
    'SELECT o.id, o.name, i.role FROM invitations i JOIN organizations o ON o.seq = i.org_seq WHERE i.user_seq = ? AND o.removed_at IS NULL ORDER BY lower(o.name)',
    userSeq,
  );

async function invitedTo(ledger: Ledger, userSeq: number, orgId: string): Promise<{ seq: number; role: Role }> {
  const found = (await ledger
    .stmt('SELECT o.seq, i.role FROM invitations i JOIN organizations o ON o.seq = i.org_seq WHERE i.user_seq = ? AND o.id = ? AND o.removed_at IS NULL')
    .get(userSeq, orgId)) as { seq: number; role: Role } | undefined;
  // Not invited is as not there: not found, naming nothing but what was asked.
  if (!found) throw new LedgerError('not_found', `No invitation to organization "${orgId}".`, { resource: 'invitation', id: orgId });
  return found;
}

/** A signed-in person accepts an invitation: they join with the role offered. */
export async function joinOrganization(ledger: Ledger, userSeq: number, orgId: string): Promise<{ id: string; role: Role }> {
  return ledger.write(async () => {
    const { seq, role } = await invitedTo(ledger, userSeq, orgId);
    await join(ledger, userSeq, seq, role);
    return { id: orgId, role };
  });
}

/** A signed-in person declines an invitation: it is gone. */
export async function declineInvitation(ledger: Ledger, userSeq: number, orgId: string): Promise<{ id: string }> {
  const { seq } = await invitedTo(ledger, userSeq, orgId);
  await ledger.stmt('DELETE FROM invitations WHERE user_seq = ? AND org_seq = ?').run(userSeq, seq);
  return { id: orgId };
}

/** An owner's "new link" for someone invited who has not accepted: a new invitation link (the earlier one spent); null when they are not invited. */
export async function reinvite(ledger: Ledger, orgSeq: number, email: string): Promise<{ person: Member; invitation: string } | null> {
  const [pending] = await pendingIn(ledger, orgSeq, email);
  if (!pending) return null;
  return { person: pendingOf(pending), invitation: await issueOrgInvitation(ledger, pending.seq, orgSeq, pending.role, pending.name) };
}

/**
 * What an invitation link is for (issue 50), shown on its page before the password is typed: the address it was made
 * for and the organizations it opens, with the role. Nothing is spent; an unknown or expired code is refused as the
 * link itself is.
 */
export async function invitationAbout(ledger: Ledger, code: string, now = Date.now()): Promise<{ email: string; known: boolean; organizations: { name: string; role: Role }[] }> {
  const link = (await ledger.stmt('SELECT user_seq, org_seq, role FROM invitations WHERE hash = ? AND expires_at >= ?').get(hash(code), now)) as Link | undefined;
  const person = link && (await personBySeq(ledger, link.user_seq));
  if (!link || !person) throw usedOrExpired();
  const organizations = await ledger.forOrg('all', async () =>
    link.org_seq !== null
      ? ledger.rows<{ name: string; role: Role }>('SELECT name, ? AS role FROM organizations WHERE seq = ? AND removed_at IS NULL', link.role, link.org_seq)
      : (await membershipsOf(ledger, person.seq)).map(({ name, role }) => ({ name, role })),
  );
  return { email: person.email, known: person.password_hash !== null, organizations };
}
