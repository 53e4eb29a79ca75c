// What the Approvals screen shows of a proposal: the proposal itself, what it
// would change as its kind describes it (the same shape for every kind), who
// sent it (an agent's token, and the person who made the token, whose own it
// counts as: issue 50).
import type { Ledger } from '../../ledger/core/sqlite/open';
import type { ChangeView } from '../../ledger/proposals/kind';
import { kindOf } from '../../ledger/proposals/kinds';
import { proposalPersonOf, toProposal, type Proposal, type ProposalRow, type ProposalStatus } from '../../ledger/proposals/proposals';
import { mapInOrder } from '../../ledger/core/in-order';

export interface ReviewItem extends Proposal {
  proposerName: string | null;
  /** How it came: rest or mcp (null for proposals older than migration 0009 without an audit entry). */
  proposerChannel: 'rest' | 'mcp' | null;
  /** The person who made the agent's token ("Bea Smith"): its proposals count as theirs (issue 50). Null: the machine's owner's token, or no token. */
  tokenMaker: { id: string; name: string } | null;
  /** The person it counts as (who filed it, or whose token did): they may withdraw it, never approve it. */
  countsAs: string | null;
  /** Rejected by the person it counts as: withdrawn (the spec's status stays `rejected`). */
  withdrawn: boolean;
  /** The person's rule that suggested it (rules/runs.ts), if one did and still exists. */
  rule: { id: string; position: number; matchText: string } | null;
  change: ChangeView;
  reviewedAt: string | null;
  reviewedBy: string | null;
  reviewComment: string | null;
  /** An approval put right by its own event (reversal.ts). */
  reversedAt: string | null;
  reversedBy: string | null;
  reversalComment: string | null;
  /** Its last approval that failed outside the books (a document's message the mail server refused), in words; it stays pending. */
  approvalFailure: { at: string; reason: string } | null;
}

type Row = ProposalRow & {
  token_name: string | null;
  maker_id: string | null;
  maker_name: string | null;
  withdrawn: boolean | number;
  rule_id: string | null;
  rule_position: number | null;
  rule_text: string | null;
  failure_at: string | null;
  failure: string | null;
};

/** Newest first; `pending` for the queue, or a reviewed status for history. */
export async function reviewItems(ledger: Ledger, orgSeq: number, status: ProposalStatus, limit = 200): Promise<ReviewItem[]> {
  // A withdrawal is told apart by its own audit entry (review.ts): the proposal keeps the spec's `rejected`.
  const rows = await ledger.rows<Row>(
    `SELECT p.*, k.name AS token_name, u.id AS maker_id, u.name AS maker_name, r.id AS rule_id, r.position AS rule_position, r.match_text AS rule_text,
       (SELECT a.at FROM audit_log a WHERE a.org_seq = p.org_seq AND a.action = 'proposal.approval_failed' AND a.target_id = p.id ORDER BY a.seq DESC LIMIT 1) AS failure_at,
       (SELECT a.summary FROM audit_log a WHERE a.org_seq = p.org_seq AND a.action = 'proposal.approval_failed' AND a.target_id = p.id ORDER BY a.seq DESC LIMIT 1) AS failure,
       (p.status = 'rejected' AND EXISTS (SELECT 1 FROM audit_log a WHERE a.org_seq = p.org_seq AND a.action = 'proposal.withdrawn' AND a.target_id = p.id)) AS withdrawn
     FROM proposals p LEFT JOIN tokens k ON k.seq = p.token_seq LEFT JOIN users u ON u.seq = k.user_seq LEFT JOIN rules r ON r.seq = p.rule_seq
     WHERE p.org_seq = ? AND p.status = ? ORDER BY p.seq DESC LIMIT ?`,
    orgSeq,
    status,
    limit,
  );
  return await mapInOrder(rows, async (row) => {
    const proposal = toProposal(row);
    return {
      ...proposal,
      // An agent's token by name, or a person (a preparer) by name and role.
      proposerName: row.token_name ?? row.proposer_name,
      proposerChannel: row.channel,
      tokenMaker: row.maker_id ? { id: row.maker_id, name: row.maker_name! } : null,
      countsAs: proposalPersonOf(row.proposed_by, row.maker_id),
      withdrawn: Boolean(row.withdrawn),
      rule: row.rule_id ? { id: row.rule_id, position: row.rule_position!, matchText: row.rule_text! } : null,
      change: await kindOf(row.type).view({ ledger, orgSeq }, proposal.payload),
      reviewedAt: row.reviewed_at,
      reviewedBy: row.reviewed_by,
      reviewComment: row.review_comment,
      reversedAt: row.reversed_at,
      reversedBy: row.reversed_by,
      reversalComment: row.reversal_comment,
      approvalFailure: row.failure && row.status === 'pending' ? { at: row.failure_at!, reason: row.failure } : null,
    };
  });
}
