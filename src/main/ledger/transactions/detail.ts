// get_transaction: a transaction with its notes, its receipts and (an addition
// to v1) the lines of its entry (above the modules it joins).
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import type { LineKind } from './lines';
import { listNotesOf, type Note } from './notes';
import { receiptsOfTransaction, type Receipt } from './receipts';
import { requireTransactionRow, toTransaction, type Transaction } from './transactions';

/**
 * A line of the entry as the API shows it: its share of the row's amount, in
 * the row's sign (the shares add up to `amount`; in double-entry terms each
 * line posts the opposite, balancing the money-account line). People read it
 * as a part of the row, positive with it (shared/split-parts.ts).
 */
export interface EntryLine {
  kind: LineKind;
  categoryCode: string | null;
  /** A transfer's other money account (the id list_connectors and list_accounts show). */
  accountId: string | null;
  /** A matched transfer's other side; null while in transit. */
  counterpartId: string | null;
  amount: number;
  memo: string | null;
  /** Its currency when not the row's: it pays a document in that one (issue 43); its amount is then in it. */
  currency?: string;
}

export interface TransactionDetail {
  transaction: Transaction;
  notes: Note[];
  receipts: Receipt[];
  lines: EntryLine[];
}

export async function entryLines(ledger: Ledger, transactionSeq: number): Promise<EntryLine[]> {
  return (
    await ledger.rows<{
      kind: LineKind;
      code: string | null;
      account_id: string | null;
      counterpart: string | null;
      amount_minor: number;
      currency: string;
      own: number;
      memo: string | null;
    }>(
      `SELECT l.kind, c.code, a.id AS account_id, t.id AS counterpart, l.amount_minor, l.currency, l.currency = r.currency AS own, l.memo
       FROM lines l JOIN transactions r ON r.seq = l.transaction_seq LEFT JOIN categories c ON c.seq = l.category_seq LEFT JOIN accounts a ON a.seq = l.account_seq LEFT JOIN transactions t ON t.seq = l.counterpart_seq
       WHERE l.transaction_seq = ? ORDER BY l.position`,
      transactionSeq,
    )
  ).map((l) => ({
    kind: l.kind,
    categoryCode: l.code,
    accountId: l.account_id,
    counterpartId: l.counterpart,
    amount: fromMinor(-l.amount_minor, l.currency),
    memo: l.memo,
    ...(l.own ? {} : { currency: l.currency }),
  }));
}

export async function getTransaction(ledger: Ledger, orgSeq: number, id: string): Promise<TransactionDetail> {
  const row = await requireTransactionRow(ledger, orgSeq, id);
  return {
    transaction: toTransaction(row),
    notes: await listNotesOf(ledger, row.seq),
    receipts: await receiptsOfTransaction(ledger, row.seq),
    lines: await entryLines(ledger, row.seq),
  };
}
