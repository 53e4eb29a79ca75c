// Receipt metadata (never file bytes) and search over file names and OCR text.
import type { Ledger } from './db';
import { notFound } from './errors';

export interface Receipt {
  id: string;
  transactionId: string | null;
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  ocrText: string | null;
  createdAt: string;
}

export const RECEIPT_SEARCH_LIMIT = 50;

const SELECT = `SELECT r.seq, r.id, t.id AS transactionId, r.file_name AS fileName, r.mime_type AS mimeType,
  r.size_bytes AS sizeBytes, r.ocr_text AS ocrText, r.created_at AS createdAt
  FROM receipts r LEFT JOIN transactions t ON t.seq = r.transaction_seq`;

type ReceiptRow = Receipt & { seq: number };
const strip = ({ seq: _seq, ...receipt }: ReceiptRow): Receipt => receipt;

export function receiptsOfTransaction(ledger: Ledger, transactionSeq: number): Receipt[] {
  return (ledger.stmt(`${SELECT} WHERE r.transaction_seq = ? ORDER BY r.created_at, r.seq`).all(transactionSeq) as ReceiptRow[]).map(strip);
}

export function findReceiptRow(ledger: Ledger, orgSeq: number, id: string): ReceiptRow | undefined {
  return ledger.stmt(`${SELECT} WHERE r.id = ? AND r.org_seq = ?`).get(id, orgSeq) as ReceiptRow | undefined;
}

export function requireReceiptRow(ledger: Ledger, orgSeq: number, id: string): ReceiptRow {
  const row = findReceiptRow(ledger, orgSeq, id);
  if (!row) throw notFound('receipt', id);
  return row;
}

export function getReceipt(ledger: Ledger, orgSeq: number, id: string): Receipt {
  return strip(requireReceiptRow(ledger, orgSeq, id));
}

/**
 * Every whitespace-separated term of q must occur (case-insensitively, as a
 * substring) in the file name or the OCR text. Newest first: ranking every
 * match would cost time in proportion to the matches, and agents refine q instead.
 */
export function searchReceipts(ledger: Ledger, orgSeq: number, q: string): Receipt[] {
  const terms = q.trim().split(/\s+/).filter(Boolean);
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length < 3);
  const where = ['r.org_seq = ?'];
  const params: unknown[] = [orgSeq];
  if (long.length > 0) {
    where.push('r.seq IN (SELECT rowid FROM receipts_fts WHERE receipts_fts MATCH ?)');
    params.push(long.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND '));
  }
  for (const t of short) {
    where.push("(r.file_name LIKE ? ESCAPE '\\' OR r.ocr_text LIKE ? ESCAPE '\\')");
    const pattern = `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(pattern, pattern);
  }
  const rows = ledger
    .stmt(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY r.seq DESC LIMIT ${RECEIPT_SEARCH_LIMIT}`)
    .all(...params) as ReceiptRow[];
  return rows.map(strip);
}
