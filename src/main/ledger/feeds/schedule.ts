// When a connector syncs next and how its last sync went (issue 52): the
// outcome in words, the failures in a row that the back-off grows with, and the
// calls made today against a provider's daily allowance. The times are the
// caller's clock (jobs/ passes it in).
import type { Ledger } from '../core/storage';
import type { ConnectorRow } from './connectors';

export interface SyncOutcome {
  syncStatus: 'ok' | 'error' | null;
  /** In words, never a secret; null when it went well. */
  error: string | null;
  lastSyncAt: string | null;
  nextSyncAt: string | null;
  /** Failures in a row after this sync. */
  failures: number;
}

/** Written whatever the sync did: the books are as its committed pages left them. */
export async function recordOutcome(ledger: Ledger, connectorSeq: number, o: SyncOutcome): Promise<void> {
  await ledger
    .stmt('UPDATE connectors SET sync_status = coalesce(?, sync_status), sync_error = ?, last_sync_at = coalesce(?, last_sync_at), next_sync_at = ?, failures = ? WHERE seq = ?')
    .run(o.syncStatus, o.error, o.lastSyncAt, o.nextSyncAt, o.failures, connectorSeq);
}

/**
 * Counts one call to the provider on `day` (UTC) unless `limit` were passed: answers whether the call may be made.
 * One conditional statement, so processes syncing other accounts of the connector count together.
 */
export async function countCall(ledger: Ledger, connectorSeq: number, day: string, limit: number): Promise<boolean> {
  const counted = await ledger
    .stmt(
      `UPDATE connectors SET calls = CASE WHEN calls_day = ? THEN calls + 1 ELSE 1 END, calls_day = ?
       WHERE seq = ? AND (calls_day IS NULL OR calls_day <> ? OR calls < ?)`,
    )
    .run(day, day, connectorSeq, day, limit);
  return counted.changes === 1;
}

/** The organization's connectors the schedule should sync now: connected, and due (never synced, or their next time passed). */
export async function dueConnectors(ledger: Ledger, orgSeq: number, now: string): Promise<ConnectorRow[]> {
  return ledger.rows<ConnectorRow>(
    "SELECT * FROM connectors WHERE org_seq = ? AND status = 'active' AND credentials IS NOT NULL AND (next_sync_at IS NULL OR next_sync_at <= ?) ORDER BY seq",
    orgSeq,
    now,
  );
}

/** A first sync the person looked at and confirmed: later syncs of the account write directly. */
export async function confirmFirstSync(ledger: Ledger, feedSeq: number): Promise<void> {
  await ledger.stmt('UPDATE connector_accounts SET awaiting_preview = 0 WHERE seq = ?').run(feedSeq);
}
