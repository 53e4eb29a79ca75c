// get_transaction: a transaction with its notes and receipts (above the three modules it joins).
import type { Ledger } from '../core/db';
import { listNotesOf, type Note } from './notes';
import { receiptsOfTransaction, type Receipt } from './receipts';
import { requireTransactionRow, toTransaction, type Transaction } from './transactions';

export interface TransactionDetail {
  transaction: Transaction;
  notes: Note[];
  receipts: Receipt[];
}

export function getTransaction(ledger: Ledger, orgSeq: number, id: string): TransactionDetail {
  const row = requireTransactionRow(ledger, orgSeq, id);
  return { transaction: toTransaction(row), notes: listNotesOf(ledger, row.seq), receipts: receiptsOfTransaction(ledger, row.seq) };
}
