// People and their roles (issue 45): added to an organization with a role (an
// invitation link sets their password, or it is given at once), given another
// role, removed (their tokens of that organization revoked, their sessions ended
// when they are in none any more), reset (a new link; the old password and every
// session end). The last owner of an organization cannot be removed or demoted.
// Every change is audited in the organization's log. A person who already signs
// in is not made a member by an owner who types their address (issue 51): they
// are invited, and the owner sees what a new address shows (the name they typed,
// not active, no second factor) until the person accepts (invitations.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { Ledger } from '../core/storage';
import { newId, nowIso } from '../core/clock';
import { invalid, LedgerError } from '../core/errors';
import { appendAudit, type Human } from './audit';
import { checkPassword, hashPassword } from './passwords';
import { isRole, type Role } from './roles';
import { addressKey, totpKey } from './attempts';
import { EMAIL, normalEmail } from './addresses';

export { normalEmail };

const INVITATION_DAYS = 7;
const DAY_MS = 86_400_000;

export interface Person {
  id: string;
  email: string;
  name: string;
  /** Whether they have set a password (an invitation not yet used: false). */
  active: boolean;
  totp: boolean;
}

export interface Member extends Person {
  role: Role;
}

export interface PersonRow {
  seq: number;
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  totp_secret: string | null;
  totp_step: number | null;
  removed_at: string | null;
}

export const personOf = (r: PersonRow): Person => ({ id: r.id, email: r.email, name: r.name, active: r.password_hash !== null, totp: r.totp_secret !== null });
const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export async function personByEmail(ledger: Ledger, email: string): Promise<PersonRow | undefined> {
  return (await ledger.stmt('SELECT * FROM users WHERE email = ?').get(normalEmail(email))) as PersonRow | undefined;
}

export async function personBySeq(ledger: Ledger, seq: number): Promise<PersonRow | undefined> {
  return (await ledger.stmt('SELECT * FROM users WHERE seq = ?').get(seq)) as PersonRow | undefined;
}

/** Whether anyone signs in here with a password (or an invitation to set one): a firm's server, not one person's books. */
export async function anyPerson(ledger: Ledger): Promise<boolean> {
  return (await ledger.stmt('SELECT 1 FROM users WHERE removed_at IS NULL LIMIT 1').pluck().get()) !== undefined;
}

/** A person invited to the organization who has not accepted yet, as its owners see them: the name typed, not active. */
export interface Pending {
  seq: number;
  id: string;
  email: string;
  name: string;
  role: Role;
}
export const pendingOf = (p: Pending): Member => ({ id: p.id, email: p.email, name: p.name, active: false, totp: false, role: p.role });

export const pendingIn = (ledger: Ledger, orgSeq: number, email?: string): Promise<Pending[]> =>
  ledger.rows<Pending>(
    `SELECT u.seq, u.id, u.email, i.name, i.role FROM invitations i JOIN users u ON u.seq = i.user_seq WHERE i.org_seq = ?${email ? ' AND u.email = ?' : ''}`,
    ...(email ? [orgSeq, normalEmail(email)] : [orgSeq]),
  );

async function findMember(ledger: Ledger, orgSeq: number, email: string): Promise<(PersonRow & { role: Role }) | undefined> {
  return (await ledger.stmt('SELECT u.*, m.role FROM users u JOIN memberships m ON m.user_seq = u.seq WHERE u.email = ? AND m.org_seq = ?').get(normalEmail(email), orgSeq)) as
    (PersonRow & { role: Role }) | undefined;
}

const noPerson = (email: string) => new LedgerError('not_found', `No person ${normalEmail(email)} in this organization.`, { resource: 'person', id: normalEmail(email) });

async function requireMember(ledger: Ledger, orgSeq: number, email: string): Promise<PersonRow & { role: Role }> {
  const row = await findMember(ledger, orgSeq, email);
  if (!row) throw noPerson(email);
  return row;
}

/** A member, or a person invited who has not accepted (owners see and manage both alike); not_found otherwise. */
async function memberOrInvited(ledger: Ledger, orgSeq: number, email: string): Promise<{ member: PersonRow & { role: Role } } | { pending: Pending }> {
  const member = await findMember(ledger, orgSeq, email);
  if (member) return { member };
  const [pending] = await pendingIn(ledger, orgSeq, email);
  if (!pending) throw noPerson(email);
  return { pending };
}

