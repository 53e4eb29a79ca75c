// The Practice screen and `ledgerdesk practice` (issue 55): every organization
// the person holds a staff role in, one row each (ledger/practice/), filtered
// and sorted as they choose (kept per person); and an owner's assignment of an
// organization's responsible bookkeeper and reviewer.
import * as z from 'zod';
import { Line } from '../../api/fields';
import { csvCell } from '../../exports/csv';
import * as L from '../../ledger';
import { rolesOf, type Role } from '../../ledger/access/roles';
import { today } from '../../ledger/core/clock';
import { assign, type Assignments } from '../../ledger/practice/assignments';
import { DEFAULT_CHOICE, keepChoice, keptChoice, PracticeChoice, PRACTICE_SORTS } from '../../ledger/practice/choice';
import type { Viewer } from '../../ledger/practice/column';
import { practice, type Practice } from '../../ledger/practice/practice';
import { approversOf } from '../proposals/review';
import { op, type DeskContext } from '../operation';
import { OWNERS, STAFF, type RoleTable } from '../roles';

/** Whose kept choice: the person's id, '' for the machine's owner. */
const holderOf = (ctx: DeskContext) => ctx.person?.id ?? '';

/** The organizations the viewer holds a staff role in (a client's books are not a firm's work), each with what they may approve. */
async function seenBy(ctx: DeskContext, roles: RoleTable): Promise<{ org: L.Organization; viewer: Viewer }[]> {
  const held = ctx.person ? await rolesOf(ctx.ledger, ctx.person.seq) : null;
  const orgs = (await L.listOrganizations(ctx.ledger)).filter((o) => !held || STAFF.includes(held.get(o.seq) as Role));
  const person = ctx.person;
  // A person's own proposals, and their tokens', are theirs to withdraw, never to approve (desk/proposals/review.ts).
  const tokens = person ? await ctx.ledger.rows<{ org_seq: number; id: string }>('SELECT org_seq, id FROM tokens WHERE user_seq = ?', person.seq) : [];
  return orgs.map((org) => {
    const role: Role = held?.get(org.seq) ?? 'owner';
    const mine = tokens.filter((t) => Number(t.org_seq) === org.seq).map((t) => `mcp:${t.id}`);
    const own = person ? [`${L.PERSON_PREFIX}${person.id}`, ...mine] : [];
    return { org, viewer: { role, own, approves: (type: string) => !person || approversOf(roles, type).includes(role) } };
  });
}

const Query = z.strictObject({
  mine: z.boolean().optional().describe('Only the organizations I am the bookkeeper or reviewer of (a command: with --as <email>)'),
  person: Line(254).trim().min(3).optional().describe('Only those a person (email or id) is the bookkeeper or reviewer of'),
  attention: z.boolean().optional().describe('Only those needing attention (any figure in red)'),
  sort: z
    .enum(PRACTICE_SORTS)
    .optional()
    .describe(`Sorted by: ${PRACTICE_SORTS.join(', ')} (default name)`),
  descending: z.boolean().optional().describe('Largest (or latest) first'),
  kept: z.boolean().optional().describe('The choice kept for me (the screen), instead of these flags'),
});

const partName = { bookkeeper: 'bookkeeper', reviewer: 'reviewer' } as const;
const assignedLine = (a: Assignments) =>
  Object.entries(partName)
    .map(([part, word]) => `${word}: ${a[part as keyof Assignments]?.email ?? '—'}`)
    .join(', ');

/** The table as text, one line per organization, every column's words. */
function printPractice(p: Practice & { choice: PracticeChoice }): string[] {
  if (p.rows.length === 0) return [`No organizations to show (${p.choice.who}${p.choice.attention ? ', needing attention' : ''}).`];
  return p.rows.flatMap((r) => [
    `${r.attention ? '!' : ' '} ${r.org.slug}  ${r.org.name}  (${assignedLine(r.assigned)})`,
    ...p.columns.map((c) => `    ${c.label.padEnd(20)} ${r.cells[c.id].text}${r.cells[c.id].red ? '  [red]' : ''}`),
  ]);
}

function practiceCsv(p: Practice): string {
  const header = ['organization', 'name', 'bookkeeper', 'reviewer', 'attention', ...p.columns.map((c) => c.label)];
  const lines = p.rows.map((r) => [
    r.org.slug,
    r.org.name,
    r.assigned.bookkeeper?.email ?? null,
    r.assigned.reviewer?.email ?? null,
    r.attention ? 'yes' : 'no',
    ...p.columns.map((c) => r.cells[c.id].text),
  ]);
  return [header, ...lines].map((l) => `${l.map(csvCell).join(',')}\r\n`).join('');
}

function choiceOf(input: z.output<typeof Query>): PracticeChoice {
  return PracticeChoice.parse({
    who: input.mine ? 'mine' : (input.person ?? 'all'),
    attention: input.attention ?? false,
    sort: input.sort ?? DEFAULT_CHOICE.sort,
    descending: input.descending ?? false,
  });
}

export const practiceOperations = (roles: () => RoleTable) => ({
  practice: op(
    STAFF,
    Query,
    async (ctx, input) => {
      if (input.mine && !ctx.person) throw L.invalid([{ field: 'mine', message: "names whose: run it as a person (--as <email>), the machine's owner is assigned nowhere" }]);
      const choice = input.kept ? await keptChoice(ctx.ledger, holderOf(ctx)) : choiceOf(input);
      const seen = await seenBy(ctx, roles());
      return { ...(await practice(ctx.ledger, seen, choice, ctx.person?.id ?? null, today())), choice };
    },
    { name: 'practice', summary: "every organization's work waiting, due dates and exceptions, one line each", print: printPractice, csv: practiceCsv },
  ),

  /** The person's filter and sort, kept for their next visit (any browser). */
  keepPracticeChoice: op(STAFF, PracticeChoice, async (ctx, choice) => keepChoice(ctx.ledger, holderOf(ctx), choice)),

  assignPractice: op(
    OWNERS,
    z.strictObject({
      organization: Line(200).trim().min(1).describe('The organization: its slug or id'),
      email: Line(254).trim().min(3).describe('The person (they hold a role there)'),
      asReviewer: z.boolean().optional().describe('As its reviewer (default: its responsible bookkeeper)'),
    }),
    async (ctx, { organization, email, asReviewer }) => {
      const org = await L.requireOrganization(ctx.ledger, organization);
      return { organization: org.slug, ...(await assign(ctx.ledger, org.seq, ctx.reviewer, email, asReviewer ? 'reviewer' : 'bookkeeper')) };
    },
    {
      name: 'practice assign',
      summary: "make a person an organization's responsible bookkeeper (or reviewer)",
      args: ['organization', 'email'],
      print: (a) => [`${a.organization}: ${assignedLine(a)}`],
    },
  ),
});
