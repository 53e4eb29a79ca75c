// People's roles in organizations (issue 45): one row per person and
// organization (memberships). What each role may do is declared with the desk
// operations (desk/roles.ts); here, who holds which.
import type { Ledger } from '../core/storage';
import { ROLES } from '../../../../db/values';

export { ROLES };
export type Role = (typeof ROLES)[number];

export const isRole = (s: string): s is Role => (ROLES as readonly string[]).includes(s);

/**
 * Whether a role sees the books' rows (transactions: their descriptions, amounts, counterparties): all but a client,
 * who reads figures, the chart, invoices and bills (docs/people.md). What a summary shows everyone (the dashboard)
 * leaves the rows out for a client, at the desk and for a client's token alike (issue 50). Null: the machine's owner.
 */
export const seesTransactions = (role: Role | null | undefined): boolean => role !== 'client';

/** A person's role in an organization, or null when they have none there. */
export async function roleOf(ledger: Ledger, userSeq: number, orgSeq: number): Promise<Role | null> {
  const sql = 'SELECT m.role FROM memberships m JOIN organizations o ON o.seq = m.org_seq WHERE m.user_seq = ? AND m.org_seq = ? AND o.removed_at IS NULL';
  return ((await ledger.stmt(sql).pluck().get(userSeq, orgSeq)) as Role | undefined) ?? null;
}

/** Every organization a person holds a role in, with the role. */
export async function rolesOf(ledger: Ledger, userSeq: number): Promise<Map<number, Role>> {
  // A removed organization's roles count for nothing.
  const rows = await ledger.rows<{ org_seq: number; role: Role }>(
    'SELECT m.org_seq, m.role FROM memberships m JOIN organizations o ON o.seq = m.org_seq WHERE m.user_seq = ? AND o.removed_at IS NULL',
    userSeq,
  );
  return new Map(rows.map((r) => [r.org_seq, r.role]));
}
