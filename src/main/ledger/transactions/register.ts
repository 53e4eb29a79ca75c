// The register the Transactions screen shows: the API's page of transactions
// plus, per row, its account, how it came to be (and so whether its date and
// amount may be edited), and, for one account's rows in date order, the
// running balance after each row, from the per-day totals (any page of a
// million-row account costs the same).
import { consistent } from '../core/consistent';
import { bySql, inList } from '../core/dialect';
import { accountBySeq } from '../accounts/accounts';
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/sqlite/open';
import { deleteLockOf, lockOf } from './hand';
import { fromMinor, minorDigits } from '../core/money';
import { listTransactions, type Transaction, type TransactionOrigin, type TransactionQuery } from './transactions';
import { accountSumBefore } from '../totals/sums';
import { possibleTransfersFor, type TransferSide } from '../transfers/suggest';
import { possiblePaymentsFor, type PaymentSuggestion } from '../documents/payments/match';
import { journalNumberSql } from '../journals/numbers';

export interface RegisterRow extends Transaction {
  accountId: string;
  accountName: string;
  origin: TransactionOrigin;
  /** Why its date, amount and description cannot be edited by hand, or null. */
  locked: string | null;
  /** Why it cannot be deleted by hand, or null. */
  deleteLocked: string | null;
  /** A row in another currency than the base (issue 30): its amount in the base currency as booked (null: awaiting a rate); null for a base-currency row. */
  base: { amount: number | null; currency: string } | null;
  /** The account's balance after this row; null when the page is not one account in date order. */
  balance: number | null;
  /** What its lines are, besides the category it shows: how many (a split: 2 or more), the other account of a transfer, the manual journal it is a line of. */
  entry: { lines: number; transferTo: string | null; inTransit: boolean; pays: string | null; journal: string | null };
  /** An open row's likeliest other side of a transfer (transfers/suggest.ts), to accept with one key; null when none. */
  possibleTransfer: { id: string; date: string; accountName: string; candidates: number } | null;
  /** An open row that looks like the payment of an open invoice or bill (documents/match.ts), to accept with one key. */
  possiblePayment: { kind: 'invoice' | 'bill'; numbers: string[]; contact: string } | null;
}

/** The page's rows' lines in one read: their count and a transfer's other account. */
async function entriesOf(ledger: Ledger, seqs: number[]): Promise<Map<number, RegisterRow['entry']>> {
  const rows = await ledger.rows<{ seq: number; lines: number; transfer_to: string | null; in_transit: number; pays: string | null; journal: string | null }>(
    `SELECT l.transaction_seq AS seq, sum(CASE WHEN l.kind = 'category' THEN 1 ELSE 0 END) AS lines, max(a.name) AS transfer_to,
       max(CASE WHEN l.kind = 'transfer' AND l.counterpart_seq IS NULL THEN 1 ELSE 0 END) AS in_transit,
       ${bySql(ledger, { sqlite: "group_concat(d.number, ', ')", postgres: "string_agg(d.number, ', ')" })} AS pays,
       max(CASE l.kind WHEN 'journal' THEN (SELECT ${journalNumberSql('j')} FROM transactions t JOIN journals j ON j.seq = t.journal_seq WHERE t.seq = l.transaction_seq) END) AS journal
     FROM lines l LEFT JOIN accounts a ON a.seq = l.account_seq LEFT JOIN documents d ON d.seq = l.settles_seq
     WHERE ${inList(ledger, 'l.transaction_seq')} GROUP BY l.transaction_seq`,
    seqs,
  );
  return new Map(rows.map((r) => [r.seq, { lines: r.lines, transferTo: r.transfer_to, inTransit: r.in_transit === 1, pays: r.pays, journal: r.journal }]));
}

export interface RegisterPage {
  data: RegisterRow[];
  meta: { totalCount: number; limit: number; offset: number };
  /** Whether rows carry a running balance (one account, filtered by dates at most). */
  balances: boolean;
}

