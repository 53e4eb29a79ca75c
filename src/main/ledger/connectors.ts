// Connector sync status. `status` is the connection's lifecycle (the spec leaves
// its values open): active, paused or disconnected. `syncStatus` is the last sync's outcome.
import type { Ledger } from './db';

export const CONNECTOR_STATUSES = ['active', 'paused', 'disconnected'] as const;
export const SYNC_STATUSES = ['ok', 'error', 'stale'] as const;

export interface Connector {
  id: string;
  name: string;
  provider: string;
  status: (typeof CONNECTOR_STATUSES)[number];
  lastSyncAt: string | null;
  syncStatus: (typeof SYNC_STATUSES)[number] | null;
}

export function listConnectors(ledger: Ledger, orgSeq: number): Connector[] {
  return ledger
    .stmt(
      `SELECT id, name, provider, status, last_sync_at AS lastSyncAt, sync_status AS syncStatus
       FROM connectors WHERE org_seq = ? ORDER BY name COLLATE NOCASE, seq`,
    )
    .all(orgSeq) as Connector[];
}

export function insertConnector(ledger: Ledger, orgSeq: number, c: Connector): void {
  ledger
    .stmt('INSERT INTO connectors (id, org_seq, name, provider, status, last_sync_at, sync_status) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(c.id, orgSeq, c.name, c.provider, c.status, c.lastSyncAt, c.syncStatus);
}
