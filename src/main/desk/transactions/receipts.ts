// Receipts at the desk: upload (kept in the database by SHA-256, PDF text read
// for agents' search), link by hand, and look at one: its bytes for a download,
// or, in the desktop app, opened in the computer's own viewer.
import { ANYONE, KEEPERS, PROPOSERS } from '../roles';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { Uuid } from '../../api/fields';
import * as L from '../../ledger';
import { checkReceiptFile, cleanFileName, pdfText, sha256Of } from '../../receipts/intake';
import { op, Org, proposable, orgSeq, Page, type DeskContext } from '../operation';
import { privatePath } from '../private-temp';

/** A client sees the receipts they uploaded, no others (issue 45). */
const ownOnly = (ctx: DeskContext): number | undefined => (ctx.role === 'client' && ctx.person ? ctx.person.seq : undefined);

/** A receipt's file: its bytes, name and type. */
export async function receiptFile(ctx: DeskContext, orgId: string, id: string): Promise<{ fileName: string; mimeType: string; bytes: Uint8Array }> {
  return L.receiptFileOf(ctx.ledger, await orgSeq(ctx, orgId), id, ownOnly(ctx));
}

export const receiptOperations = {
  listReceipts: op(ANYONE, z.strictObject({ ...Org, ...Page(200) }), async (ctx, { orgId, ...page }) => L.listReceipts(ctx.ledger, await orgSeq(ctx, orgId), page, ownOnly(ctx))),

  uploadReceipt: op(
    ANYONE,
    z.strictObject({ ...Org, fileName: z.string().min(1).max(1000), bytes: z.instanceof(Uint8Array, { message: 'must be the file bytes' }) }),
    async (ctx, { orgId, fileName, bytes }) => {
      const seq = await orgSeq(ctx, orgId);
      const mimeType = checkReceiptFile(bytes);
      const ocrText = mimeType === 'application/pdf' ? await pdfText(bytes) : null;
      return L.addReceipt(ctx.ledger, seq, ctx.reviewer, {
        fileName: cleanFileName(fileName),
        mimeType,
        sizeBytes: bytes.length,
        sha256: sha256Of(bytes),
        ocrText,
        bytes,
        uploadedBy: ctx.person?.seq ?? null,
      });
    },
  ),

  deleteReceipt: op(
    KEEPERS,
    z.strictObject({ ...Org, id: Uuid.describe('The receipt (linked to nothing)') }),
    async (ctx, { orgId, id }) => {
      const done = await L.deleteReceipt(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id);
      return { id: done.id, deleted: true };
    },
    { name: 'receipt delete', summary: 'delete a receipt linked to nothing (uploaded by mistake)', args: ['id'], print: (r) => [`Deleted receipt ${r.id}.`] },
  ),

  linkReceipt: proposable(
    op(PROPOSERS, z.strictObject({ ...Org, receiptId: Uuid, transactionId: Uuid }), async (ctx, { orgId, receiptId, transactionId }) =>
      L.linkReceipt(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, receiptId, transactionId),
    ),
    async (ctx, { orgId, receiptId, transactionId }) => L.proposeReceiptLink(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { receiptId, transactionId }),
  ),

  /** The file itself, for a download from the app window (a browser gets it from GET /desk/api/receipts/:id instead). */
  receiptBytes: op(ANYONE, z.strictObject({ ...Org, id: Uuid }), async (ctx, { orgId, id }) => {
    return receiptFile(ctx, orgId, id);
  }),

  /**
   * Desktop: opens a copy (named as uploaded, so the viewer shows the name; a copy,
   * so no viewer can change what the books keep) in the computer's viewer.
   */
  openReceipt: op(ANYONE, z.strictObject({ ...Org, id: Uuid }), async (ctx, { orgId, id }) => {
    if (!ctx.openPath) throw new L.LedgerError('conflict', "Only the desktop app opens files in the computer's viewer; in a browser, the receipt opens in a new tab.", null);
    const file = await receiptFile(ctx, orgId, id);
    // In this process's private folder (issue 51), not a shared one another local user could make first.
    const folder = privatePath(`receipt-${id}`);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const copy = join(folder, file.fileName);
    writeFileSync(copy, file.bytes);
    await ctx.openPath(copy);
    return { opened: file.fileName };
  }),
};
