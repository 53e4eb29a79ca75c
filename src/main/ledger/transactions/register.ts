// The register the Transactions screen shows: the API's page of transactions
// plus, per row, its account, how it came to be (and so whether its date and
// amount may be edited), and, for one account's rows in date order, the
// running balance after each row, from the per-day totals (any page of a
// million-row account costs the same).
import { accountBySeq } from '../accounts/accounts';
import type { Ledger } from '../core/db';
import { deleteLockOf, lockOf } from './hand';
import { fromMinor, minorDigits } from '../core/money';
import { listTransactions, type Transaction, type TransactionOrigin, type TransactionQuery } from './transactions';
import { accountSumBefore } from '../totals/sums';

export interface RegisterRow extends Transaction {
  accountId: string;
  accountName: string;
  origin: TransactionOrigin;
  /** Why its date, amount and description cannot be edited by hand, or null. */
  locked: string | null;
  /** Why it cannot be deleted by hand, or null. */
  deleteLocked: string | null;
  /** The account's balance after this row; null when the page is not one account in date order. */
  balance: number | null;
}

export interface RegisterPage {
  data: RegisterRow[];
  meta: { totalCount: number; limit: number; offset: number };
  /** Whether rows carry a running balance (one account, filtered by dates at most). */
  balances: boolean;
}

export function registerPage(ledger: Ledger, orgSeq: number, q: TransactionQuery): RegisterPage {
  const page = listTransactions(ledger, orgSeq, q);
  const ids = page.data.map((t) => t.id);
  const extra = new Map(
    ledger
      .rows<{ id: string; seq: number; account_id: string; account_name: string; origin: TransactionOrigin; reconciled: number }>(
        `SELECT t.id, t.seq, a.id AS account_id, a.name AS account_name, t.origin, t.reconciled FROM transactions t JOIN accounts a ON a.seq = t.account_seq
         WHERE t.id IN (${ids.map(() => '?').join(', ') || 'NULL'})`,
        ...ids,
      )
      .map((r) => [r.id, r]),
  );
  const balances = q.accountSeq !== undefined && [q.status, q.source, q.category, q.description].every((f) => f === undefined);
  // Kept in minor units, row by row back from the first row's balance: exact.
  let balance = balances && page.data.length ? balanceAfter(ledger, q.accountSeq!, page.data[0].date, extra.get(page.data[0].id)!.seq) : 0;
  const data = page.data.map((t): RegisterRow => {
    const x = extra.get(t.id)!;
    const row: RegisterRow = {
      ...t,
      accountId: x.account_id,
      accountName: x.account_name,
      origin: x.origin,
      locked: lockOf(x),
      deleteLocked: deleteLockOf(x),
      balance: balances ? fromMinor(balance, t.currency) : null,
    };
    if (balances) balance -= Math.round(t.amount * 10 ** minorDigits(t.currency));
    return row;
  });
  return { data, meta: page.meta, balances };
}

/** Opening balance + every row before (date, seq) in date order, that row included, in minor units. */
function balanceAfter(ledger: Ledger, accountSeq: number, date: string, seq: number): number {
  const account = accountBySeq(ledger, accountSeq);
  const days = accountSumBefore(ledger, accountSeq, date);
  const { same } = ledger.stmt('SELECT coalesce(sum(amount_minor), 0) AS same FROM transactions WHERE account_seq = ? AND date = ? AND seq <= ?').get(accountSeq, date, seq) as {
    same: number;
  };
  return account.opening_balance_minor + days + same;
}
