// A feed's pending rows (issue 52): not transactions, so counted nowhere (no
// balance, report, return or export reads this table); the register shows
// them, read-only, as pending. At the end of each sync an account's pending rows
// are replaced by those the provider still reports, so a row that booked (under
// any id, amount or date) leaves the pending list as its booked row arrives:
// one row, never two.
import type { AccountRow } from '../accounts/accounts';
import { decimalToMinor, fromMinor } from '../core/money';
import type { Ledger } from '../core/storage';
import { cleanDescription } from '../imports/statement-rows';
import type { FeedAccountRow } from './connectors';
import type { FeedRowInput } from './rows';

export interface PendingRow {
  externalId: string;
  date: string;
  amount: number;
  currency: string;
  description: string;
}

/**
 * The account's pending rows after a page: those a booked row names as what it was (pendingId) are let go at once; on
 * the sync's last page (`pending` given) all are replaced by the ones the provider still reports. Answers how many.
 */
export async function replacePending(
  ledger: Ledger,
  orgSeq: number,
  feed: FeedAccountRow,
  account: AccountRow,
  booked: readonly FeedRowInput[],
  pending: readonly FeedRowInput[] | null,
): Promise<number> {
  const gone = ledger.stmt('DELETE FROM feed_pending WHERE connector_account_seq = ? AND external_id = ?');
  for (const r of booked) if (r.pendingId) await gone.run(feed.seq, r.pendingId);
  if (pending === null) return 0;
  await ledger.stmt('DELETE FROM feed_pending WHERE connector_account_seq = ?').run(feed.seq);
  const add = ledger.stmt(
    'INSERT INTO feed_pending (org_seq, connector_account_seq, account_seq, external_id, date, amount_minor, currency, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const r of pending)
    await add.run(orgSeq, feed.seq, account.seq, r.externalId, r.date, decimalToMinor(r.amount, account.currency) as number, account.currency, cleanDescription(r.description));
  return pending.length;
}

/** An account's pending rows, newest first, as the register shows them. */
export async function pendingRows(ledger: Ledger, accountSeq: number): Promise<PendingRow[]> {
  const rows = await ledger.rows<{ external_id: string; date: string; amount_minor: number; currency: string; description: string }>(
    'SELECT external_id, date, amount_minor, currency, description FROM feed_pending WHERE account_seq = ? ORDER BY date DESC, seq',
    accountSeq,
  );
  return rows.map((r) => ({ externalId: r.external_id, date: r.date, amount: fromMinor(r.amount_minor, r.currency), currency: r.currency, description: r.description }));
}