export const registerPage = consistent(async function registerPage(ledger: Ledger, orgSeq: number, q: TransactionQuery): Promise<RegisterPage> {
  const page = await listTransactions(ledger, orgSeq, q);
  const ids = page.data.map((t) => t.id);
  const extra = new Map(
    (
      await ledger.rows<{ id: string; seq: number; account_id: string; account_name: string; origin: TransactionOrigin; reconciled: number; base_minor: number | null }>(
        `SELECT t.id, t.seq, a.id AS account_id, a.name AS account_name, t.origin, t.reconciled, t.base_minor FROM transactions t JOIN accounts a ON a.seq = t.account_seq
         WHERE t.id IN (${ids.map(() => '?').join(', ') || 'NULL'})`,
        ...ids,
      )
    ).map((r) => [r.id, r]),
  );
  const entries = await entriesOf(
    ledger,
    [...extra.values()].map((x) => x.seq),
  );
  const possible = await possibleOnPage(ledger, orgSeq, page.data, extra);
  const payments = await possiblePaymentsFor(
    ledger,
    orgSeq,
    page.data
      .filter((t) => t.status === 'uncategorized')
      .map((t) => ({
        seq: extra.get(t.id)!.seq,
        id: t.id,
        date: t.date,
        amount_minor: Math.round(t.amount * 10 ** minorDigits(t.currency)),
        currency: t.currency,
        description: t.description,
      })),
  );
  const balances = q.accountSeq !== undefined && [q.status, q.source, q.category, q.description].every((f) => f === undefined);
  // Kept in minor units, row by row back from the first row's balance: exact.
  let balance = balances && page.data.length ? await balanceAfter(ledger, q.accountSeq!, page.data[0].date, extra.get(page.data[0].id)!.seq) : 0;
  const base = (await organizationBySeq(ledger, orgSeq)).currency;
  const data = page.data.map((t): RegisterRow => {
    const x = extra.get(t.id)!;
    const row: RegisterRow = {
      ...t,
      accountId: x.account_id,
      accountName: x.account_name,
      origin: x.origin,
      locked: lockOf(x),
      deleteLocked: deleteLockOf(x),
      base: t.currency === base ? null : { amount: x.base_minor === null ? null : fromMinor(x.base_minor, base), currency: base },
      balance: balances ? fromMinor(balance, t.currency) : null,
      entry: entries.get(x.seq) ?? { lines: 1, transferTo: null, inTransit: false, pays: null, journal: null },
      possibleTransfer: possibleOf(possible.get(x.seq)),
      possiblePayment: paymentOf(payments.get(x.seq)),
    };
    if (balances) balance -= Math.round(t.amount * 10 ** minorDigits(t.currency));
    return row;
  });
  return { data, meta: page.meta, balances };
});

/** The page's open rows' possible transfers, searched near each of them (however long the page's span). */
async function possibleOnPage(ledger: Ledger, orgSeq: number, rows: Transaction[], extra: Map<string, { seq: number }>) {
  const open = rows
    .filter((t) => t.category === null)
    .map((t) => ({ seq: extra.get(t.id)!.seq, date: t.date, amount_minor: Math.round(t.amount * 10 ** minorDigits(t.currency)) }));
  return possibleTransfersFor(ledger, orgSeq, open);
}

const paymentOf = (p: PaymentSuggestion | undefined): RegisterRow['possiblePayment'] =>
  p ? { kind: p.kind, numbers: p.documents.map((d) => d.number), contact: p.documents[0].contact } : null;

const possibleOf = (p: (TransferSide & { candidates: number }) | undefined): RegisterRow['possibleTransfer'] =>
  p ? { id: p.id, date: p.date, accountName: p.account.name, candidates: p.candidates } : null;

/** Opening balance + every row before (date, seq) in date order, that row included, in minor units. */
async function balanceAfter(ledger: Ledger, accountSeq: number, date: string, seq: number): Promise<number> {
  const account = await accountBySeq(ledger, accountSeq);
  const days = await accountSumBefore(ledger, account.org_seq, accountSeq, date);
  const { same } = (await ledger
    .stmt('SELECT coalesce(sum(amount_minor), 0) AS same FROM transactions WHERE account_seq = ? AND date = ? AND seq <= ?')
    .get(accountSeq, date, seq)) as {
    same: number;
  };
  return account.opening_balance_minor + days + same;
}
