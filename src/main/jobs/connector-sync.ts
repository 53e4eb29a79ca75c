// The schedule's syncs (issue 52): every few minutes, each organization's
// connectors whose next sync is due (their interval, default 6 hours:
// LEDGERDESK_SYNC_EVERY_HOURS; a provider's Retry-After; the back-off after
// errors) are synced, each under its own lease, so two processes never sync one
// connector at once. Row-level security shows one organization at a time, so
// the pass goes organization by organization.
import { syncConnector } from '../connectors/sync';
import { SCHEDULE_ACTOR } from '../ledger/feeds/connectors';
import { dueConnectors } from '../ledger/feeds/schedule';
import { organizationsAfter } from '../ledger/staging/staged';
import type { Ledger } from '../ledger/core/storage';
import type { Job } from './job';

/** How often the job looks for due connectors (each connector syncs on its own interval). */
export const CONNECTOR_PASS_MS = 5 * 60_000;

export async function syncDueConnectors(ledger: Ledger, now: Date): Promise<number> {
  let synced = 0;
  for (let after = 0; ;) {
    const orgs = await ledger.forOrg('all', () => organizationsAfter(ledger, after, 200));
    for (const org of orgs) {
      const due = await ledger.forOrg(org, () => dueConnectors(ledger, org, now.toISOString()));
      for (const c of due) {
        const report = await ledger.forOrg(org, () => syncConnector(ledger, org, c.id, { now, actor: SCHEDULE_ACTOR }));
        if (report.outcome !== 'busy') synced++;
      }
    }
    if (orgs.length < 200) return synced;
    after = orgs[orgs.length - 1];
  }
}

export const connectorSyncJob: Job = {
  name: 'connectors.sync',
  every: CONNECTOR_PASS_MS,
  run: async (ledger, now) => void (await syncDueConnectors(ledger, now)),
};
