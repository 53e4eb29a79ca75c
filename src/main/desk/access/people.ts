// People at the desk (issue 45): the People screen for owners and the `ledgerdesk
// user ...` commands: add a person with a role (an invitation link, or a password
// from standard input for scripted set-ups), change a role, remove, reset; and for
// everyone signed in, their own second factor, the invitations they answer, and
// "sign out everywhere". An owner who is a person adding an address someone
// already signs in with invites them (issue 51): the answer is a new address's.
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { Line } from '../../api/fields';
import * as L from '../../ledger';
import { addMember, assertMayReset, listMembers, orgsOfPerson, personByEmail, removeMember, resetPerson, setMemberRole, type Member } from '../../ledger/access/people';
import { declineInvitation, invitationsOf, joinOrganization, membershipsOf, reinvite } from '../../ledger/access/invitations';
import { ROLES } from '../../ledger/access/roles';
import { enrollTotp, requiresTotp, requireTotp } from '../../ledger/access/second-factor';
import { tokensByMaker } from '../../ledger/access/tokens';
import { newTotpSecret, totpUri } from '../../ledger/access/totp';
import { mapInOrder } from '../../ledger/core/in-order';
import { op, Org, orgSeq, type DeskContext } from '../operation';
import { ANYONE, OWNERS } from '../roles';

const Email = Line(254).trim().min(3).describe('Their email address (how they sign in)');
const Role = z.enum(ROLES).describe('owner, accountant, bookkeeper, preparer or client');
const PasswordStdin = z.boolean().optional().describe('(owner commands) read the password from standard input and set it now, instead of printing a link');
/** The screens' page that takes an invitation's code: in the fragment, which no request, log or Referer carries. */
export const INVITATION_PATH = '/#/invitation/';

/** Where links point: the server's public address, else where `serve` runs on this machine. */
const linkOf = (ctx: DeskContext, code: string) => `${ctx.publicUrl ?? ctx.agentUrl ?? ''}${INVITATION_PATH}${code}`;

/** A password given on standard input (owner commands only: a window never hands one over). */
export function stdinPassword(ctx: DeskContext, asked: boolean | undefined): string | undefined {
  if (!asked) return undefined;
  if (ctx.mode !== 'command') throw L.invalid([{ field: 'passwordStdin', message: 'is for owner commands' }]);
  return readFileSync(0, 'utf8').replace(/\r?\n$/, '');
}

const OrgIdOf = Line(100).trim().min(1).describe("The inviting organization's id (whoAmI's invitations)");

/** The person signed in (an invitation is a person's: the machine's owner is in every organization already). */
function personOnly(ctx: DeskContext): NonNullable<DeskContext['person']> {
  if (!ctx.person) throw new L.LedgerError('conflict', "The machine's owner is every organization's owner: invitations are for people.", null);
  return ctx.person;
}

const memberLine = (m: Member) => `${m.email.padEnd(32)}  ${m.name}  ${m.role}${m.active ? '' : '  (invited)'}${m.totp ? '  2FA' : ''}`;

