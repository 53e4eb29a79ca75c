// The spec's transaction status is a view of facts kept apart (migration
// 0011): whether the entry is categorized (no suspense line: lines.ts), whether a person said it needs a receipt, and
// whether a finished reconciliation cleared it. Being reconciled (the bank
// agrees) and being categorized are separate facts; the status shows what
// still needs doing first:
//
//   1. uncategorized    its other line is the suspense line, whatever else holds
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
  /** The entry's lines say where the money went (categories, a split, a transfer): no suspense line. */
  categorized: boolean;
  receipt_needed: number;
  reconciled: number;
  /** The stored status: only its legacy agent_suggested is kept. */
  status: TransactionStatus;
}

/** The status a row's facts show; `categorizing` drops the legacy agent_suggested (a person or an approval decided). */
export function statusOf(f: StatusFacts, categorizing = false): TransactionStatus {
  if (!f.categorized) return 'uncategorized';
  if (f.receipt_needed) return 'receipt_missing';
  if (f.reconciled) return 'reconciled';
  if (!categorizing && f.status === 'agent_suggested') return 'agent_suggested';
  return 'matched';
}

/** Whether a transaction row (by its seq expression) has a suspense line. */
export const uncategorizedSql = (seq = 'transactions.seq'): string => `EXISTS (SELECT 1 FROM lines WHERE lines.transaction_seq = ${seq} AND lines.kind = 'suspense')`;

/** statusOf in SQL over a transaction row's own columns, given an expression of whether it is categorized. */
export const statusSql = (categorized: string): string =>
  `CASE WHEN NOT (${categorized}) THEN 'uncategorized' WHEN receipt_needed = 1 THEN 'receipt_missing' WHEN reconciled = 1 THEN 'reconciled' WHEN status = 'agent_suggested' THEN 'agent_suggested' ELSE 'matched' END`;

/** statusOf in SQL over a transaction row's own columns and its lines. */
export const STATUS_SQL = statusSql(`NOT ${uncategorizedSql()}`);

/** After a statement changed a row's facts: its status brought to their view (a no-op when it is). */
export const REFRESH_STATUS = `UPDATE transactions SET status = ${STATUS_SQL} WHERE seq = ? AND status IS DISTINCT FROM ${STATUS_SQL}`;
