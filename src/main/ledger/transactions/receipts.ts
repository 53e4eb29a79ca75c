// Receipt metadata (never file bytes) and search over file names and OCR text.
import { jsonField } from '../core/dialect';
import { appendAudit, type Actor } from '../access/audit';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError, notFound } from '../core/errors';
import { fromMinor } from '../core/money';
import { excerpt } from '../core/text';
import { describeTransaction, requireTransactionRow } from './transactions';

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

// Lists select the API's columns only; the seq is read where a write needs it.
const COLUMNS = `r.id, t.id AS "transactionId", r.file_name AS "fileName", r.mime_type AS "mimeType",
  r.size_bytes AS "sizeBytes", r.ocr_text AS "ocrText", r.created_at AS "createdAt"`;
const FROM = 'FROM receipts r LEFT JOIN transactions t ON t.seq = r.transaction_seq';
const SELECT = `SELECT ${COLUMNS} ${FROM}`;

type ReceiptRow = Receipt & { seq: number };
const strip = ({ seq: _seq, ...receipt }: ReceiptRow): Receipt => receipt;

export async function receiptsOfTransaction(ledger: Ledger, transactionSeq: number): Promise<Receipt[]> {
  return ledger.rows<Receipt>(`${SELECT} WHERE r.transaction_seq = ? ORDER BY r.created_at, r.seq`, transactionSeq);
}

export async function findReceiptRow(ledger: Ledger, orgSeq: number, id: string): Promise<ReceiptRow | undefined> {
  return (await ledger.stmt(`SELECT r.seq, ${COLUMNS} ${FROM} WHERE r.id = ? AND r.org_seq = ?`).get(id, orgSeq)) as ReceiptRow | undefined;
}

export async function requireReceiptRow(ledger: Ledger, orgSeq: number, id: string): Promise<ReceiptRow> {
  const row = await findReceiptRow(ledger, orgSeq, id);
  if (!row) throw notFound('receipt', id);
  return row;
}

/** A receipt's file: its bytes (kept in the database once per organization by SHA-256: receipt_files), its name and type. */
export async function receiptFileOf(
  ledger: Ledger,
  orgSeq: number,
  id: string,
  /** Only one this person uploaded (a client's own); another is not found. */
  uploadedBy?: number,
): Promise<{ fileName: string; mimeType: string; bytes: Uint8Array }> {
  const row = (await ledger
    .stmt(
      `SELECT r.file_name AS "fileName", r.mime_type AS "mimeType", r.uploaded_by AS "uploadedBy", f.bytes FROM receipts r
       LEFT JOIN receipt_files f ON f.org_seq = r.org_seq AND f.sha256 = r.sha256 WHERE r.id = ? AND r.org_seq = ?`,
    )
    .get(id, orgSeq)) as { fileName: string; mimeType: string; uploadedBy: number | null; bytes: Uint8Array | null } | undefined;
  if (!row || (uploadedBy !== undefined && row.uploadedBy !== uploadedBy)) throw notFound('receipt', id);
  if (!row.bytes) throw notFound('receipt file', id);
  return { fileName: row.fileName, mimeType: row.mimeType, bytes: new Uint8Array(row.bytes) };
}

/** Keeps a file's bytes once per organization (a file already kept by content is the same file). */
export async function keepReceiptFile(ledger: Ledger, orgSeq: number, sha256: string, bytes: Uint8Array): Promise<void> {
  await ledger
    .stmt('INSERT INTO receipt_files (org_seq, sha256, size_bytes, bytes, stored_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
    .run(orgSeq, sha256, bytes.length, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), nowIso());
}

export async function getReceipt(ledger: Ledger, orgSeq: number, id: string): Promise<Receipt> {
  return strip(await requireReceiptRow(ledger, orgSeq, id));
}

/**
 * Every whitespace-separated term of q must occur (case-insensitively, as a
 * substring) in the file name or the OCR text. Newest first: ranking every
 * match would cost time in proportion to the matches, and agents refine q instead.
 */
