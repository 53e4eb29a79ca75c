// The person's categorization rules at the desk (Rules screen; "Approve and
// remember" in Approvals makes one: review.ts) and as owner commands
// (`ledgerdesk rule list|run`).
import { KEEPERS, STAFF } from '../roles';
import * as z from 'zod';
import { Line, Uuid } from '../../api/fields';
import * as L from '../../ledger';
import { op, Org, orgSeq, type DeskContext } from '../operation';

export const RuleFields = z.strictObject({
  matchKind: z.enum(L.RULE_MATCH_KINDS).describe('shape: the whole description, digits as #; contains: a text anywhere in it'),
  matchText: Line(200).trim().min(1).describe('The shape or the text; case does not matter'),
  accountId: Uuid.nullable().optional().describe('Only rows of this account'),
  sign: z.enum(L.RULE_SIGNS).nullable().optional().describe('Only inflows or only outflows'),
  categoryCode: Line(50).trim().min(1).describe('The category to use (with a split: its first share)'),
  split: z
    .array(z.strictObject({ categoryCode: Line(50).trim().min(1), percent: z.number().gt(0).lt(100) }))
    .min(2)
    .max(20)
    .nullable()
    .optional()
    .describe('Split by fixed shares (percents adding up to 100), e.g. 70% 5100 and 30% 5000; rounded so the lines add up exactly'),
  taxCode: Line(20).trim().min(1).nullable().optional().describe("The tax code it writes (default: its categories' own defaults)"),
  mode: z.enum(L.RULE_MODES).default('suggest').describe('suggest: a proposal to approve; apply: categorize at once'),
  enabled: z.boolean().default(true),
});

const ruleLine = (r: L.Rule): string =>
  [
    String(r.position).padStart(3),
    r.enabled ? '' : '(off)',
    r.matchKind === 'shape' ? `shaped like "${r.matchText}"` : `containing "${r.matchText}"`,
    r.accountName ? `in ${r.accountName}` : '',
    r.sign ? `${r.sign}s` : '',
    r.split ? `-> ${r.split.map((x) => `${x.percent}% ${x.categoryCode}`).join(' / ')}` : `-> ${r.categoryCode} ${r.category ?? '(not in the chart)'}`,
    r.taxCode ? `tax ${r.taxCode}` : '', // none: its categories' own tax codes
    r.mode,
    `${r.matchedCount} matched`,
  ]
    .filter(Boolean)
    .join('  ');

const runLines = (run: L.RuleRunResult): string[] =>
  run.rules.length === 0
    ? ['No enabled rules to run.']
    : [
        `${run.rows.toLocaleString('en')} uncategorized rows read: ${run.suggested.toLocaleString('en')} suggested (pending in Approvals), ${run.applied.toLocaleString('en')} categorized, ${run.alreadyDecided.toLocaleString('en')} already pending or rejected.`,
        ...run.rules.filter((r) => r.skipped).map((r) => `Rule ${r.position} skipped: ${r.skipped}.`),
      ];

/** A new or changed rule runs at once over the uncategorized rows: that is what a person making one expects. */
export const createAndRun = async (ctx: DeskContext, seq: number, rule: z.output<typeof RuleFields>, sourceProposalId: string | null = null) => {
  const made = await L.createRule(ctx.ledger, seq, ctx.reviewer, rule, sourceProposalId);
  const run = made.enabled ? await L.runRules(ctx.ledger, seq, ctx.reviewer, { ruleIds: [made.id], occasion: 'when it was made' }) : null;
  return { rule: await L.toRule(ctx.ledger, await L.requireRuleRow(ctx.ledger, seq, made.id)), run };
};

export const ruleOperations = {
  listRules: op(STAFF, z.strictObject(Org), async (ctx, { orgId }) => L.listRules(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'rule list',
    summary: 'the categorization rules in the order they are tried, with how many rows each matched',
    print: (rules) => (rules.length ? rules.map(ruleLine) : ['No rules yet: make one with "Approve and remember" in Approvals, or in Rules.']),
  }),

  createRule: op(KEEPERS, z.strictObject({ ...Org, rule: RuleFields }), (ctx, { orgId, rule }) => ctx.ledger.write(async () => createAndRun(ctx, await orgSeq(ctx, orgId), rule))),

  updateRule: op(KEEPERS, z.strictObject({ ...Org, id: Uuid, rule: RuleFields }), async (ctx, { orgId, id, rule }) =>
    L.updateRule(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, rule),
  ),

  moveRule: op(KEEPERS, z.strictObject({ ...Org, id: Uuid, position: z.int().min(1).describe('1 is tried first') }), async (ctx, { orgId, id, position }) =>
    L.moveRule(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, position),
  ),

  deleteRule: op(KEEPERS, z.strictObject({ ...Org, id: Uuid }), async (ctx, { orgId, id }) => L.deleteRule(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id)),

  runRules: op(
    KEEPERS,
    z.strictObject({ ...Org, ids: z.array(Uuid).max(1000).optional().describe('Only these rules (all enabled rules otherwise)') }),
    async (ctx, { orgId, ids }) => L.runRules(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, { ruleIds: ids }),
    { name: 'rule run', summary: 'run the enabled rules over every uncategorized row now', print: runLines },
  ),

  ruleDraft: op(STAFF, z.strictObject({ ...Org, proposalId: Uuid }), async (ctx, { orgId, proposalId }) => L.ruleDraftFor(ctx.ledger, await orgSeq(ctx, orgId), proposalId)),
};