const newCode = () => randomBytes(32).toString('base64url');

/** A new invitation (or reset) link's code for a person, the earlier ones spent; valid INVITATION_DAYS. */
export async function issueInvitation(ledger: Ledger, userSeq: number, now = Date.now()): Promise<string> {
  const code = newCode();
  await ledger.stmt('DELETE FROM invitations WHERE org_seq IS NULL AND (user_seq = ? OR expires_at < ?)').run(userSeq, now);
  await ledger.stmt('INSERT INTO invitations (hash, user_seq, expires_at) VALUES (?, ?, ?)').run(hash(code), userSeq, now + INVITATION_DAYS * DAY_MS);
  return code;
}

/** An invitation for a person who already signs in to join the organization (its link's code; the earlier one spent). */
export async function issueOrgInvitation(ledger: Ledger, userSeq: number, orgSeq: number, role: Role, name: string, now = Date.now()): Promise<string> {
  const code = newCode();
  await ledger.stmt('DELETE FROM invitations WHERE user_seq = ? AND org_seq = ?').run(userSeq, orgSeq);
  await ledger
    .stmt('INSERT INTO invitations (hash, user_seq, expires_at, org_seq, role, name) VALUES (?, ?, ?, ?, ?, ?)')
    .run(hash(code), userSeq, now + INVITATION_DAYS * DAY_MS, orgSeq, role, name);
  return code;
}

/** The organization's people with their roles, and those invited who have not accepted yet, by name. */
export async function listMembers(ledger: Ledger, orgSeq: number): Promise<Member[]> {
  const rows = await ledger.rows<PersonRow & { role: Role }>('SELECT u.*, m.role FROM users u JOIN memberships m ON m.user_seq = u.seq WHERE m.org_seq = ?', orgSeq);
  const all = [...rows.map((r) => ({ ...personOf(r), role: r.role })), ...(await pendingIn(ledger, orgSeq)).map(pendingOf)];
  const order = (m: Member) => [m.name.toLowerCase(), m.email];
  return all.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

const owners = async (ledger: Ledger, orgSeq: number) => (await ledger.stmt("SELECT count(*) FROM memberships WHERE org_seq = ? AND role = 'owner'").pluck().get(orgSeq)) as number;

function checkRole(role: string): Role {
  if (!isRole(role)) throw invalid([{ field: 'role', message: 'is owner, accountant, bookkeeper, preparer or client' }]);
  return role;
}

/**
 * Adds a person to the organization with a role. A new address (or a person removed from every organization: a fresh
 * start) becomes a member at once, with an invitation link's code that sets their password, or the password given
 * (scripted set-ups). With `invite` (an owner who is a person), an address someone already signs in with becomes an
 * invitation they accept, and the answer is the one a new address gets: nothing of that person is told. Without it
 * (the machine's owner, who sees every person anyway) they are added at once and sign in as before. The caller runs
 * it for the organization (forOrg).
 */
export async function addMember(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  input: { email: string; name: string; role: string; password?: string },
  options: { invite?: boolean } = {},
): Promise<{ person: Member; invitation: string | null }> {
  const email = normalEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254) throw invalid([{ field: 'email', message: 'must be an email address' }]);
  const name = input.name.trim();
  if (!name || name.length > 200) throw invalid([{ field: 'name', message: 'must be 1 to 200 characters' }]);
  const role = checkRole(input.role);
  if (input.password !== undefined) checkPassword(input.password);
  return ledger.write(async () => {
    let row = await personByEmail(ledger, email);
    const held = row ? ((await findMember(ledger, orgSeq, email))?.role ?? (await pendingIn(ledger, orgSeq, email))[0]?.role) : undefined;
    if (held) throw new LedgerError('conflict', `${email} is already ${held} here: change the role with \`user role\`.`, { field: 'email', role: held });
    const audit = (invitation: boolean) =>
      appendAudit(ledger, orgSeq, actor, {
        action: 'person.added',
        targetType: 'person',
        targetId: row!.id,
        summary: `${name} <${email}> added as ${role}${invitation ? `; invitation link valid ${INVITATION_DAYS} days` : ''}`,
      });
    if (row && !row.removed_at && options.invite) {
      const invitation = await issueOrgInvitation(ledger, row.seq, orgSeq, role, name);
      await audit(true);
      return { person: pendingOf({ seq: row.seq, id: row.id, email, name, role }), invitation };
    }
    if (!row) {
      await ledger.stmt('INSERT INTO users (id, email, name, created_at) VALUES (?, ?, ?, ?)').run(newId(), email, name, nowIso());
      row = (await personByEmail(ledger, email))!;
    } else if (row.removed_at && options.invite) {
      // In no organization any more: a fresh start, as a new address gets (their old password and second factor end).
      await ledger.stmt('UPDATE users SET removed_at = NULL, name = ?, password_hash = NULL, totp_secret = NULL, totp_step = NULL WHERE seq = ?').run(name, row.seq);
    } else if (row.removed_at) await ledger.stmt('UPDATE users SET removed_at = NULL, name = ? WHERE seq = ?').run(name, row.seq);
    await ledger.stmt('INSERT INTO memberships (user_seq, org_seq, role, created_at) VALUES (?, ?, ?, ?)').run(row.seq, orgSeq, role, nowIso());
    if (input.password !== undefined) await ledger.stmt('UPDATE users SET password_hash = ? WHERE seq = ?').run(await hashPassword(input.password), row.seq);
    const fresh = (await personBySeq(ledger, row.seq))!;
    const invitation = fresh.password_hash ? null : await issueInvitation(ledger, row.seq);
    await audit(invitation !== null);
    return { person: { ...personOf(fresh), role }, invitation };
  });
}

