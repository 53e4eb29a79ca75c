// Receipts at the desk: upload (stored by SHA-256, PDF text read for agents'
// search), link by hand, and look at one: its bytes for a download, or, in the
// desktop app, opened in the computer's own viewer.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Uuid } from '../../api/schemas';
import * as L from '../../ledger';
import { receiptsDir } from '../../paths';
import { checkReceiptFile, cleanFileName, pdfText, receiptFilePath, storeReceiptFile } from '../../receipts/intake';
import { op, Org, orgSeq, Page, type DeskContext } from '../operation';

/** A receipt's stored file, checked to be there. */
export async function receiptFile(ctx: DeskContext, orgId: string, id: string): Promise<{ fileName: string; mimeType: string; path: string }> {
  const file = await L.receiptFileOf(ctx.ledger, await orgSeq(ctx, orgId), id);
  const path = receiptFilePath(receiptsDir(ctx.dataDir), file.sha256);
  if (!existsSync(path)) throw new L.LedgerError('not_found', `The file of ${file.fileName} is missing from the data folder (restore a backup).`, { resource: 'receipt file', id });
  return { fileName: file.fileName, mimeType: file.mimeType, path };
}

export const receiptOperations = {
  listReceipts: op(z.strictObject({ ...Org, ...Page(200) }), async (ctx, { orgId, ...page }) => L.listReceipts(ctx.ledger, await orgSeq(ctx, orgId), page)),

  uploadReceipt: op(
    z.strictObject({ ...Org, fileName: z.string().min(1).max(1000), bytes: z.instanceof(Uint8Array, { message: 'must be the file bytes' }) }),
    async (ctx, { orgId, fileName, bytes }) => {
      const seq = await orgSeq(ctx, orgId);
      const mimeType = checkReceiptFile(bytes);
      const { sha256 } = storeReceiptFile(receiptsDir(ctx.dataDir), bytes);
      const ocrText = mimeType === 'application/pdf' ? await pdfText(bytes) : null;
      return L.addReceipt(ctx.ledger, seq, ctx.reviewer, { fileName: cleanFileName(fileName), mimeType, sizeBytes: bytes.length, sha256, ocrText });
    },
  ),

  deleteReceipt: op(
    z.strictObject({ ...Org, id: Uuid.describe('The receipt (linked to nothing)') }),
    async (ctx, { orgId, id }) => {
      const done = await L.deleteReceipt(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id);
      // Files are kept by content: the file goes when no receipt keeps it any more.
      if (done.sha256 && !done.fileKept) rmSync(receiptFilePath(receiptsDir(ctx.dataDir), done.sha256), { force: true });
      return { id: done.id, deleted: true };
    },
    { name: 'receipt delete', summary: 'delete a receipt linked to nothing (uploaded by mistake)', args: ['id'], print: (r) => [`Deleted receipt ${r.id}.`] },
  ),

  linkReceipt: op(z.strictObject({ ...Org, receiptId: Uuid, transactionId: Uuid }), async (ctx, { orgId, receiptId, transactionId }) =>
    L.linkReceipt(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, receiptId, transactionId),
  ),

  /** The file itself, for a download from the app window (a browser gets it from GET /desk/api/receipts/:id instead). */
  receiptBytes: op(z.strictObject({ ...Org, id: Uuid }), async (ctx, { orgId, id }) => {
    const file = await receiptFile(ctx, orgId, id);
    return { fileName: file.fileName, mimeType: file.mimeType, bytes: new Uint8Array(readFileSync(file.path)) };
  }),

  /**
   * Desktop: opens a copy (named as uploaded, so the viewer shows the name; a copy,
   * so no viewer can change what the books keep) in the computer's viewer.
   */
  openReceipt: op(z.strictObject({ ...Org, id: Uuid }), async (ctx, { orgId, id }) => {
    if (!ctx.openPath) throw new L.LedgerError('conflict', "Only the desktop app opens files in the computer's viewer; in a browser, the receipt opens in a new tab.", null);
    const file = await receiptFile(ctx, orgId, id);
    const folder = join(tmpdir(), 'ledgerdesk-receipts', id);
    mkdirSync(folder, { recursive: true });
    const copy = join(folder, file.fileName);
    copyFileSync(file.path, copy);
    await ctx.openPath(copy);
    return { opened: file.fileName };
  }),
};
