// Who answers for an organization's books (issue 55): its responsible
// bookkeeper and its reviewer, one person each, given by an owner; a person
// assigned holds a role there (they could not see its books otherwise).
import { PRACTICE_PARTS } from '../../../../db/values';
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { personByEmail } from '../access/people';
import { roleOf } from '../access/roles';
import { nowIso } from '../core/clock';
import { inList } from '../core/dialect';
import { invalid } from '../core/errors';
import type { Ledger } from '../core/storage';

export { PRACTICE_PARTS };
export type PracticePart = (typeof PRACTICE_PARTS)[number];

export interface Assigned {
  id: string;
  name: string;
  email: string;
}

export type Assignments = Record<PracticePart, Assigned | null>;

/** Several organizations' bookkeepers and reviewers, by org seq, in one read (in the scope of those organizations). */
export async function assignmentsIn(ledger: Ledger, orgSeqs: readonly number[]): Promise<Map<number, Assignments>> {
  const rows = await ledger.rows<{ org_seq: number; part: PracticePart; id: string; name: string; email: string }>(
    `SELECT a.org_seq, a.part, u.id, u.name, u.email FROM practice_assignments a JOIN users u ON u.seq = a.user_seq WHERE ${inList(ledger, 'a.org_seq')} AND u.removed_at IS NULL`,
    orgSeqs,
  );
  const out = new Map(orgSeqs.map((seq) => [seq, Object.fromEntries(PRACTICE_PARTS.map((p) => [p, null])) as Assignments]));
  for (const r of rows) {
    const assigned = out.get(Number(r.org_seq));
    if (assigned) assigned[r.part] = { id: r.id, name: r.name, email: r.email };
  }
  return out;
}

/** An organization's bookkeeper and reviewer (read in its scope). */
export const assignmentsOf = async (ledger: Ledger, orgSeq: number): Promise<Assignments> => (await assignmentsIn(ledger, [orgSeq])).get(orgSeq)!;

/** Makes a person the organization's bookkeeper (or reviewer), in place of whoever was; with its audit entry. */
export async function assign(ledger: Ledger, orgSeq: number, actor: Human, email: string, part: PracticePart): Promise<Assignments> {
  const person = await personByEmail(ledger, email);
  // A person with no role here is told apart from no one only by the owner, who sees the organization's people anyway.
  if (!person || person.removed_at || !(await roleOf(ledger, person.seq, orgSeq)))
    throw invalid([{ field: 'email', message: 'names no one with a role in this organization (give them one first: People, or `ledgerdesk user add`)' }]);
  return ledger.write(async () => {
    await ledger
      .stmt(
        'INSERT INTO practice_assignments (org_seq, part, user_seq, assigned_at) VALUES (?, ?, ?, ?) ON CONFLICT (org_seq, part) DO UPDATE SET user_seq = excluded.user_seq, assigned_at = excluded.assigned_at',
      )
      .run(orgSeq, part, person.seq, nowIso());
    await appendAudit(ledger, orgSeq, actor, {
      action: 'practice.assign',
      targetType: 'organization',
      targetId: (await organizationBySeq(ledger, orgSeq)).id,
      summary: `${person.name} <${person.email}> is the ${part === 'reviewer' ? 'reviewer' : 'responsible bookkeeper'}`,
    });
    return assignmentsOf(ledger, orgSeq);
  });
}