/** A person who starts an organization is its first owner (inside the write that creates it). */
export async function makeFirstOwner(ledger: Ledger, orgSeq: number, userSeq: number): Promise<void> {
  await ledger.stmt("INSERT INTO memberships (user_seq, org_seq, role, created_at) VALUES (?, ?, 'owner', ?)").run(userSeq, orgSeq, nowIso());
}

/** Another role for a person in the organization; the last owner stays an owner. */
export async function setMemberRole(ledger: Ledger, orgSeq: number, actor: Human, email: string, roleName: string): Promise<Member> {
  const role = checkRole(roleName);
  return ledger.write(async () => {
    const found = await memberOrInvited(ledger, orgSeq, email);
    if ('pending' in found) {
      const p = found.pending;
      await ledger.stmt('UPDATE invitations SET role = ? WHERE user_seq = ? AND org_seq = ?').run(role, p.seq, orgSeq);
      if (p.role !== role)
        await appendAudit(ledger, orgSeq, actor, { action: 'person.role_changed', targetType: 'person', targetId: p.id, summary: `${p.name} <${p.email}>: ${p.role} -> ${role}` });
      return pendingOf({ ...p, role });
    }
    const row = found.member;
    if (row.role === role) return { ...personOf(row), role };
    if (row.role === 'owner' && (await owners(ledger, orgSeq)) === 1) throw lastOwner(row.email);
    await ledger.stmt('UPDATE memberships SET role = ? WHERE user_seq = ? AND org_seq = ?').run(role, row.seq, orgSeq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'person.role_changed',
      targetType: 'person',
      targetId: row.id,
      summary: `${row.name} <${row.email}>: ${row.role} -> ${role}`,
    });
    return { ...personOf(row), role };
  });
}

const lastOwner = (email: string) =>
  new LedgerError('conflict', `${email} is the organization's last owner: make someone else owner first.`, { field: 'email', reason: 'last_owner' });

/**
 * Removes a person from the organization: their tokens of it are revoked and, when they are in no organization any
 * more, their sessions ended (a role is checked on every request, so they lose this organization at once either way).
 */