export const peopleOperations = {
  listPeople: op(
    OWNERS,
    z.strictObject(Org),
    async (ctx, { orgId }) => {
      const seq = await orgSeq(ctx, orgId);
      const tokens = await tokensByMaker(ctx.ledger, seq);
      const byMaker = (email: string | null) => tokens.filter((t) => t.maker === email);
      return {
        people: (await listMembers(ctx.ledger, seq)).map((m) => ({ ...m, tokens: byMaker(m.email) })),
        machineTokens: byMaker(null),
        requireTotp: await requiresTotp(ctx.ledger, seq),
      };
    },
    {
      name: 'user list',
      summary: "the organization's people and their roles",
      print: (r) => (r.people.length ? r.people.map(memberLine) : ['No people yet: `user add <email> --name <n> --role <role>`.']),
    },
  ),

  addPerson: op(
    OWNERS,
    z.strictObject({ ...Org, email: Email, name: Line(200).trim().min(1).describe('Their name, as the log and the cards show it'), role: Role, passwordStdin: PasswordStdin }),
    async (ctx, { orgId, email, name, role, passwordStdin }) => {
      // A person's add of someone who exists is an invitation (the machine's owner, who sees everyone, adds at once).
      const added = await addMember(
        ctx.ledger,
        await orgSeq(ctx, orgId),
        ctx.reviewer,
        { email, name, role, password: stdinPassword(ctx, passwordStdin) },
        { invite: ctx.person != null },
      );
      return { person: added.person, invitationUrl: added.invitation && linkOf(ctx, added.invitation) };
    },
    {
      name: 'user add',
      summary: 'add a person with a role in the organization (prints a one-time invitation link, valid 7 days)',
      args: ['email'],
      print: (r) => [`Added ${memberLine(r.person)}`, ...(r.invitationUrl ? [`Invitation link (one use, 7 days): ${r.invitationUrl}`] : [])],
    },
  ),

  setPersonRole: op(
    OWNERS,
    z.strictObject({ ...Org, email: Email, role: Role }),
    async (ctx, { orgId, email, role }) => setMemberRole(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, email, role),
    { name: 'user role', summary: "change a person's role in the organization", args: ['email'], print: (m) => [`Now ${memberLine(m)}`] },
  ),

  removePerson: op(
    OWNERS,
    z.strictObject({ email: Email, organization: Line(200).trim().min(1).optional().describe('The organization (slug or id); none: every organization the person is in') }),
    async (ctx, { email, organization }) => {
      if (organization) return [await removeMember(ctx.ledger, (await L.requireOrganization(ctx.ledger, organization)).seq, ctx.reviewer, email)];
      // From every organization: the machine's owner only (a person removes people where they are owner, one at a time).
      if (ctx.person) throw new L.LedgerError('forbidden', 'Name the organization to remove a person from.', { operation: 'removePerson' });
      const person = await personByEmail(ctx.ledger, email);
      const orgs = person ? await orgsOfPerson(ctx.ledger, person.seq) : [];
      if (!orgs.length) throw new L.LedgerError('not_found', `No person ${email} in any organization.`, { resource: 'person', id: email });
      return mapInOrder(orgs, (seq) => ctx.ledger.forOrg(seq, () => removeMember(ctx.ledger, seq, ctx.reviewer, email)));
    },
    {
      name: 'user remove',
      summary: 'remove a person from an organization (--organization), or from every one: their sessions and tokens stop at once',
      args: ['email'],
      print: (removed) => [`Removed ${removed[0].email} (${removed.length} organization(s)).`],
    },
  ),

  resetPerson: op(
    OWNERS,
    z.strictObject({ ...Org, email: Email, passwordStdin: PasswordStdin }),
    async (ctx, { orgId, email, passwordStdin }) => {
      const seq = await orgSeq(ctx, orgId);
      // Someone invited who has not accepted: a new invitation link, as a new address's reset is a new link.
      const again = await reinvite(ctx.ledger, seq, email);
      if (again) return { person: again.person, invitationUrl: linkOf(ctx, again.invitation) };
      await assertMayReset(ctx.ledger, seq, email, ctx.person?.seq ?? null);
      const done = await resetPerson(ctx.ledger, ctx.reviewer, email, stdinPassword(ctx, passwordStdin));
      return { person: done.person, invitationUrl: done.invitation && linkOf(ctx, done.invitation) };
    },
    {
      name: 'user reset',
      summary: 'a new link for a person (the old password, second factor and every session end), or --password-stdin',
      args: ['email'],
      print: (r) => [r.invitationUrl ? `Link for ${r.person.email} (one use, 7 days): ${r.invitationUrl}` : `Password set for ${r.person.email}.`],
    },
  ),

  requireSecondFactor: op(OWNERS, z.strictObject({ ...Org, required: z.boolean() }), async (ctx, { orgId, required }) =>
    requireTotp(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, required),
  ),

  /** The person signed in: their organizations and roles, and the invitations they have not answered (the machine's owner: none, owner of all). */
  whoAmI: op(ANYONE, z.strictObject({}), async (ctx) =>
    ctx.person
      ? {
          person: { id: ctx.person.id, name: ctx.person.name, email: ctx.person.email },
          organizations: await membershipsOf(ctx.ledger, ctx.person.seq),
          invitations: await invitationsOf(ctx.ledger, ctx.person.seq),
        }
      : { person: null, organizations: [], invitations: [] },
  ),

  /** The person signed in accepts an organization's invitation: they join it with the role offered. */
  acceptInvitation: op(ANYONE, z.strictObject({ invitation: OrgIdOf }), (ctx, { invitation }) => joinOrganization(ctx.ledger, personOnly(ctx).seq, invitation)),

  /** The person signed in declines an organization's invitation. */
  declineInvitation: op(ANYONE, z.strictObject({ invitation: OrgIdOf }), (ctx, { invitation }) => declineInvitation(ctx.ledger, personOnly(ctx).seq, invitation)),

  /** A new second factor's secret for the person to add to their app; kept once a code from it is right (confirmSecondFactor). */
  newSecondFactor: op(ANYONE, z.strictObject({}), async (ctx) => {
    if (!ctx.person) throw new L.LedgerError('conflict', "The machine's owner signs in by its one-time link: a second factor is for people.", null);
    const secret = newTotpSecret();
    const uri = totpUri(secret, ctx.person.email);
    // The address as a QR code the app scans (an SVG data: URL the screens show as an image); loaded only here.
    const QRCode = await import('qrcode');
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }),

  confirmSecondFactor: op(ANYONE, z.strictObject({ secret: z.string().regex(/^[A-Z2-7]{32}$/), code: z.string().regex(/^\d{6}$/) }), async (ctx, { secret, code }) => {
    if (!ctx.person) throw new L.LedgerError('conflict', 'A second factor is for people.', null);
    return enrollTotp(ctx.ledger, ctx.person.seq, secret, code);
  }),
};
