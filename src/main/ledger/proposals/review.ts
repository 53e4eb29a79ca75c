// Review: the human's approve or reject. There is no token route to this
// function. The status change, the effect on the books (the proposal's kind
// applies it: kinds/) and the audit entry commit in one IMMEDIATE transaction,
// so a proposal is reviewed exactly once even when two reviews (two windows,
// two processes) arrive together.
import { appendAudit, actorName, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { nowIso } from '../core/clock';
import { counted } from '../core/events';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { excerpt } from '../core/text';
import type { ApplyOptions } from './kind';
import { kindOf } from './kinds';
import { getProposal, proposalPerson, proposerLabel, requireProposalRow, type Proposal, type ProposalRow } from './proposals';

/** withdraw: one's own proposal only (issue 50); it is stored as the spec's `rejected`, as rejecting one's own is. */
export type Decision = 'approve' | 'reject' | 'withdraw';

const REVIEWED = {
  approve: { status: 'approved', action: 'proposal.approved', verb: 'Approved' },
  reject: { status: 'rejected', action: 'proposal.rejected', verb: 'Rejected' },
  withdraw: { status: 'rejected', action: 'proposal.withdrawn', verb: 'Withdrew' },
} as const;

/**
 * Maker-checker for people as for agents: nobody approves their own change, nor their own token's (a token's
 * proposals are its maker's); rejecting one's own withdraws it. Answers what the review is.
 */
async function decisionFor(ledger: Ledger, row: ProposalRow, decision: Decision, reviewer: Human): Promise<Decision> {
  const own = (await proposalPerson(ledger, row)) === reviewer.userId;
  const by = row.proposed_by.startsWith('mcp:') ? 'your own token' : 'you';
  if (decision === 'approve' && own)
    throw new LedgerError('forbidden', `Proposal ${row.id} was made by ${by}: another bookkeeper, accountant or owner approves it (rejecting it withdraws it).`, {
      id: row.id,
      reason: 'own_proposal',
    });
  if (decision === 'withdraw' && !own)
    throw new LedgerError('forbidden', `Proposal ${row.id} is not yours to withdraw: only the person who made it (or whose token did) withdraws it.`, {
      id: row.id,
      reason: 'not_own_proposal',
    });
  return decision === 'reject' && own ? 'withdraw' : decision;
}

export async function reviewProposal(
  ledger: Ledger,
  orgSeq: number,
  proposalId: string,
  decision: Decision,
  reviewer: Human,
  comment?: string,
  /** For a journal entry: the account its row goes to (id or name); the default account when absent. */
  accountRef?: string,
  /** For a document's sending: the mailer the desk hands in (kind.ts ApplyOptions). */
  send?: ApplyOptions['send'],
): Promise<Proposal> {
  let type = '';
  const reviewed = await ledger.write(async () => {
    const row = await requireProposalRow(ledger, orgSeq, proposalId);
    type = row.type;
    const review = REVIEWED[await decisionFor(ledger, row, decision, reviewer)];
    const { changes } = await ledger
      .stmt("UPDATE proposals SET status = ?, reviewed_at = ?, reviewed_by = ?, review_comment = ? WHERE seq = ? AND status = 'pending'")
      .run(review.status, nowIso(), actorName(reviewer), comment?.trim() || null, row.seq);
    if (changes === 0) {
      throw new LedgerError('already_reviewed', `Proposal ${proposalId} was already ${row.status}.`, { id: proposalId, status: row.status });
    }
    let effect = 'the ledger is unchanged';
    if (review.status === 'approved') {
      const kind = kindOf(row.type);
      await assertOpen(ledger, orgSeq, (await kind.datesChanged?.({ ledger, orgSeq }, JSON.parse(row.payload))) ?? [], 'approved');
      // What the approval changed is kept (tagged by kind), so that a reversal can put it back.
      const applied = await kind.apply({ ledger, orgSeq }, row, JSON.parse(row.payload), { reviewer, account: accountRef, send });
      await ledger.stmt('UPDATE proposals SET outcome = ? WHERE seq = ?').run(JSON.stringify(applied.outcome), row.seq);
      effect = applied.summary;
    }
    await appendAudit(ledger, orgSeq, reviewer, {
      action: review.action,
      targetType: 'proposal',
      targetId: row.id,
      summary: `${review.verb} ${row.type.replace('_', ' ')} proposal by ${await proposerLabel(ledger, row)}: ${effect}${comment?.trim() ? ` (comment: "${excerpt(comment.trim())}")` : ''}`,
    });
    return getProposal(ledger, orgSeq, proposalId);
  });
  counted('proposals_reviewed', { type, decision: decision === 'approve' ? 'approved' : 'rejected' });
  return reviewed;
}

/**
 * An approval that failed outside the books (the mail server refused a document's message): the proposal stays
 * pending, and the reason is kept as its own audit entry, which the Approvals card shows (desk/proposals/review-queue.ts).
 */
export async function noteApprovalFailure(ledger: Ledger, orgSeq: number, reviewer: Human, proposalId: string, reason: string): Promise<void> {
  await ledger.write(async () => {
    const row = await requireProposalRow(ledger, orgSeq, proposalId);
    await appendAudit(ledger, orgSeq, reviewer, { action: 'proposal.approval_failed', targetType: 'proposal', targetId: row.id, summary: reason });
  });
}
