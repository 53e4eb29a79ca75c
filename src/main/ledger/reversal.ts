// Reversing an approval: a wrong approval is put right by its own logged
// event, never by editing history. The proposal keeps its spec status
// (approved) and is marked reversed; what the approval changed (its outcome,
// recorded by review.ts) is put back, unless someone has changed it since.
import { appendAudit, type Actor } from './audit';
import { nowIso } from './clock';
import type { Ledger } from './db';
import { LedgerError } from './errors';
import { handRow } from './hand';
import { getProposal, proposerLabel, requireProposalRow, type Proposal, type ProposalPayloads, type ProposalRow } from './proposals';
import type { Outcome } from './review';
import { excerpt } from './text';
import { statusOf } from './status';
import { describeTransaction, type TransactionStatus } from './transactions';

type Human = Extract<Actor, { type: 'human' }>;

const refuse = (row: ProposalRow, why: string): LedgerError => new LedgerError('conflict', `This approval cannot be reversed: ${why}.`, { id: row.id, reason: why });

export function reverseProposal(ledger: Ledger, orgSeq: number, reviewer: Human, proposalId: string, comment?: string): Proposal {
  return ledger.write(() => {
    const row = requireProposalRow(ledger, orgSeq, proposalId);
    if (row.status !== 'approved') throw refuse(row, `only an approved proposal can be reversed (this one is ${row.status})`);
    if (row.reversed_at) throw new LedgerError('conflict', `Proposal ${row.id} was already reversed on ${row.reversed_at.slice(0, 10)} by ${row.reversed_by}.`, { id: row.id, reversedAt: row.reversed_at });
    const outcome = row.outcome ? (JSON.parse(row.outcome) as Outcome) : null;
    if (!outcome) throw refuse(row, 'it was approved before Ledgerdesk recorded what approvals change; correct the transaction by hand');
    const effect = undo(ledger, orgSeq, row, outcome);
    const { changes } = ledger
      .stmt('UPDATE proposals SET reversed_at = ?, reversed_by = ?, reversal_comment = ? WHERE seq = ? AND reversed_at IS NULL')
      .run(nowIso(), reviewer.name, comment?.trim() || null, row.seq);
    if (changes === 0) throw new LedgerError('conflict', `Proposal ${row.id} was already reversed.`, { id: row.id });
    appendAudit(ledger, orgSeq, reviewer, {
      action: 'proposal.reversed',
      targetType: 'proposal',
      targetId: row.id,
      summary: `Reversed the approval of ${row.type.replace('_', ' ')} proposal by ${proposerLabel(ledger, row)}: ${effect}${comment?.trim() ? ` (comment: "${excerpt(comment.trim())}")` : ''}`,
    });
    return getProposal(ledger, orgSeq, row.id);
  });
}

function undo(ledger: Ledger, orgSeq: number, row: ProposalRow, outcome: Outcome): string {
  switch (row.type) {
    case 'categorization': {
      const p = JSON.parse(row.payload) as ProposalPayloads['categorization'];
      const { previous } = outcome as Extract<Outcome, { previous: unknown }>;
      const tx = handRow(ledger, orgSeq, p.transactionId);
      if (tx.suggested_by !== row.proposed_by || tx.reason !== row.reason) {
        throw refuse(row, 'the transaction was categorized again since; change its category by hand');
      }
      // Its facts stand (reconciled, receipt needed); the status is their view with the category it had.
      const status = statusOf({ ...tx, category: previous.category, status: previous.status as TransactionStatus });
      ledger
        .stmt('UPDATE transactions SET category = ?, status = ?, suggested_by = ?, confidence = ?, reason = ? WHERE seq = ?')
        .run(previous.category, status, previous.suggestedBy, previous.confidence, previous.reason, tx.seq);
      return `${describeTransaction(tx)} back to ${previous.category ?? '(uncategorized)'}, status ${status}`;
    }
    case 'journal_entry': {
      const { transactionId } = outcome as Extract<Outcome, { transactionId: string }>;
      const p = JSON.parse(row.payload) as ProposalPayloads['journal_entry'];
      const found = ledger.stmt('SELECT id FROM transactions WHERE id = ? AND org_seq = ?').get(transactionId ?? '', orgSeq);
      if (!found) throw refuse(row, 'the transaction it created is gone');
      const tx = handRow(ledger, orgSeq, transactionId);
      if (tx.reconciled) throw refuse(row, 'the transaction it created is reconciled');
      if (tx.date !== p.date || tx.description !== p.description || tx.import_batch_seq !== null) throw refuse(row, 'the transaction it created was edited or matched to a statement line since');
      const count = (sql: string) => (ledger.stmt(sql).get(tx.seq) as { n: number }).n;
      if (count('SELECT count(*) AS n FROM notes WHERE transaction_seq = ?') || count('SELECT count(*) AS n FROM receipts WHERE transaction_seq = ?')) {
        throw refuse(row, 'the transaction it created has notes or receipts since');
      }
      ledger.stmt('DELETE FROM transactions WHERE seq = ?').run(tx.seq);
      return `transaction ${tx.id} ${describeTransaction(tx)} removed`;
    }
    case 'receipt_link': {
      const p = JSON.parse(row.payload) as ProposalPayloads['receipt_link'];
      const { previousTransactionId } = outcome as Extract<Outcome, { previousTransactionId: string | null }>;
      const receipt = ledger.stmt('SELECT r.seq, r.file_name, t.id AS linked FROM receipts r LEFT JOIN transactions t ON t.seq = r.transaction_seq WHERE r.id = ? AND r.org_seq = ?').get(p.receiptId, orgSeq) as
        | { seq: number; file_name: string; linked: string | null }
        | undefined;
      if (!receipt) throw refuse(row, 'the receipt is gone');
      if (receipt.linked !== p.transactionId) throw refuse(row, 'the receipt was linked elsewhere since');
      const back = previousTransactionId ? (ledger.stmt('SELECT seq FROM transactions WHERE id = ?').get(previousTransactionId) as { seq: number } | undefined) : undefined;
      ledger.stmt('UPDATE receipts SET transaction_seq = ? WHERE seq = ?').run(back?.seq ?? null, receipt.seq);
      return `receipt "${excerpt(receipt.file_name, 60)}" unlinked${back ? ', linked back to the transaction it had before' : ''}`;
    }
    case 'note': {
      const { noteId } = outcome as Extract<Outcome, { noteId: string }>;
      const { changes } = ledger.stmt('DELETE FROM notes WHERE id = ? AND org_seq = ?').run(noteId ?? '', orgSeq);
      if (changes === 0) throw refuse(row, 'the note it created is gone');
      return `note ${noteId} removed`;
    }
  }
}
