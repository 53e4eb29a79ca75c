// A proposal as its table row holds it (snake_case, the payload and outcome as
// JSON text): what the kinds, review and reversal read.
import type { ProposalRecord } from '../../../../db/rows';

export { PROPOSAL_STATUSES, type ProposalStatus } from '../../../../db/values';

/** The kind's type is plain text in the table: the kinds (kinds/index.ts) say which there are. */
export type ProposalRow = ProposalRecord;
