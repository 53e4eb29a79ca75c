// Which organization a desk operation runs for: the one its input names. Kept
// apart from the transports so that the owner commands load it without them.
import { findOrganization, type Ledger } from '../ledger';

/**
 * Runs an operation for the organization its input names (orgId, or an organization operation's `organization`:
 * its slug or id), else for 'all' (the organizations themselves): on a server's database, row-level security then
 * shows it that organization's rows and no other's.
 */
export async function forOrgOf<R>(ledger: Ledger, input: unknown, run: () => R | Promise<R>): Promise<R> {
  const named = input as { orgId?: unknown; organization?: unknown } | null;
  const ref = typeof named?.orgId === 'string' ? named.orgId : typeof named?.organization === 'string' ? named.organization : null;
  if (ref === null) return ledger.forOrg('all', run);
  const org = await ledger.forOrg('all', () => findOrganization(ledger, ref));
  // An unknown organization: the operation says so itself (not_found), in a scope that shows nothing.
  return org ? ledger.forOrg(org.seq, run) : ledger.forOrg('all', run);
}
