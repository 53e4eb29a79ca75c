// Balances from maintained totals (per account by day and by month:
// migrations 0006, 0011; totals/sums.ts): every account's balance at a date in
// milliseconds at any size. The profit and loss is in profit-and-loss.ts.
import { accountRows, type AccountType } from '../accounts/accounts';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { accountSumsThrough } from '../totals/sums';
import { consistent } from '../core/consistent';

export interface AccountBalance {
  id: string;
  name: string;
  type: AccountType;
  currency: string;
  /** Opening balance + movements up to the date. */
  balance: number;
  /** Opening balance + the rows the bank has shown (imported, from a feed, or matched to a statement line) or reconciled, up to the date. */
  cleared: number;
  /** Opening balance + reconciled rows up to the date. */
  reconciled: number;
  /** Rows not yet reconciled, up to the date. */
  unreconciled: number;
}

/**
 * Every account's balance at a date (default: today): from the per-account
 * totals, less, for the cleared balance, the rows entered by hand or by an
 * approved journal entry that no statement has shown yet (few, and indexed).
 * One snapshot: a write committing meanwhile is in all three reads or none.
 */
export const balancesAt = consistent(async function balancesAt(
  ledger: Ledger,
  orgSeq: number,
  date: string = new Date().toISOString().slice(0, 10),
): Promise<{ date: string; accounts: AccountBalance[] }> {
  const sums = new Map<number, { all: number; reconciled: number; uncleared: number }>();
  const of = (seq: number) => sums.get(seq) ?? sums.set(seq, { all: 0, reconciled: 0, uncleared: 0 }).get(seq)!;
  for (const r of await accountSumsThrough(ledger, orgSeq, date)) {
    const s = of(r.account_seq);
    s.all += r.minor;
    if (r.reconciled) s.reconciled += r.minor;
  }
  for (const r of await ledger.rows<{ account_seq: number; minor: number }>(
    // The partial index holds exactly the rows no statement has shown: a walk over them, not the year.
    `SELECT account_seq, sum(amount_minor) AS minor FROM transactions INDEXED BY transactions_match_candidates
     WHERE org_seq = ? AND origin IN ('manual', 'agent') AND import_batch_seq IS NULL AND reconciled = 0 AND date <= ? GROUP BY account_seq`,
    orgSeq,
    date,
  ))
    of(r.account_seq).uncleared += r.minor;
  const accounts = (await accountRows(ledger, orgSeq)).map((a): AccountBalance => {
    const s = of(a.seq);
    const money = (minor: number) => fromMinor(minor, a.currency);
    const opening = a.opening_balance_minor;
    return {
      id: a.id,
      name: a.name,
      type: a.type,
      currency: a.currency,
      balance: money(opening + s.all),
      cleared: money(opening + s.all - s.uncleared),
      reconciled: money(opening + s.reconciled),
      unreconciled: money(s.all - s.reconciled),
    };
  });
  return { date, accounts };
});
