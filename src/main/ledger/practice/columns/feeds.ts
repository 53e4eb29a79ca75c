// Bank feeds and payment processors (issue 52): each connector's last outcome
// and its consent's end. Red when one is in error, or its consent has lapsed or
// lapses within two weeks (the warning the Connections screen gives). Read from
// the organization's few connector rows, not from its transactions.
import { inList } from '../../core/dialect';
import { column, figures, NONE, place, seqsOf } from '../column';

export interface FeedsFigure {
  connected: number;
  failing: string[];
  /** The soonest consent end among connected feeds (ISO), if any lapses. */
  consentEnds: string | null;
}

const WARN_DAYS = 14;

export const feeds = column<FeedsFigure>({
  id: 'feeds',
  label: 'Bank feeds',
  read: async (ledger, seen) => {
    const rows = await ledger.rows<{ org_seq: number; name: string; sync_status: string | null; consent_expires_at: string | null }>(
      `SELECT org_seq, name, sync_status, consent_expires_at FROM connectors WHERE ${inList(ledger, 'org_seq')} AND status <> 'disconnected' ORDER BY org_seq, lower(name)`,
      seqsOf(seen),
    );
    return figures(seen, rows, (mine) => {
      const ends = mine.map((r) => r.consent_expires_at).filter((e): e is string => e !== null);
      return { connected: mine.length, failing: mine.filter((r) => r.sync_status === 'error').map((r) => r.name), consentEnds: ends.sort()[0] ?? null };
    });
  },
  cell: (f, org, day) => {
    const soon = f.consentEnds !== null && f.consentEnds.slice(0, 10) <= new Date(Date.parse(`${day}T00:00:00Z`) + WARN_DAYS * 86_400_000).toISOString().slice(0, 10);
    const words = [
      f.failing.length ? `${f.failing.length} in error (${f.failing.join(', ')})` : f.connected ? `${f.connected} syncing` : null,
      f.consentEnds ? `consent ends ${f.consentEnds.slice(0, 10)}` : null,
    ].filter(Boolean);
    return { text: words.join('; ') || NONE, red: f.failing.length > 0 || soon, href: place(org, 'connections'), sort: f.failing.length ? -f.failing.length : f.consentEnds };
  },
});
