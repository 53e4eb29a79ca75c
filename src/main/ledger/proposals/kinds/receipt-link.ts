// A receipt link: an agent found the receipt of a row. Approval links it; a
// reversal links it back to the row it had before (or to none).
import * as z from 'zod';
import { LedgerError } from '../../core/errors';
import { excerpt } from '../../core/text';
import { requireReceiptRow } from '../../transactions/receipts';
import { describeTransaction, requireTransactionRow } from '../../transactions/transactions';
import { glanceOf, keyTarget, NO_VIEW, type ProposalKind } from '../kind';

export interface ReceiptLinkInput {
  transactionId: string;
  receiptId: string;
}

const Payload = z.object({ transactionId: z.uuid(), receiptId: z.uuid() }).meta({ id: 'ReceiptLinkPayload', description: 'type receipt_link' });
export type ReceiptLinkPayload = z.infer<typeof Payload>;

interface Outcome {
  kind: 'receipt_link';
  previousTransactionId: string | null;
}

const refuse = (id: string, why: string) => new LedgerError('conflict', `This approval cannot be reversed: ${why}.`, { id, reason: why });

export const receiptLink: ProposalKind<'receipt_link', ReceiptLinkInput, ReceiptLinkPayload, Outcome> = {
  type: 'receipt_link',
  approvedAs: 'linkReceipt',
  payload: Payload,

  async draft({ ledger, orgSeq }, input) {
    const tx = await requireTransactionRow(ledger, orgSeq, input.transactionId);
    const receipt = await requireReceiptRow(ledger, orgSeq, input.receiptId);
    return {
      payload: { transactionId: tx.id, receiptId: receipt.id },
      transactionSeq: tx.seq,
      summary: `Proposed linking receipt "${excerpt(receipt.fileName, 60)}" to ${describeTransaction(tx)}`,
    };
  },

  changeKey: (p, transactionSeq) => `receipt_link|${keyTarget(transactionSeq)}|${p.receiptId}`,
  transactionId: (p) => p.transactionId,

  async apply({ ledger, orgSeq }, _row, p) {
    const tx = await requireTransactionRow(ledger, orgSeq, p.transactionId);
    const receipt = await requireReceiptRow(ledger, orgSeq, p.receiptId);
    await ledger.stmt('UPDATE receipts SET transaction_seq = ? WHERE seq = ?').run(tx.seq, receipt.seq);
    return {
      summary: `receipt "${excerpt(receipt.fileName, 60)}" linked to ${describeTransaction(tx)}`,
      outcome: { kind: 'receipt_link', previousTransactionId: receipt.transactionId },
    };
  },

  async undo({ ledger, orgSeq }, row, p, { previousTransactionId }) {
    const receipt = (await ledger
      .stmt('SELECT r.seq, r.file_name, t.id AS linked FROM receipts r LEFT JOIN transactions t ON t.seq = r.transaction_seq WHERE r.id = ? AND r.org_seq = ?')
      .get(p.receiptId, orgSeq)) as { seq: number; file_name: string; linked: string | null } | undefined;
    if (!receipt) throw refuse(row.id, 'the receipt is gone');
    if (receipt.linked !== p.transactionId) throw refuse(row.id, 'the receipt was linked elsewhere since');
    const back = previousTransactionId ? ((await ledger.stmt('SELECT seq FROM transactions WHERE id = ?').get(previousTransactionId)) as { seq: number } | undefined) : undefined;
    await ledger.stmt('UPDATE receipts SET transaction_seq = ? WHERE seq = ?').run(back?.seq ?? null, receipt.seq);
    return `receipt "${excerpt(receipt.file_name, 60)}" unlinked${back ? ', linked back to the transaction it had before' : ''}`;
  },

  async view(ctx, p) {
    const receipt = (await ctx.ledger.stmt('SELECT file_name FROM receipts WHERE id = ? AND org_seq = ?').pluck().get(p.receiptId, ctx.orgSeq)) as string | undefined;
    return { ...NO_VIEW, lead: `Receipt ${receipt ?? p.receiptId} for`, subject: await glanceOf(ctx, p.transactionId) };
  },
};