export async function removeMember(ledger: Ledger, orgSeq: number, actor: Human, email: string): Promise<Member> {
  return ledger.write(async () => {
    const found = await memberOrInvited(ledger, orgSeq, email);
    if ('pending' in found) {
      const p = found.pending;
      await ledger.stmt('DELETE FROM invitations WHERE user_seq = ? AND org_seq = ?').run(p.seq, orgSeq);
      await appendAudit(ledger, orgSeq, actor, { action: 'person.removed', targetType: 'person', targetId: p.id, summary: `${p.name} <${p.email}> removed (was ${p.role})` });
      return pendingOf(p);
    }
    const row = found.member;
    if (row.role === 'owner' && (await owners(ledger, orgSeq)) === 1) throw lastOwner(row.email);
    await ledger.stmt('DELETE FROM memberships WHERE user_seq = ? AND org_seq = ?').run(row.seq, orgSeq);
    const revoked = (await ledger.stmt('UPDATE tokens SET revoked_at = ? WHERE user_seq = ? AND org_seq = ? AND revoked_at IS NULL').run(nowIso(), row.seq, orgSeq)).changes;
    const left = (await ledger.stmt('SELECT count(*) FROM memberships WHERE user_seq = ?').pluck().get(row.seq)) as number;
    if (left === 0) {
      await ledger.stmt('UPDATE users SET removed_at = ? WHERE seq = ?').run(nowIso(), row.seq);
      await ledger.stmt('DELETE FROM desk_sessions WHERE user_seq = ?').run(row.seq);
      await ledger.stmt('DELETE FROM invitations WHERE user_seq = ?').run(row.seq);
    }
    await appendAudit(ledger, orgSeq, actor, {
      action: 'person.removed',
      targetType: 'person',
      targetId: row.id,
      summary: `${row.name} <${row.email}> removed (was ${row.role})${revoked ? `; ${revoked} token(s) revoked` : ''}`,
    });
    return { ...personOf(row), role: row.role };
  });
}

/** The organizations a person holds a role in (for audit entries about the person, wherever they are). */
export const orgsOfPerson = async (ledger: Ledger, userSeq: number): Promise<number[]> =>
  (await ledger.stmt('SELECT org_seq FROM memberships WHERE user_seq = ? ORDER BY org_seq').pluck().all(userSeq)) as number[];

/**
 * Whether `by` (a person; none: the machine's owner) may reset someone of the organization: they are in it, and a
 * person resets only someone whose every organization they own (a reset hands over the access to all of them).
 */
export async function assertMayReset(ledger: Ledger, orgSeq: number, email: string, by: number | null): Promise<void> {
  const row = await requireMember(ledger, orgSeq, email);
  if (by === null) return;
  const owned = await ledger.rows<{ org_seq: number }>("SELECT org_seq FROM memberships WHERE user_seq = ? AND role = 'owner'", by);
  const theirs = await orgsOfPerson(ledger, row.seq);
  if (theirs.some((seq) => !owned.some((o) => o.org_seq === seq)))
    throw new LedgerError('forbidden', `${row.email} also works for organizations you do not own: ask the server's owner (ledgerdesk user reset).`, {
      reason: 'other_organizations',
    });
}

/**
 * A new link for a person (a forgotten password, a lost device): the password and second factor are cleared and
 * every session ended, or, with a password given, it is set at once. Audited in each of their organizations.
 */
export async function resetPerson(ledger: Ledger, actor: Human, email: string, password?: string): Promise<{ person: Person; invitation: string | null }> {
  if (password !== undefined) checkPassword(password);
  const row = await personByEmail(ledger, email);
  if (!row || row.removed_at) throw new LedgerError('not_found', `No person ${normalEmail(email)}.`, { resource: 'person', id: normalEmail(email) });
  const orgs = await orgsOfPerson(ledger, row.seq);
  const stored = password === undefined ? null : await hashPassword(password);
  let invitation: string | null = null;
  for (const [i, orgSeq] of orgs.entries()) {
    await ledger.forOrg(orgSeq, () =>
      ledger.write(async () => {
        if (i === 0) {
          await ledger.stmt('UPDATE users SET password_hash = ?, totp_secret = NULL WHERE seq = ?').run(stored, row.seq);
          await ledger.stmt('DELETE FROM desk_sessions WHERE user_seq = ?').run(row.seq);
          await ledger.stmt('DELETE FROM sign_in_limits WHERE key = ? OR key = ?').run(addressKey(row.email), totpKey(row.id));
          invitation = stored ? null : await issueInvitation(ledger, row.seq);
        }
        await appendAudit(ledger, orgSeq, actor, {
          action: 'person.reset',
          targetType: 'person',
          targetId: row.id,
          summary: `${row.name} <${row.email}>: ${stored ? 'password set' : 'password and second factor cleared, a new link'}; every session ended`,
        });
      }),
    );
  }
  return { person: personOf((await personBySeq(ledger, row.seq))!), invitation };
}
