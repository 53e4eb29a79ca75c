// A connector as the Connections screen and `connector list` show it (issue
// 52): status, last and next sync, the consent's expiry with a warning two
// weeks before, the error in words, each reported account and what it feeds,
// the rows pending and held. Never its credentials.
import type { Ledger } from '../core/storage';
import { connectorRows, feedAccounts, type ConnectorRow } from './connectors';

/** How long before a consent lapses the connector warns. */
export const CONSENT_WARNING_DAYS = 14;

export interface FeedAccountView {
  feedId: string;
  name: string;
  currency: string;
  /** The ledger account it feeds; null: not mapped yet. */
  account: { id: string; name: string } | null;
  /** Mapped onto rows from files: the first sync waits for the person at its preview. */
  awaitingPreview: boolean;
  lastSyncAt: string | null;
  pending: number;
}

export interface ConnectorView {
  id: string;
  name: string;
  provider: string;
  status: string;
  syncStatus: string | null;
  lastSyncAt: string | null;
  nextSyncAt: string | null;
  consentExpiresAt: string | null;
  /** The consent lapses within CONSENT_WARNING_DAYS (or has): said in words. */
  consentWarning: string | null;
  error: string | null;
  accounts: FeedAccountView[];
  /** Rows held for the person, not yet decided. */
  held: number;
}

function consentWarning(expiresAt: string | null, now: Date): string | null {
  if (!expiresAt) return null;
  const days = Math.ceil((Date.parse(expiresAt) - now.getTime()) / 86_400_000);
  if (days > CONSENT_WARNING_DAYS) return null;
  return days <= 0
    ? `The consent expired on ${expiresAt.slice(0, 10)}: reconnect to sync again.`
    : `The consent expires on ${expiresAt.slice(0, 10)} (in ${days} day(s)): reconnect before then.`;
}

async function viewOf(ledger: Ledger, c: ConnectorRow, now: Date): Promise<ConnectorView> {
  const accounts: FeedAccountView[] = [];
  for (const f of await feedAccounts(ledger, c.seq)) {
    const a = f.account_seq === null ? undefined : ((await ledger.stmt('SELECT id, name FROM accounts WHERE seq = ?').get(f.account_seq)) as { id: string; name: string });
    const pending = Number(await ledger.stmt('SELECT count(*) FROM feed_pending WHERE connector_account_seq = ?').pluck().get(f.seq));
    accounts.push({ feedId: f.feed_id, name: f.name, currency: f.currency, account: a ?? null, awaitingPreview: f.awaiting_preview === 1, lastSyncAt: f.last_sync_at, pending });
  }
  const held = Number(
    await ledger
      .stmt('SELECT count(*) FROM feed_held WHERE decided_at IS NULL AND connector_account_seq IN (SELECT seq FROM connector_accounts WHERE connector_seq = ?)')
      .pluck()
      .get(c.seq),
  );
  return {
    id: c.id,
    name: c.name,
    provider: c.provider,
    status: c.status,
    syncStatus: c.sync_status,
    lastSyncAt: c.last_sync_at,
    nextSyncAt: c.next_sync_at,
    consentExpiresAt: c.consent_expires_at,
    consentWarning: c.status === 'disconnected' ? null : consentWarning(c.consent_expires_at, now),
    error: c.sync_error,
    accounts,
    held,
  };
}

export async function connectorViews(ledger: Ledger, orgSeq: number, now: Date): Promise<ConnectorView[]> {
  const out: ConnectorView[] = [];
  for (const c of await connectorRows(ledger, orgSeq)) out.push(await viewOf(ledger, c, now));
  return out;
}
