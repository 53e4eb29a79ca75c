// A proposal as its table row holds it (snake_case, the payload and outcome as
// JSON text): what the kinds, review and reversal read.
export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export interface ProposalRow {
  seq: number;
  id: string;
  org_seq: number;
  /** A kind's type (kinds/). */
  type: string;
  status: ProposalStatus;
  payload: string;
  proposed_by: string;
  confidence: number | null;
  reason: string | null;
  created_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  review_comment: string | null;
  outcome: string | null;
  reversed_at: string | null;
  reversed_by: string | null;
  reversal_comment: string | null;
  token_seq: number | null;
  channel: 'rest' | 'mcp' | null;
  change_key: string | null;
  rule_seq: number | null;
}
