// A categorization: an agent (or a person's rule) says which category a row
// belongs in. Approval sets the category and keeps who suggested it; a
// reversal puts back the category and the suggestion it replaced.
import { z } from 'zod';
import { resolveCategory, categoryNow } from '../../chart/categories';
import { LedgerError } from '../../core/errors';
import { handRow } from '../../transactions/hand';
import { statusOf } from '../../transactions/status';
import { describeTransaction, requireTransactionRow, type TransactionStatus } from '../../transactions/transactions';
import { glanceOf, keyTarget, NO_VIEW, type ProposalKind } from '../kind';

export const EVIDENCE_TYPES = ['counterparty_match', 'rule', 'historical', 'keyword', 'receipt'] as const;

export interface EvidenceItem {
  type: (typeof EVIDENCE_TYPES)[number];
  value: string;
  detail?: string;
}

export interface CategorizationInput {
  transactionId: string;
  categoryCode?: string;
  category?: string;
  evidence?: EvidenceItem[];
}

const Payload = z
  .object({
    transactionId: z.uuid(),
    categoryCode: z.string(),
    category: z.string(),
    evidence: z.array(z.object({ type: z.enum(EVIDENCE_TYPES), value: z.string(), detail: z.string().optional() })),
  })
  .meta({ id: 'CategorizationPayload', description: 'type categorization: the category resolved to the chart at proposal time' });
export type CategorizationPayload = z.infer<typeof Payload>;

/** What the row had before, put back by a reversal. */
interface Outcome {
  kind: 'categorization';
  previous: { category: string | null; status: string; suggestedBy: string | null; confidence: number | null; reason: string | null };
}

export const categorization: ProposalKind<'categorization', CategorizationInput, CategorizationPayload, Outcome> = {
  type: 'categorization',
  payload: Payload,

  draft({ ledger, orgSeq }, input) {
    const tx = requireTransactionRow(ledger, orgSeq, input.transactionId);
    const resolved = resolveCategory(ledger, orgSeq, input, tx.amount_minor < 0 ? 'outflow' : 'inflow');
    return {
      payload: { transactionId: tx.id, categoryCode: resolved.code, category: resolved.name, evidence: input.evidence ?? [] },
      transactionSeq: tx.seq,
      summary: `Proposed categorization of ${describeTransaction(tx)}: ${tx.category ?? '(uncategorized)'} -> ${resolved.code} ${resolved.name}`,
    };
  },

  changeKey: (p, transactionSeq) => `categorization|${keyTarget(transactionSeq)}|${p.categoryCode}`,
  transactionId: (p) => p.transactionId,

  apply({ ledger, orgSeq }, row, p) {
    const tx = requireTransactionRow(ledger, orgSeq, p.transactionId);
    const category = categoryNow(ledger, orgSeq, p.categoryCode)!;
    // A reconciled row stays reconciled (locked): only its category changes.
    const status = statusOf({ ...tx, category: category.name }, true);
    ledger
      .stmt('UPDATE transactions SET category = ?, status = ?, suggested_by = ?, confidence = ?, reason = ? WHERE seq = ?')
      .run(category.name, status, row.proposed_by, row.confidence, row.reason, tx.seq);
    return {
      summary: `${describeTransaction(tx)} categorized as ${category.code} ${category.name}, status ${status}`,
      outcome: { kind: 'categorization', previous: { category: tx.category, status: tx.status, suggestedBy: tx.suggested_by, confidence: tx.confidence, reason: tx.reason } },
    };
  },

  undo({ ledger, orgSeq }, row, p, { previous }) {
    const tx = handRow(ledger, orgSeq, p.transactionId);
    if (tx.suggested_by !== row.proposed_by || tx.reason !== row.reason) {
      throw new LedgerError('conflict', 'This approval cannot be reversed: the transaction was categorized again since; change its category by hand.', {
        id: row.id,
        reason: 'categorized again since',
      });
    }
    // Its facts stand (reconciled, receipt needed); the status is their view with the category it had.
    const status = statusOf({ ...tx, category: previous.category, status: previous.status as TransactionStatus });
    ledger
      .stmt('UPDATE transactions SET category = ?, status = ?, suggested_by = ?, confidence = ?, reason = ? WHERE seq = ?')
      .run(previous.category, status, previous.suggestedBy, previous.confidence, previous.reason, tx.seq);
    return `${describeTransaction(tx)} back to ${previous.category ?? '(uncategorized)'}, status ${status}`;
  },

  view(ctx, p) {
    return { ...NO_VIEW, subject: glanceOf(ctx, p.transactionId), result: { text: p.category, code: p.categoryCode }, rememberable: true };
  },
};
