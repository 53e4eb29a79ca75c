// Review: the human's approve or reject. There is no token route to this
// function. The status change, the effect on the books and the audit entry
// commit in one IMMEDIATE transaction, so a proposal is reviewed exactly once
// even when two reviews (two windows, two processes) arrive together.
import type { Ledger } from './db';
import { appendAudit, actorName, type Actor } from './audit';
import { newId, nowIso } from './clock';
import { entryAccount, requireOpenAccount } from './accounts';
import { categoryNow } from './categories';
import { invalid, LedgerError } from './errors';
import { toMinor } from './money';
import { insertNote } from './notes';
import { excerpt } from './text';
import {
  getProposal,
  proposerLabel,
  requireProposalRow,
  type Proposal,
  type ProposalPayloads,
  type ProposalRow,
} from './proposals';
import { requireReceiptRow } from './receipts';
import { statusOf } from './status';
import { describeTransaction, insertTransaction, requireTransactionRow } from './transactions';

export type Decision = 'approve' | 'reject';
type Human = Extract<Actor, { type: 'human' }>;

export function reviewProposal(
  ledger: Ledger,
  orgSeq: number,
  proposalId: string,
  decision: Decision,
  reviewer: Human,
  comment?: string,
  /** For a journal entry: the account its row goes to (id or name); the default account when absent. */
  accountRef?: string,
): Proposal {
  return ledger.write(() => {
    const row = requireProposalRow(ledger, orgSeq, proposalId);
    const status = decision === 'approve' ? 'approved' : 'rejected';
    const { changes } = ledger
      .stmt("UPDATE proposals SET status = ?, reviewed_at = ?, reviewed_by = ?, review_comment = ? WHERE seq = ? AND status = 'pending'")
      .run(status, nowIso(), actorName(reviewer), comment?.trim() || null, row.seq);
    if (changes === 0) {
      throw new LedgerError('already_reviewed', `Proposal ${proposalId} was already ${row.status}.`, { id: proposalId, status: row.status });
    }
    const { summary: effect, outcome } = decision === 'approve' ? applyEffect(ledger, orgSeq, row, reviewer, accountRef) : { summary: 'the ledger is unchanged', outcome: null };
    if (outcome) ledger.stmt('UPDATE proposals SET outcome = ? WHERE seq = ?').run(JSON.stringify(outcome), row.seq);
    appendAudit(ledger, orgSeq, reviewer, {
      action: decision === 'approve' ? 'proposal.approved' : 'proposal.rejected',
      targetType: 'proposal',
      targetId: row.id,
      summary: `${decision === 'approve' ? 'Approved' : 'Rejected'} ${row.type.replace('_', ' ')} proposal by ${proposerLabel(ledger, row)}: ${effect}${comment?.trim() ? ` (comment: "${excerpt(comment.trim())}")` : ''}`,
    });
    return getProposal(ledger, orgSeq, proposalId);
  });
}

/** What an approval changed, kept on the proposal so that it can be reversed (reversal.ts). */
export type Outcome =
  | { previous: { category: string | null; status: string; suggestedBy: string | null; confidence: number | null; reason: string | null } }
  | { transactionId: string }
  | { previousTransactionId: string | null }
  | { noteId: string };

/** Applies part 3's effect of an approved proposal; returns a one-line summary for the audit log and what it changed. */
function applyEffect(ledger: Ledger, orgSeq: number, row: ProposalRow, reviewer: Human, accountRef?: string): { summary: string; outcome: Outcome } {
  switch (row.type) {
    case 'categorization': {
      const p = JSON.parse(row.payload) as ProposalPayloads['categorization'];
      const tx = requireTransactionRow(ledger, orgSeq, p.transactionId);
      const category = categoryNow(ledger, orgSeq, p.categoryCode)!;
      // A reconciled row stays reconciled (locked): only its category changes.
      const status = statusOf({ ...tx, category: category.name }, true);
      ledger
        .stmt('UPDATE transactions SET category = ?, status = ?, suggested_by = ?, confidence = ?, reason = ? WHERE seq = ?')
        .run(category.name, status, row.proposed_by, row.confidence, row.reason, tx.seq);
      return {
        summary: `${describeTransaction(tx)} categorized as ${category.code} ${category.name}, status ${status}`,
        outcome: { previous: { category: tx.category, status: tx.status, suggestedBy: tx.suggested_by, confidence: tx.confidence, reason: tx.reason } },
      };
    }
    case 'journal_entry': {
      const p = JSON.parse(row.payload) as ProposalPayloads['journal_entry'];
      const account = accountRef ? requireOpenAccount(ledger, orgSeq, accountRef) : entryAccount(ledger, orgSeq, reviewer, p.currency, p.source);
      if (account.currency !== p.currency) {
        throw invalid([{ field: 'accountId', message: `account "${account.name}" is in ${account.currency}; this entry is in ${p.currency}` }]);
      }
      const category = categoryNow(ledger, orgSeq, p.categoryCode);
      const id = newId();
      insertTransaction(ledger, orgSeq, {
        id,
        accountSeq: account.seq,
        origin: 'agent',
        date: p.date,
        amountMinor: toMinor(p.amount, p.currency),
        currency: p.currency,
        description: p.description,
        category: category?.name ?? null,
        source: p.source,
        suggestedBy: row.proposed_by,
        confidence: row.confidence,
        reason: row.reason,
        createdAt: nowIso(),
      });
      return {
        summary: `transaction ${id} "${excerpt(p.description, 60)}" ${p.date} ${p.amount.toFixed(2)} ${p.currency} created in account "${account.name}", status ${category ? 'matched' : 'uncategorized'}`,
        outcome: { transactionId: id },
      };
    }
    case 'receipt_link': {
      const p = JSON.parse(row.payload) as ProposalPayloads['receipt_link'];
      const tx = requireTransactionRow(ledger, orgSeq, p.transactionId);
      const receipt = requireReceiptRow(ledger, orgSeq, p.receiptId);
      ledger.stmt('UPDATE receipts SET transaction_seq = ? WHERE seq = ?').run(tx.seq, receipt.seq);
      return { summary: `receipt "${excerpt(receipt.fileName, 60)}" linked to ${describeTransaction(tx)}`, outcome: { previousTransactionId: receipt.transactionId } };
    }
    case 'note': {
      const p = JSON.parse(row.payload) as ProposalPayloads['note'];
      const tx = requireTransactionRow(ledger, orgSeq, p.transactionId);
      const note = insertNote(ledger, orgSeq, tx.seq, p.content, row.proposed_by);
      return { summary: `note ${note.id} created on ${describeTransaction(tx)}`, outcome: { noteId: note.id } };
    }
  }
}
