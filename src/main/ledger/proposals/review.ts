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
import { kindOf } from './kinds';
import { getProposal, PERSON_PREFIX, proposerLabel, requireProposalRow, type Proposal } from './proposals';

export type Decision = 'approve' | 'reject';

export async function reviewProposal(
  ledger: Ledger,
  orgSeq: number,
  proposalId: string,
  decision: Decision,
  reviewer: Human,
  comment?: string,
  /** For a journal entry: the account its row goes to (id or name); the default account when absent. */
  accountRef?: string,
): Promise<Proposal> {
  let type = '';
  const reviewed = await ledger.write(async () => {
    const row = await requireProposalRow(ledger, orgSeq, proposalId);
    type = row.type;
    // Maker-checker for people as for agents: nobody approves their own change (rejecting it withdraws it).
    if (decision === 'approve' && row.proposed_by === `${PERSON_PREFIX}${reviewer.userId}`)
      throw new LedgerError('forbidden', `Proposal ${proposalId} is your own: another bookkeeper, accountant or owner approves it.`, { id: proposalId, reason: 'own_proposal' });
    const status = decision === 'approve' ? 'approved' : 'rejected';
    const { changes } = await ledger
      .stmt("UPDATE proposals SET status = ?, reviewed_at = ?, reviewed_by = ?, review_comment = ? WHERE seq = ? AND status = 'pending'")
      .run(status, nowIso(), actorName(reviewer), comment?.trim() || null, row.seq);
    if (changes === 0) {
      throw new LedgerError('already_reviewed', `Proposal ${proposalId} was already ${row.status}.`, { id: proposalId, status: row.status });
    }
    let effect = 'the ledger is unchanged';
    if (decision === 'approve') {
      const kind = kindOf(row.type);
      await assertOpen(ledger, orgSeq, (await kind.datesChanged?.({ ledger, orgSeq }, JSON.parse(row.payload))) ?? [], 'approved');
      // What the approval changed is kept (tagged by kind), so that a reversal can put it back.
      const applied = await kind.apply({ ledger, orgSeq }, row, JSON.parse(row.payload), { reviewer, account: accountRef });
      await ledger.stmt('UPDATE proposals SET outcome = ? WHERE seq = ?').run(JSON.stringify(applied.outcome), row.seq);
      effect = applied.summary;
    }
    await appendAudit(ledger, orgSeq, reviewer, {
      action: decision === 'approve' ? 'proposal.approved' : 'proposal.rejected',
      targetType: 'proposal',
      targetId: row.id,
      summary: `${decision === 'approve' ? 'Approved' : 'Rejected'} ${row.type.replace('_', ' ')} proposal by ${await proposerLabel(ledger, row)}: ${effect}${comment?.trim() ? ` (comment: "${excerpt(comment.trim())}")` : ''}`,
    });
    return getProposal(ledger, orgSeq, proposalId);
  });
  counted('proposals_reviewed', { type, decision: decision === 'approve' ? 'approved' : 'rejected' });
  return reviewed;
}