export async function searchReceipts(ledger: Ledger, orgSeq: number, q: string): Promise<Receipt[]> {
  const terms = q.trim().split(/\s+/).filter(Boolean);
  if (ledger.engine === 'postgres') return searchReceiptsByTrigrams(ledger, orgSeq, terms);
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length < 3);
  const where = ['r.org_seq = ?'];
  const params: unknown[] = [orgSeq];
  for (const t of short) {
    where.push("(r.file_name LIKE ? ESCAPE '\\' OR r.ocr_text LIKE ? ESCAPE '\\')");
    const pattern = `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(pattern, pattern);
  }
  if (long.length === 0) {
    return ledger.rows<Receipt>(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY r.seq DESC LIMIT ${RECEIPT_SEARCH_LIMIT}`, ...params);
  }
  // The index yields matches newest first (rowid = seq) and stops at the 50th of this organization.
  const match = long.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
  return ledger.rows<Receipt>(
    `SELECT ${COLUMNS}
     FROM receipts_fts f JOIN receipts r ON r.seq = f.rowid LEFT JOIN transactions t ON t.seq = r.transaction_seq
     WHERE f.receipts_fts MATCH ? AND ${where.join(' AND ')} ORDER BY f.rowid DESC LIMIT ${RECEIPT_SEARCH_LIMIT}`,
    match,
    ...params,
  );
}

