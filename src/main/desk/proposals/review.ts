// Approvals at the desk: the queue, approving and rejecting, withdrawing one's
// own, approving a categorization with a rule ("Approve and remember") and
// reversing an approval. Whoever approves a proposal may make its change
// themselves (issue 50): its kind names the desk operation that makes that
// change (ledger/proposals/kinds), and that operation's roles, but for those
// whose change it files as a proposal, approve it, or put an approval back. The
// roles come from the one table of operations (desk/operations.ts), handed in.
import * as z from 'zod';
import { Prose, Uuid } from '../../api/fields';
import * as L from '../../ledger';
import { mapInOrder } from '../../ledger/core/in-order';
import type { ApplyOptions } from '../../ledger/proposals/kind';
import { kindOf } from '../../ledger/proposals/kinds';
import { sendDocument } from '../../mail/send';
import { op, Org, orgSeq, type DeskContext } from '../operation';
import { appliers, KEEPERS, PROPOSERS, STAFF, type Role, type RoleTable } from '../roles';
import { createAndRun, RuleFields } from './rules';
import { reviewItems, type ReviewItem } from './review-queue';

/** A card of the Approvals screen: the proposal as reviewItems reads it, who may approve it, and whether it is the viewer's own. */
export interface ApprovalCard extends ReviewItem {
  /** The roles that may approve it: those that may make its change themselves (issue 50). */
  approvers: Role[];
  /** It counts as the viewer's own (they filed it, or their token did): they may withdraw it, never approve it. */
  own: boolean;
  /** The viewer may approve it: their role may make its change, and it is not their own. */
  mayApprove: boolean;
}

/** Who may approve a proposal of a type: whoever may make its change themselves. */
export const approversOf = (roles: RoleTable, type: string): Role[] => appliers(roles[kindOf(type).approvedAs]);

/** Whether the person's role may make the change (the machine's owner, no person, owns every organization). */
const applies = (ctx: DeskContext, allowed: readonly Role[]): boolean => !ctx.person || (ctx.role !== undefined && allowed.includes(ctx.role));

/** Refuses a person whose role may not make the proposal's change (403, details.reason role_cannot_apply). */
async function mayApply(ctx: DeskContext, roles: RoleTable, seq: number, id: string, what: 'approve' | 'reverse the approval of'): Promise<void> {
  const { type } = await L.getProposal(ctx.ledger, seq, id);
  const allowed = approversOf(roles, type);
  if (applies(ctx, allowed)) return;
  const kind = type.replace('_', ' ');
  throw new L.LedgerError(
    'forbidden',
    `As ${ctx.role} you may not ${what} a ${kind} proposal: that makes the change itself, which is for ${allowed.join(', ')} (who may make it).`,
    { id, type, reason: 'role_cannot_apply', role: ctx.role ?? null, allowed },
  );
}

type Send = NonNullable<ApplyOptions['send']>;

/**
 * A review with the mailer at hand (a document's sending, issue 53): the message goes as the reviewer's, inside the
 * review's transaction; refused, the review is undone and the proposal stays pending with the reason noted.
 */
async function approveWithMail(ctx: DeskContext, seq: number, id: string, review: (send: Send) => Promise<L.Proposal>): Promise<L.Proposal> {
  let failure: string | null = null;
  const send: Send = async (r) => {
    try {
      return await sendDocument(ctx.ledger, seq, ctx.reviewer, r);
    } catch (error) {
      if (error instanceof L.LedgerError) failure = error.message;
      throw error;
    }
  };
  try {
    return await review(send);
  } catch (error) {
    if (failure) await L.noteApprovalFailure(ctx.ledger, seq, ctx.reviewer, id, failure);
    throw error;
  }
}

/** Each proposal in its own transaction: one refused or already reviewed does not stop the others. */
const eachOf = (ids: string[], review: (id: string) => Promise<L.Proposal>) =>
  mapInOrder(ids, async (id) => {
    try {
      return { id, proposal: await review(id), error: null };
    } catch (error) {
      if (!(error instanceof L.LedgerError)) throw error;
      return { id, proposal: null, error: error.toBody().error };
    }
  });

const Comment = Prose(2000).optional();

export const reviewOperations = (roles: () => RoleTable) => ({
  /** The queue (or history), each card saying who may approve it and whether it is the person's own (to withdraw, never to approve). */
  listProposals: op(STAFF, z.strictObject({ ...Org, status: z.enum(L.PROPOSAL_STATUSES).default('pending') }), async (ctx, { orgId, status }) =>
    (await reviewItems(ctx.ledger, await orgSeq(ctx, orgId), status)).map((item): ApprovalCard => {
      const approvers = approversOf(roles(), item.type);
      const own = ctx.person != null && item.countsAs === ctx.person.id;
      return { ...item, approvers, own, mayApprove: !own && applies(ctx, approvers) };
    }),
  ),

  reviewProposals: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      ids: z.array(Uuid).min(1).max(500),
      decision: z.enum(['approve', 'reject']),
      comment: Comment,
      /** Journal entries: the account each one's row goes to, by proposal id (the default account otherwise). */
      accounts: z.record(Uuid, Uuid).optional(),
    }),
    async (ctx, { orgId, ids, decision, comment, accounts }) => {
      const seq = await orgSeq(ctx, orgId);
      return eachOf(ids, async (id) => {
        if (decision === 'approve') await mayApply(ctx, roles(), seq, id, 'approve');
        return approveWithMail(ctx, seq, id, (send) => L.reviewProposal(ctx.ledger, seq, id, decision, ctx.reviewer, comment, accounts?.[id], send));
      });
    },
  ),

  /** One's own proposals (a preparer's, or one's token's) taken back: stored as the spec's `rejected`, logged as withdrawn. */
  withdrawProposals: op(PROPOSERS, z.strictObject({ ...Org, ids: z.array(Uuid).min(1).max(500), comment: Comment }), async (ctx, { orgId, ids, comment }) => {
    const seq = await orgSeq(ctx, orgId);
    return eachOf(ids, (id) => L.reviewProposal(ctx.ledger, seq, id, 'withdraw', ctx.reviewer, comment));
  }),

  /** Approves a categorization and makes a rule of it, in one transaction; the rule then runs over the uncategorized rows. */
  approveAndRemember: op(KEEPERS, z.strictObject({ ...Org, id: Uuid, rule: RuleFields, comment: Comment }), async (ctx, { orgId, id, rule, comment }) => {
    const seq = await orgSeq(ctx, orgId);
    await mayApply(ctx, roles(), seq, id, 'approve');
    return ctx.ledger.write(async () => {
      const proposal = await L.reviewProposal(ctx.ledger, seq, id, 'approve', ctx.reviewer, comment);
      return { proposal, ...(await createAndRun(ctx, seq, rule, id)) };
    });
  }),

  reverseProposal: op(
    KEEPERS,
    z.strictObject({ ...Org, id: Uuid.describe('The approved proposal'), comment: Prose(2000).trim().optional().describe('Why, for the log') }),
    async (ctx, { orgId, id, comment }) => {
      const seq = await orgSeq(ctx, orgId);
      await mayApply(ctx, roles(), seq, id, 'reverse the approval of');
      return L.reverseProposal(ctx.ledger, seq, ctx.reviewer, id, comment);
    },
    {
      name: 'proposal reverse',
      summary: 'reverse an approval (its own logged event; the proposal stays approved)',
      args: ['id'],
      print: (p) => [`Reversed the approval of ${p.type} proposal ${p.id}.`],
    },
  ),
});
