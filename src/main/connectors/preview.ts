// The first sync of an account that already holds rows (from files) stops at
// the import preview (issue 52): its rows are fetched and planned as an import
// would plan them (new, duplicate, possible match), nothing is written, and the
// person confirms; later syncs of the account write directly.
import type { Ledger } from '../ledger/core/storage';
import { LedgerError } from '../ledger/core/errors';
import { releaseLease, takeLease } from '../ledger/core/leases';
import { feedAccounts, requireConnector, type FeedAccountRow } from '../ledger/feeds/connectors';
import { writePage } from '../ledger/feeds/page';
import { confirmFirstSync } from '../ledger/feeds/schedule';
import type { ImportResult } from '../ledger/imports/import';
import { appendAudit } from '../ledger/access/audit';
import type { FeedRow } from './provider';
import { PROCESS_HOLDER, Session, SYNC_LEASE_MS, syncConnector, type SyncOptions, type SyncReport } from './sync';

/** The account a first sync waits for, by the provider's name or id of it, or the ledger account's name; the only one when there is one. */
async function waitingFeed(ledger: Ledger, connectorSeq: number, ref: string | undefined): Promise<FeedAccountRow> {
  const waiting = (await feedAccounts(ledger, connectorSeq)).filter((f) => f.awaiting_preview && f.account_seq !== null);
  const wanted = ref?.trim().toLowerCase();
  const names = new Map<number, string>();
  for (const f of waiting) names.set(f.seq, ((await ledger.stmt('SELECT name FROM accounts WHERE seq = ?').pluck().get(f.account_seq)) as string).toLowerCase());
  const found = wanted ? waiting.find((f) => f.feed_id.toLowerCase() === wanted || f.name.toLowerCase() === wanted || names.get(f.seq) === wanted) : waiting[0];
  if (!found || (!wanted && waiting.length > 1))
    throw new LedgerError(
      found ? 'validation_failed' : 'not_found',
      waiting.length ? `Name the account whose first sync to see (${waiting.map((f) => `"${f.name}"`).join(', ')}).` : 'No first sync of this connector waits for a preview.',
      [{ field: 'feedAccount', message: waiting.length ? 'name one of the waiting accounts' : 'none waits' }],
    );
  return found;
}

/** What the first sync would write into an account that holds rows: the import's preview, nothing written. */
export async function previewFirstSync(ledger: Ledger, orgSeq: number, ref: string, feedRef: string | undefined, o: SyncOptions): Promise<ImportResult> {
  const row = await requireConnector(ledger, orgSeq, ref);
  const feed = await waitingFeed(ledger, row.seq, feedRef);
  const lease = `connector:${row.id}`;
  const holder = o.holder ?? PROCESS_HOLDER;
  if (!(await takeLease(ledger, lease, holder, o.now.getTime(), o.now.getTime() + SYNC_LEASE_MS)))
    throw new LedgerError('conflict', `"${row.name}" is syncing in another process: try again in a moment.`, { reason: 'busy' });
  try {
    const session = Session.open(ledger, row, o);
    const rows: FeedRow[] = [];
    let cursor: string | null = null;
    for (let n = 0; n < 1000; n++) {
      const page = await session.page(feed, cursor);
      rows.push(...page.rows);
      if (page.next === null) break;
      cursor = page.next;
    }
    const { provider } = session.entry;
    const outcome = await writePage(ledger, orgSeq, o.actor, {
      connector: row,
      feed,
      label: provider.label,
      source: provider.source,
      rows,
      cursor: null,
      pending: null,
      dryRun: true,
    });
    return outcome.result;
  } finally {
    await releaseLease(ledger, lease, holder);
  }
}

/** The person saw the preview and confirms: the account's first sync is made now, and later ones write directly. */
export async function confirmFirst(ledger: Ledger, orgSeq: number, ref: string, feedRef: string | undefined, o: SyncOptions): Promise<SyncReport> {
  const row = await requireConnector(ledger, orgSeq, ref);
  const feed = await waitingFeed(ledger, row.seq, feedRef);
  await ledger.write(async () => {
    await confirmFirstSync(ledger, feed.seq);
    await appendAudit(ledger, orgSeq, o.actor, {
      action: 'connector.first_sync_confirmed',
      targetType: 'connector',
      targetId: row.id,
      summary: `"${row.name}": the first sync of "${feed.name}" confirmed after its preview`,
    });
  });
  return syncConnector(ledger, orgSeq, row.id, o);
}
