// Reversing an approval: a wrong approval is put right by its own logged
// event, never by editing history. The proposal keeps its spec status
// (approved) and is marked reversed; what the approval changed (its outcome,
// recorded by review.ts) is put back by its kind, unless someone has changed
// it since.
import { appendAudit, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { excerpt } from '../core/text';
import { kindOf } from './kinds';
import { getProposal, proposerLabel, requireProposalRow, type Proposal, type ProposalRow } from './proposals';

const refuse = (row: ProposalRow, why: string): LedgerError => new LedgerError('conflict', `This approval cannot be reversed: ${why}.`, { id: row.id, reason: why });

export async function reverseProposal(ledger: Ledger, orgSeq: number, reviewer: Human, proposalId: string, comment?: string): Promise<Proposal> {
  return ledger.write(async () => {
    const row = await requireProposalRow(ledger, orgSeq, proposalId);
    if (row.status !== 'approved') throw refuse(row, `only an approved proposal can be reversed (this one is ${row.status})`);
    if (row.reversed_at)
      throw new LedgerError('conflict', `Proposal ${row.id} was already reversed on ${row.reversed_at.slice(0, 10)} by ${row.reversed_by}.`, {
        id: row.id,
        reversedAt: row.reversed_at,
      });
    if (!row.outcome) throw refuse(row, 'it was approved before Ledgerdesk recorded what approvals change; correct the transaction by hand');
    // Outcomes recorded before they were tagged carry their kind in the proposal's type.
    const outcome = { kind: row.type, ...(JSON.parse(row.outcome) as object) };
    const kind = kindOf(row.type);
    await assertOpen(ledger, orgSeq, (await kind.datesChanged?.({ ledger, orgSeq }, JSON.parse(row.payload))) ?? [], 'reversed');
    const effect = await kind.undo({ ledger, orgSeq }, row, JSON.parse(row.payload), outcome);
    const { changes } = await ledger
      .stmt('UPDATE proposals SET reversed_at = ?, reversed_by = ?, reversal_comment = ? WHERE seq = ? AND reversed_at IS NULL')
      .run(nowIso(), reviewer.name, comment?.trim() || null, row.seq);
    if (changes === 0) throw new LedgerError('conflict', `Proposal ${row.id} was already reversed.`, { id: row.id });
    await appendAudit(ledger, orgSeq, reviewer, {
      action: 'proposal.reversed',
      targetType: 'proposal',
      targetId: row.id,
      summary: `Reversed the approval of ${row.type.replace('_', ' ')} proposal by ${await proposerLabel(ledger, row)}: ${effect}${comment?.trim() ? ` (comment: "${excerpt(comment.trim())}")` : ''}`,
    });
    return getProposal(ledger, orgSeq, row.id);
  });
}
