// The dashboard, answered from maintained totals (transaction_status_counts,
// the lines' and the accounts' totals) so it costs the same at ten rows or ten
// million.
//
// Period: revenue and expenses cover the twelve calendar months ending with
// the month of the organization's latest transaction (books are often caught
// up late, so "the last twelve months of the books", not of the wall clock).
// They are the profit and loss's: the lines to revenue categories, and to cost
// of sales and expense categories (as a positive number), in the
// organization's base currency (every currency's rows at their booked base
// amounts, issue 30). Transfers between its own accounts are neither;
// uncategorized rows are neither, and stay in view in `uncategorized` and
// `pendingReview`. cashPosition = the balance of the money accounts in the
// base currency (cards and other liabilities count negative): opening balances
// plus every movement.
import { consistent } from '../core/consistent';
import type { Ledger } from '../core/sqlite/open';
import { listConnectors } from '../accounts/connectors';
import { fromMinor } from '../core/money';
import { organizationBySeq } from '../access/organizations';
import { pendingProposalCount } from '../proposals/proposals';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../transactions/transactions';
import { defaultMonths, lastDayOf } from '../totals/sums';
import { minorDigits } from '../core/money';
import { profitAndLoss } from './profit-and-loss';
import { accountRows } from '../accounts/accounts';
import { today } from '../core/clock';
import { Valuer } from '../rates/valuer';

export interface Notification {
  type: 'proposals_pending' | 'connector_error' | 'connector_stale' | 'receipts_missing';
  severity: 'info' | 'warning' | 'error';
  message: string;
  targetId: string | null;
}

export interface DashboardSummary {
  currency: string;
  revenue: number;
  expenses: number;
  cashPosition: number;
  pendingReview: number;
  missingReceipts: number;
  uncategorized: number;
  agentSuggested: number;
  recentTransactions: { id: string; date: string; amount: number; description: string; status: string }[];
  monthlyTrend: { month: string; revenue: number; expenses: number }[];
  notifications: Notification[];
}

export const RECENT_TRANSACTIONS = 10;

/**
 * What the money accounts hold in the base currency: every movement at its booked base amount, and the opening
 * balances (another currency's at its opening date's rate; one no rate serves yet is left out until one does).
 */
async function cashInBase(ledger: Ledger, orgSeq: number): Promise<number> {
  const { moved } = (await ledger
    .stmt('SELECT coalesce(sum(m.sum_base), 0) AS moved FROM account_month_totals m JOIN accounts a ON a.seq = m.account_seq WHERE a.org_seq = ?')
    .get(orgSeq)) as { moved: number };
  const valuer = new Valuer(ledger, orgSeq);
  let cash = moved;
  for (const a of await accountRows(ledger, orgSeq)) {
    try {
      cash += await valuer.opening(a, today());
    } catch {
      // no rate for its opening date yet
    }
  }
  return cash;
}

/** What a summary leaves out for whom may not see it. */
export interface SummaryFor {
  /** false: recentTransactions is empty (a client reads no transactions: issue 50). */
  transactions?: boolean;
}

export const dashboardSummary = consistent(async function dashboardSummary(ledger: Ledger, orgSeq: number, only: SummaryFor = {}): Promise<DashboardSummary> {
  const { currency } = await organizationBySeq(ledger, orgSeq);
  const money = (minor: number) => fromMinor(minor, currency);
  const months = await defaultMonths(ledger, orgSeq, null);
  const pl = await profitAndLoss(ledger, orgSeq, { from: `${months[0]}-01`, to: lastDayOf(months[months.length - 1]), byMonth: true });
  const revenueMonths = pl.sections.find((x) => x.section === 'revenue')?.months ?? {};
  const monthlyTrend = months.map((month) => ({
    month,
    revenue: revenueMonths[month] ?? 0,
    expenses: money(Math.round(((revenueMonths[month] ?? 0) - (pl.netMonths?.[month] ?? 0)) * 10 ** minorDigits(currency))),
  }));
  const cash = await cashInBase(ledger, orgSeq);
  const counts = new Map(
    (
      (await ledger.stmt('SELECT status, sum(n) AS n FROM transaction_status_counts WHERE org_seq = ? GROUP BY status').all(orgSeq)) as {
        status: string;
        n: number;
      }[]
    ).map((r) => [r.status, r.n]),
  );
  const count = (status: string) => counts.get(status) ?? 0;
  const pending = await pendingProposalCount(ledger, orgSeq);
  const recent =
    only.transactions === false
      ? []
      : await ledger.rows<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE org_seq = ? ORDER BY date DESC, seq DESC LIMIT ${RECENT_TRANSACTIONS}`, orgSeq);
  return {
    currency,
    revenue: pl.revenue,
    expenses: -pl.expenses,
    cashPosition: money(cash),
    pendingReview: count('uncategorized') + count('receipt_missing') + count('agent_suggested'),
    missingReceipts: count('receipt_missing'),
    uncategorized: count('uncategorized'),
    agentSuggested: pending,
    recentTransactions: recent.map((r) => ({
      id: r.id,
      date: r.date,
      amount: fromMinor(r.amount_minor, r.currency),
      description: r.description,
      status: r.status,
    })),
    monthlyTrend,
    notifications: await notifications(ledger, orgSeq, pending, count('receipt_missing')),
  };
});

async function notifications(ledger: Ledger, orgSeq: number, pending: number, missingReceipts: number): Promise<Notification[]> {
  const out: Notification[] = [];
  if (pending > 0) {
    out.push({ type: 'proposals_pending', severity: 'info', message: `${pending} agent proposal(s) wait for review in Approvals.`, targetId: null });
  }
  for (const c of await listConnectors(ledger, orgSeq)) {
    if (c.syncStatus === 'error') out.push({ type: 'connector_error', severity: 'error', message: `${c.name} (${c.provider}) failed to sync.`, targetId: c.id });
    if (c.syncStatus === 'stale') out.push({ type: 'connector_stale', severity: 'warning', message: `${c.name} (${c.provider}) has not synced recently.`, targetId: c.id });
  }
  if (missingReceipts > 0) {
    out.push({ type: 'receipts_missing', severity: 'warning', message: `${missingReceipts} transaction(s) need a receipt.`, targetId: null });
  }
  return out;
}
