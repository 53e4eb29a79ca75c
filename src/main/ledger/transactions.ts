// Transactions: the paged, filtered list and the detail view.
// Ordering is date descending with seq descending as the stable tiebreak; every
// index on transactions ends in (date, seq), so pages come straight off an index.
import type { Ledger } from './db';
import { notFound } from './errors';
import { fromMinor } from './money';
import { listNotesOf, type Note } from './notes';
import { receiptsOfTransaction, type Receipt } from './receipts';

export const TRANSACTION_STATUSES = ['uncategorized', 'matched', 'receipt_missing', 'agent_suggested', 'reconciled'] as const;
export const TRANSACTION_SOURCES = ['bankfeed', 'paymentproc', 'manual_csv'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type TransactionSource = (typeof TRANSACTION_SOURCES)[number];
export const UNCATEGORIZED = '__uncategorized__';

export interface Transaction {
  id: string;
  date: string;
  amount: number;
  currency: string;
  description: string;
  category: string | null;
  status: TransactionStatus;
  source: TransactionSource;
  externalId: string | null;
  suggestedBy: string | null;
  confidence: number | null;
  reason: string | null;
}

export interface TransactionRow {
  seq: number;
  id: string;
  date: string;
  amount_minor: number;
  currency: string;
  description: string;
  category: string | null;
  status: TransactionStatus;
  source: TransactionSource;
  external_id: string | null;
  suggested_by: string | null;
  confidence: number | null;
  reason: string | null;
}

export const TRANSACTION_COLUMNS =
  'seq, id, date, amount_minor, currency, description, category, status, source, external_id, suggested_by, confidence, reason';

const PAGE_COLUMNS = TRANSACTION_COLUMNS.split(', ').map((c) => `t.${c}`).join(', ');

export function toTransaction(r: TransactionRow): Transaction {
  return {
    id: r.id,
    date: r.date,
    amount: fromMinor(r.amount_minor, r.currency),
    currency: r.currency,
    description: r.description,
    category: r.category,
    status: r.status,
    source: r.source,
    externalId: r.external_id,
    suggestedBy: r.suggested_by,
    confidence: r.confidence,
    reason: r.reason,
  };
}

export interface TransactionQuery {
  status?: TransactionStatus;
  source?: TransactionSource;
  date?: string;
  dateFrom?: string;
  dateTo?: string;
  category?: string;
  description?: string;
  limit: number;
  offset: number;
}

export interface TransactionPage {
  data: Transaction[];
  meta: { totalCount: number; limit: number; offset: number };
}

/** An FTS5 phrase: with the trigram tokenizer it matches exactly the substrings (case-folded). */
const ftsPhrase = (needle: string): string => `"${needle.replaceAll('"', '""')}"`;
const likePattern = (needle: string): string => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Builds the WHERE clause once, for the rows and for whichever table counts them. */
function filters(orgSeq: number, q: TransactionQuery) {
  const where = ['org_seq = ?'];
  const params: unknown[] = [orgSeq];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (q.status) add('status = ?', q.status);
  if (q.source) add('source = ?', q.source);
  if (q.date) add('date = ?', q.date);
  if (q.dateFrom) add('date >= ?', q.dateFrom);
  if (q.dateTo) add('date <= ?', q.dateTo);
  const aggregatesAnswer = q.category === undefined && q.description === undefined;
  const dated = q.date !== undefined || q.dateFrom !== undefined || q.dateTo !== undefined;
  if (q.category === UNCATEGORIZED) add('category IS NULL');
  else if (q.category !== undefined) add('category = ?', q.category);
  if (q.description !== undefined) {
    // Trigrams need three characters; shorter needles fall back to LIKE (ASCII case folding).
    if ([...q.description].length >= 3) add('seq IN (SELECT rowid FROM transactions_fts WHERE transactions_fts MATCH ?)', ftsPhrase(q.description));
    else add("description LIKE ? ESCAPE '\\'", likePattern(q.description));
  }
  // Maintained counts answer totalCount unless a category or description filter is set.
  const countTable = !aggregatesAnswer ? null : dated ? 'transaction_day_counts' : 'transaction_status_counts';
  return { clause: where.join(' AND '), params, countTable };
}

export function listTransactions(ledger: Ledger, orgSeq: number, q: TransactionQuery): TransactionPage {
  const { clause, params, countTable } = filters(orgSeq, q);
  // Deferred join: page over the covering index first, then read 'limit' rows.
  const rows = ledger
    .stmt(
      `SELECT ${PAGE_COLUMNS} FROM
         (SELECT seq FROM transactions WHERE ${clause} ORDER BY date DESC, seq DESC LIMIT ? OFFSET ?) AS page
         JOIN transactions t ON t.seq = page.seq ORDER BY t.date DESC, t.seq DESC`,
    )
    .all(...params, q.limit, q.offset) as TransactionRow[];
  const countSql = countTable
    ? `SELECT coalesce(sum(n), 0) AS n FROM ${countTable} WHERE ${clause}`
    : `SELECT count(*) AS n FROM transactions WHERE ${clause}`;
  const { n } = ledger.stmt(countSql).get(...params) as { n: number };
  return { data: rows.map(toTransaction), meta: { totalCount: n, limit: q.limit, offset: q.offset } };
}

export function findTransactionRow(ledger: Ledger, orgSeq: number, id: string): TransactionRow | undefined {
  return ledger.stmt(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ? AND org_seq = ?`).get(id, orgSeq) as
    | TransactionRow
    | undefined;
}

export function requireTransactionRow(ledger: Ledger, orgSeq: number, id: string): TransactionRow {
  const row = findTransactionRow(ledger, orgSeq, id);
  if (!row) throw notFound('transaction', id);
  return row;
}

export interface TransactionDetail {
  transaction: Transaction;
  notes: Note[];
  receipts: Receipt[];
}

export function getTransaction(ledger: Ledger, orgSeq: number, id: string): TransactionDetail {
  const row = requireTransactionRow(ledger, orgSeq, id);
  return { transaction: toTransaction(row), notes: listNotesOf(ledger, row.seq), receipts: receiptsOfTransaction(ledger, row.seq) };
}

export interface NewTransaction {
  id: string;
  date: string;
  amountMinor: number;
  currency: string;
  description: string;
  category: string | null;
  status: TransactionStatus;
  source: TransactionSource;
  externalId?: string | null;
  suggestedBy?: string | null;
  confidence?: number | null;
  reason?: string | null;
  createdAt: string;
}

export const INSERT_TRANSACTION = `INSERT INTO transactions
  (id, org_seq, date, amount_minor, currency, description, category, status, source, external_id, suggested_by, confidence, reason, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export function insertTransaction(ledger: Ledger, orgSeq: number, t: NewTransaction): number {
  const { lastInsertRowid } = ledger
    .stmt(INSERT_TRANSACTION)
    .run(t.id, orgSeq, t.date, t.amountMinor, t.currency, t.description, t.category, t.status, t.source,
      t.externalId ?? null, t.suggestedBy ?? null, t.confidence ?? null, t.reason ?? null, t.createdAt);
  return Number(lastInsertRowid);
}
