// The spec's transaction status is a view of facts kept apart (migration
// 0011): the row's category, whether a person said it needs a receipt, and
// whether a finished reconciliation cleared it. Being reconciled (the bank
// agrees) and being categorized are separate facts; the status shows what
// still needs doing first:
//
//   1. uncategorized    no category, whatever else holds
//   2. receipt_missing  categorized, a receipt is needed
//   3. reconciled       categorized, cleared by a reconciliation
//   4. agent_suggested  legacy: rows that had it keep it until categorized again
//   5. matched          categorized
//
// The stored `status` column is kept equal to this view (it is indexed and
// counted); statusOf and STATUS_SQL are the one rule, in JS and in SQL.
import type { TransactionStatus } from '../../../../db/values';

export { TRANSACTION_STATUSES, type TransactionStatus } from '../../../../db/values';

export interface StatusFacts {
  category: string | null;
  receipt_needed: number;
  reconciled: number;
  /** The stored status: only its legacy agent_suggested is kept. */
  status: TransactionStatus;
}

/** The status a row's facts show; `categorizing` drops the legacy agent_suggested (a person or an approval decided). */
export function statusOf(f: StatusFacts, categorizing = false): TransactionStatus {
  if (f.category === null) return 'uncategorized';
  if (f.receipt_needed) return 'receipt_missing';
  if (f.reconciled) return 'reconciled';
  if (!categorizing && f.status === 'agent_suggested') return 'agent_suggested';
  return 'matched';
}

/** statusOf in SQL over a row's own columns (its category given by another expression when an UPDATE sets it). */
export const statusSql = (category = 'category'): string =>
  `CASE WHEN ${category} IS NULL THEN 'uncategorized' WHEN receipt_needed = 1 THEN 'receipt_missing' WHEN reconciled = 1 THEN 'reconciled' WHEN status = 'agent_suggested' THEN 'agent_suggested' ELSE 'matched' END`;
export const STATUS_SQL = statusSql();

/** After a statement changed a row's facts: its status brought to their view (a no-op when it is). */
export const REFRESH_STATUS = `UPDATE transactions SET status = ${STATUS_SQL} WHERE seq = ? AND status IS NOT ${STATUS_SQL}`;