/** PostgreSQL: each term an ILIKE over the name and text together, the expression pg_trgm's index holds (a term has no space, so it cannot span the two). */
async function searchReceiptsByTrigrams(ledger: Ledger, orgSeq: number, terms: string[]): Promise<Receipt[]> {
  const text = "(coalesce(r.file_name, '') || ' ' || coalesce(r.ocr_text, ''))";
  const where = ['r.org_seq = ?', ...terms.map(() => `${text} ILIKE ? ESCAPE '\\'`)];
  const patterns = terms.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return ledger.rows<Receipt>(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY r.seq DESC LIMIT ${RECEIPT_SEARCH_LIMIT}`, orgSeq, ...patterns);
}

export interface NewReceipt {
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  ocrText: string | null;
  /** The file itself (kept with the receipt, in the same transaction); without it, only the receipt's facts (a test's). */
  bytes?: Uint8Array;
  /** The person uploading it (a client sees their own uploads). */
  uploadedBy?: number | null;
}

/**
 * Records an uploaded receipt and its file with its audit entry. The same file (by SHA-256) uploaded again to the
 * same organization answers the existing receipt.
 */
export async function addReceipt(ledger: Ledger, orgSeq: number, actor: Actor, input: NewReceipt): Promise<{ receipt: Receipt; duplicate: boolean }> {
  return ledger.write(async () => {
    const existing = (await ledger.stmt('SELECT id FROM receipts WHERE org_seq = ? AND sha256 = ?').get(orgSeq, input.sha256)) as { id: string } | undefined;
    if (existing) return { receipt: await getReceipt(ledger, orgSeq, existing.id), duplicate: true };
    if (input.bytes) await keepReceiptFile(ledger, orgSeq, input.sha256, input.bytes);
    const id = newId();
    await ledger
      .stmt(
        'INSERT INTO receipts (id, org_seq, transaction_seq, file_name, mime_type, size_bytes, sha256, ocr_text, created_at, uploaded_by) VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(id, orgSeq, input.fileName, input.mimeType, input.sizeBytes, input.sha256, input.ocrText, nowIso(), input.uploadedBy ?? null);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'receipt.uploaded',
      targetType: 'receipt',
      targetId: id,
      summary: `Receipt "${excerpt(input.fileName, 60)}" uploaded (${input.mimeType}, ${input.sizeBytes} bytes${input.ocrText ? ', text extracted' : ''})`,
    });
    return { receipt: await getReceipt(ledger, orgSeq, id), duplicate: false };
  });
}

/** The bookkeeper links a receipt to a transaction by hand (no proposal). */
export async function linkReceipt(ledger: Ledger, orgSeq: number, actor: Actor, receiptId: string, transactionId: string): Promise<Receipt> {
  return ledger.write(async () => {
    const receipt = await requireReceiptRow(ledger, orgSeq, receiptId);
    const tx = await requireTransactionRow(ledger, orgSeq, transactionId);
    await ledger.stmt('UPDATE receipts SET transaction_seq = ? WHERE seq = ?').run(tx.seq, receipt.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'receipt.linked',
      targetType: 'receipt',
      targetId: receipt.id,
      summary: `Receipt "${excerpt(receipt.fileName, 60)}" linked by hand to ${describeTransaction(tx)}`,
    });
    return getReceipt(ledger, orgSeq, receipt.id);
  });
}

/** A receipt as the Receipts screen lists it: with the transaction it is linked to, as a person reads it. */
export type ListedReceipt = Receipt & { linkedTo: { date: string; description: string; amount: number; currency: string } | null };

/** All receipts, newest first, for the Receipts screen. */
export async function listReceipts(
  ledger: Ledger,
  orgSeq: number,
  page: { limit: number; offset: number },
  /** Only those one person uploaded (a client's own). */
  uploadedBy?: number,
): Promise<{ receipts: ListedReceipt[]; totalCount: number }> {
  const mine = uploadedBy === undefined ? '' : ' AND r.uploaded_by = ?';
  const own = uploadedBy === undefined ? [] : [uploadedBy];
  const rows = await ledger.rows<Receipt & { t_date: string | null; t_description: string | null; t_amount: number | null; t_currency: string | null }>(
    `SELECT ${COLUMNS}, t.date AS t_date, t.description AS t_description, t.amount_minor AS t_amount, t.currency AS t_currency ${FROM} WHERE r.org_seq = ?${mine} ORDER BY r.seq DESC LIMIT ? OFFSET ?`,
    orgSeq,
    ...own,
    page.limit,
    page.offset,
  );
  const receipts = rows.map(({ t_date, t_description, t_amount, t_currency, ...r }) => ({
    ...r,
    linkedTo: t_date === null ? null : { date: t_date, description: t_description!, amount: fromMinor(t_amount!, t_currency!), currency: t_currency! },
  }));
  const { n } = (await ledger.stmt(`SELECT count(*) AS n FROM receipts r WHERE r.org_seq = ?${mine}`).get(orgSeq, ...own)) as { n: number };
  return { receipts, totalCount: n };
}

/**
 * Deletes a receipt that is linked to nothing (one uploaded by mistake), with
 * its audit entry; pending proposals to link it are rejected; its file goes
 * with it unless another receipt of the organization keeps the same file.
 */
export async function deleteReceipt(ledger: Ledger, orgSeq: number, actor: Actor, id: string): Promise<{ id: string; sha256: string | null; fileKept: boolean }> {
  return ledger.write(async () => {
    const row = await requireReceiptRow(ledger, orgSeq, id);
    if (row.transactionId)
      throw new LedgerError('conflict', `Receipt "${row.fileName}" is linked to a transaction; only a receipt linked to nothing can be deleted.`, {
        id: row.id,
        transactionId: row.transactionId,
      });
    const { sha256 } = (await ledger.stmt('SELECT sha256 FROM receipts WHERE seq = ?').get(row.seq)) as { sha256: string | null };
    const rejected = (
      await ledger
        .stmt(
          `UPDATE proposals SET status = 'rejected', reviewed_at = ?, reviewed_by = ?, review_comment = 'The receipt was deleted.'
         WHERE org_seq = ? AND status = 'pending' AND type = 'receipt_link' AND ${jsonField(ledger, 'payload', 'receiptId')} = ?`,
        )
        .run(nowIso(), actor.type === 'human' ? actor.name : actor.tokenName, orgSeq, row.id)
    ).changes;
    await ledger.stmt('DELETE FROM receipts WHERE seq = ?').run(row.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'receipt.deleted',
      targetType: 'receipt',
      targetId: row.id,
      summary: `Receipt "${excerpt(row.fileName, 60)}" deleted (it was linked to nothing)${rejected ? `; ${rejected} pending proposal(s) to link it rejected` : ''}`,
    });
    const fileKept = sha256 !== null && (await ledger.stmt('SELECT 1 FROM receipts WHERE org_seq = ? AND sha256 = ? LIMIT 1').get(orgSeq, sha256)) !== undefined;
    if (sha256 !== null && !fileKept) await ledger.stmt('DELETE FROM receipt_files WHERE org_seq = ? AND sha256 = ?').run(orgSeq, sha256);
    return { id: row.id, sha256, fileKept };
  });
}
