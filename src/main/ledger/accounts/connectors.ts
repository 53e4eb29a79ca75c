// Connector sync status. `status` is the connection's lifecycle (the spec leaves
// its values open): active, paused or disconnected. `syncStatus` is the last sync's outcome.
//
// An account fed by statement files is a connector too: provider `file_import`,
// status active (or disconnected once the account is closed), lastSyncAt its
// last import, syncStatus null before the first import, `stale` when nothing
// was imported for STALE_AFTER_DAYS days, else `ok`.
import { accountFacts, accountRows } from './accounts';
import type { Ledger } from '../core/sqlite/open';

import { CONNECTOR_STATUSES, SYNC_STATUSES } from '../../../../db/values';

export { CONNECTOR_STATUSES, SYNC_STATUSES };
export const FILE_IMPORT_PROVIDER = 'file_import';
/** A month of statements plus a few days' grace. */
export const STALE_AFTER_DAYS = 35;

export interface Connector {
  id: string;
  name: string;
  provider: string;
  status: (typeof CONNECTOR_STATUSES)[number];
  lastSyncAt: string | null;
  syncStatus: (typeof SYNC_STATUSES)[number] | null;
}

export async function listConnectors(ledger: Ledger, orgSeq: number, now = Date.now()): Promise<Connector[]> {
  const facts = await accountFacts(ledger, orgSeq);
  const accounts = (await accountRows(ledger, orgSeq)).map((a): Connector => {
    const at = facts.get(a.seq)?.lastImportAt ?? null;
    const stale = !a.closed_at && at !== null && now - Date.parse(at) > STALE_AFTER_DAYS * 86_400_000;
    return {
      id: a.id,
      name: a.name,
      provider: FILE_IMPORT_PROVIDER,
      status: a.closed_at ? 'disconnected' : 'active',
      lastSyncAt: at,
      syncStatus: at === null ? null : stale ? 'stale' : 'ok',
    };
  });
  const feeds = (await ledger
    .stmt(
      `SELECT id, name, provider, status, last_sync_at AS "lastSyncAt", sync_status AS "syncStatus"
       FROM connectors WHERE org_seq = ? ORDER BY lower(name), seq`,
    )
    .all(orgSeq)) as Connector[];
  return [...accounts, ...feeds];
}
