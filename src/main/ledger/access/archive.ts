// An archived organization (issue 50: `org copy --move`): its books moved to
// other books and checked there, it stays here to be read (reports, exports,
// the Log, by its slug) but out of the list, and every change is refused: a
// change is one the Log records, so the refusal is made where its audit entry
// is appended (audit.ts), inside the change's transaction, and nothing of it is
// written. Unarchiving makes it live again, audited.
import type { Ledger } from '../core/sqlite/open';
import { nowIso } from '../core/clock';
import { LedgerError } from '../core/errors';
import { appendAudit, type Actor } from './audit';
import { inItsOrg, requireOrganization, type Organization } from './organizations';

const archivedAt = async (ledger: Ledger, seq: number) => (await ledger.stmt('SELECT archived_at FROM organizations WHERE seq = ?').pluck().get(seq)) as string | null;

/** Archives an organization; `why` goes to the Log ("moved to postgres://host/db as acme"). */
export async function archiveOrganization(ledger: Ledger, slugOrId: string, actor: Actor, why: string): Promise<Organization> {
  return inItsOrg(ledger, slugOrId, async () => {
    const org = await requireOrganization(ledger, slugOrId);
    if (await archivedAt(ledger, org.seq)) throw new LedgerError('conflict', `Organization "${org.name}" is already archived.`, { organization: org.slug });
    await ledger.stmt('UPDATE organizations SET archived_at = ? WHERE seq = ?').run(nowIso(), org.seq);
    await appendAudit(ledger, org.seq, actor, {
      action: 'organization.archived',
      targetType: 'organization',
      targetId: org.id,
      summary: `Organization "${org.name}" (${org.slug}) archived: ${why}`,
    });
    return org;
  });
}

/** Makes an archived organization live again: in the list, its books open to change. */
export async function unarchiveOrganization(ledger: Ledger, slugOrId: string, actor: Actor): Promise<Organization> {
  return inItsOrg(ledger, slugOrId, async () => {
    const org = await requireOrganization(ledger, slugOrId);
    if (!(await archivedAt(ledger, org.seq))) throw new LedgerError('conflict', `Organization "${org.name}" is not archived.`, { organization: org.slug });
    await ledger.stmt('UPDATE organizations SET archived_at = NULL WHERE seq = ?').run(org.seq);
    await appendAudit(ledger, org.seq, actor, {
      action: 'organization.unarchived',
      targetType: 'organization',
      targetId: org.id,
      summary: `Organization "${org.name}" (${org.slug}) unarchived: its books can change here again`,
    });
    return org;
  });
}
