// Which organization a desk operation runs for, and as whom (issue 45): the
// organization its input names, the signed-in person's role there checked against
// the roles the operation declares (403 forbidden otherwise, whatever a screen
// shows), and the person named as the actor of what it writes. Kept apart from
// the transports so that the owner commands load it without them.
import type { Ledger } from '../ledger/core/storage';
import { LedgerError } from '../ledger/core/errors';
import { findOrganization, noSuchOrganization, type Organization } from '../ledger/access/organizations';
import { roleOf, rolesOf, type Role } from '../ledger/access/roles';
import { totpRequired } from '../ledger/access/second-factor';
import type { DeskContext, DeskPerson } from './operation';
import { ANYONE } from './roles';

/** The organization an input names (orgId, or an organization operation's `organization`: slug or id). */
const refOf = (input: unknown): string | null => {
  const named = input as { orgId?: unknown; organization?: unknown } | null;
  return typeof named?.orgId === 'string' ? named.orgId : typeof named?.organization === 'string' ? named.organization : null;
};

/**
 * Runs an operation for the organization its input names, else for 'all' (the organizations themselves): on a
 * server's database, row-level security then shows it that organization's rows and no other's.
 */
export async function forOrgOf<R>(ledger: Ledger, input: unknown, run: (org: Organization | null, asked: string | null) => R | Promise<R>): Promise<R> {
  const ref = refOf(input);
  const org = ref === null ? null : await ledger.forOrg('all', () => findOrganization(ledger, ref));
  // An unknown organization: the operation says so itself (not_found), in a scope that shows nothing.
  return org ? ledger.forOrg(org.seq, () => run(org, ref)) : ledger.forOrg('all', () => run(null, ref));
}

/** The actor a person's writes name: their id, and their name with their role ("Dana Reyes (bookkeeper)"). */
export const personActor = (person: DeskPerson, role: Role | null) => ({
  type: 'human' as const,
  userId: person.id,
  name: role ? `${person.name} (${role})` : person.name,
  channel: 'desk' as const,
});

/**
 * The context an operation runs in for the person signed in (none: the machine's owner, every organization's owner):
 * their role in the organization (or, for an operation of no one organization, whether they hold one of its roles
 * anywhere), refused with 403 when the operation does not allow it. `asked`: how the input named the organization.
 */
export async function asPerson(ctx: DeskContext, name: string, roles: readonly Role[], org: Organization | null, asked: string | null = null): Promise<DeskContext> {
  const person = ctx.person;
  if (!person) return { ...ctx, role: 'owner' };
  if (org) {
    const role = await roleOf(ctx.ledger, person.seq, org.seq);
    // An organization the person is not in is one they cannot see: not found, the very answer an unknown one gets,
    // naming only what they asked (never the slug or id they did not type).
    if (!role) throw noSuchOrganization(asked ?? '');
    if (!roles.includes(role)) throw forbidden(name, role, roles, org.name);
    if (org.requireTotp && !person.totp) throw secondFactorFirst(org.name);
    return { ...ctx, role, reviewer: personActor(person, role) };
  }
  // An organization named that does not exist answers as one the person is not in (before any role is weighed).
  if (asked !== null) throw noSuchOrganization(asked);
  const held = [...(await rolesOf(ctx.ledger, person.seq)).values()];
  const role = roles.find((r) => held.includes(r));
  // One's own account and the list of one's organizations stay open to a person in none any more.
  if (!role && roles === ANYONE) return { ...ctx, role: undefined, reviewer: personActor(person, null) };
  if (!role) throw forbidden(name, held[0] ?? null, roles, null);
  // What everyone may do (their own account, the list of their organizations) stays open to set a second factor up.
  if (roles !== ANYONE && !person.totp && (await totpRequired(ctx.ledger, person.seq))) throw secondFactorFirst('An organization of yours');
  return { ...ctx, role, reviewer: personActor(person, role) };
}

const forbidden = (name: string, role: Role | null, roles: readonly Role[], where: string | null) =>
  new LedgerError(
    'forbidden',
    `${role ? `As ${role}${where ? ` of ${where}` : ''}` : 'Without a role'} you may not ${name.replace(/([A-Z])/g, ' $1').toLowerCase()}: it is for ${roles.length ? roles.join(', ') : "the server's owner (the desktop app or a command)"}.`,
    { operation: name, role, allowed: roles },
  );

const secondFactorFirst = (who: string) =>
  new LedgerError('forbidden', `${who} asks for a second factor at sign-in: set one up first (your account, "Second factor").`, { reason: 'second_factor_required' });
