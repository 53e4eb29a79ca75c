// Rules a person makes while reviewing: when a description matches, optionally
// in one account and one direction of money, use this category. Kept in the
// person's order (the first rule that matches a row wins); each change is
// audited. Running them is runs.ts.
import { accountBySeq, requireAccount } from '../accounts/accounts';
import { appendAudit, type Actor } from '../access/audit';
import { usableTaxCodeRow } from '../tax/codes';
import { resolveCategory } from '../chart/categories';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError, notFound } from '../core/errors';
import { requireProposalRow, type ProposalPayloads } from '../proposals/proposals';
import { excerpt } from '../core/text';
import { requireTransactionRow } from '../transactions/transactions';
import type { RuleRecord } from '../../../../db/rows';
import { descriptionShape } from '../transactions/shape';
import { mapInOrder } from '../core/in-order';

export const RULE_MATCH_KINDS = ['shape', 'contains'] as const;
export const RULE_MODES = ['suggest', 'apply'] as const;
export const RULE_SIGNS = ['inflow', 'outflow'] as const;
export type RuleMatchKind = (typeof RULE_MATCH_KINDS)[number];
export type RuleMode = (typeof RULE_MODES)[number];
export type RuleSign = (typeof RULE_SIGNS)[number];

export interface Rule {
  id: string;
  position: number;
  /** shape: the whole description with its digits as # (FIGMA.COM ####); contains: this text anywhere. Case never matters. */
  matchKind: RuleMatchKind;
  matchText: string;
  accountId: string | null;
  accountName: string | null;
  sign: RuleSign | null;
  categoryCode: string;
  /** The category's name in the chart now; null when the code left the chart. */
  category: string | null;
  /** A split by fixed shares (a phone bill 70% 5100 / 30% 5000); categoryCode is then the first share's. Null: one category. */
  split: RuleShare[] | null;
  /** The tax code it writes, or null: its categories' defaults. */
  taxCode: string | null;
  /** suggest: a pending proposal for a person to approve (the default); apply: categorized at once. */
  mode: RuleMode;
  enabled: boolean;
  /** Rows this rule has suggested or categorized, all runs together. */
  matchedCount: number;
  lastRunAt: string | null;
  sourceProposalId: string | null;
  createdAt: string;
  updatedAt: string;
}

export type RuleRow = RuleRecord;

/** One share of a rule's split: a category and its percent of the amount (the percents add up to 100). */
export interface RuleShare {
  categoryCode: string;
  percent: number;
}

export const sharesOf = (row: Pick<RuleRow, 'split'>): RuleShare[] | null => (row.split ? (JSON.parse(row.split) as RuleShare[]) : null);

/** "70% 5100 / 30% 5000", or the one code. */
export const ruleTarget = (row: Pick<RuleRow, 'split' | 'category_code'>): string =>
  sharesOf(row)
    ?.map((s) => `${s.percent}% ${s.categoryCode}`)
    .join(' / ') ?? row.category_code;

/** How rules compare text: case-folded and trimmed (toLowerCase: a third of the time of a locale's folding, the same for bank text). */
export const foldRuleText = (text: string): string => text.trim().toLowerCase();

/** "description shaped like "FIGMA.COM ####" in Checking, outflows" */
export async function describeRule(ledger: Ledger, row: Pick<RuleRow, 'match_kind' | 'match_text' | 'account_seq' | 'sign'>): Promise<string> {
  const match = row.match_kind === 'shape' ? `description shaped like "${excerpt(row.match_text, 80)}"` : `description containing "${excerpt(row.match_text, 80)}"`;
  const account = row.account_seq === null ? '' : ` in "${(await accountBySeq(ledger, row.account_seq)).name}"`;
  const sign = row.sign === null ? '' : `, ${row.sign}s only`;
  return `${match}${account}${sign}`;
}

export async function toRule(ledger: Ledger, row: RuleRow): Promise<Rule> {
  const category = (await ledger.stmt('SELECT name FROM categories WHERE org_seq = ? AND code = ?').get(row.org_seq, row.category_code)) as { name: string } | undefined;
  const account = row.account_seq === null ? null : await accountBySeq(ledger, row.account_seq);
  return {
    id: row.id,
    position: row.position,
    matchKind: row.match_kind,
    matchText: row.match_text,
    accountId: account?.id ?? null,
    accountName: account?.name ?? null,
    sign: row.sign,
    categoryCode: row.category_code,
    category: category?.name ?? null,
    split: sharesOf(row),
    taxCode: row.tax_code,
    mode: row.mode,
    enabled: row.enabled === 1,
    matchedCount: row.matched_count,
    lastRunAt: row.last_run_at,
    sourceProposalId: row.source_proposal_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const ruleRows = (ledger: Ledger, orgSeq: number): Promise<RuleRow[]> => ledger.rows<RuleRow>('SELECT * FROM rules WHERE org_seq = ? ORDER BY position', orgSeq);

export const listRules = async (ledger: Ledger, orgSeq: number): Promise<Rule[]> => await mapInOrder(await ruleRows(ledger, orgSeq), (r) => toRule(ledger, r));

export async function requireRuleRow(ledger: Ledger, orgSeq: number, id: string): Promise<RuleRow> {
  const row = (await ledger.stmt('SELECT * FROM rules WHERE id = ? AND org_seq = ?').get(id.toLowerCase(), orgSeq)) as RuleRow | undefined;
  if (!row) throw notFound('rule', id);
  return row;
}

export interface RuleInput {
  matchKind: RuleMatchKind;
  matchText: string;
  accountId?: string | null;
  sign?: RuleSign | null;
  categoryCode: string;
  /** Split by fixed shares instead of one category (categoryCode is then taken from the first share). */
  split?: RuleShare[] | null;
  /** The tax code it writes (issue 28); absent or null: its categories' defaults. */
  taxCode?: string | null;
  mode?: RuleMode;
  enabled?: boolean;
}

/** Checks a split's shares: two or more categories of the chart, each once, percents above 0 with at most two decimals, adding up to 100. */
async function settleShares(ledger: Ledger, orgSeq: number, shares: RuleShare[]): Promise<{ split: string; text: string }> {
  if (shares.length < 2) throw invalid([{ field: 'split', message: 'a split has at least two shares (one category is a plain rule)' }]);
  const issues = shares.flatMap((share, i) => {
    const hundredths = Math.round(share.percent * 100);
    if (!(share.percent > 0) || share.percent > 100 || hundredths / 100 !== share.percent)
      return [{ field: `split[${i}].percent`, message: 'must be above 0 and at most 100, with at most two decimals' }];
    return [];
  });
  if (issues.length) throw invalid(issues);
  const codes = await mapInOrder(shares, async (share, i) => {
    try {
      return await resolveCategory(ledger, orgSeq, { categoryCode: share.categoryCode });
    } catch {
      throw invalid([{ field: `split[${i}].categoryCode`, message: `"${share.categoryCode}" is not an offered code of the chart` }]);
    }
  });
  if (new Set(codes.map((c) => c.code)).size !== codes.length) throw invalid([{ field: 'split', message: 'each category once' }]);
  const total = shares.reduce((sum, share) => sum + Math.round(share.percent * 100), 0);
  if (total !== 10000) throw invalid([{ field: 'split', message: `the percents add up to ${total / 100}, not 100` }]);
  const clean = shares.map((share, i) => ({ categoryCode: codes[i].code, percent: share.percent }));
  return { split: JSON.stringify(clean), text: clean.map((c, i) => `${c.percent}% ${c.categoryCode} ${codes[i].name}`).join(' / ') };
}

/** The stored form of a rule's fields, checked: a shape is written with # for digits; the category must be offered; the account must exist. */
async function settle(ledger: Ledger, orgSeq: number, input: RuleInput) {
  const text = input.matchText.trim();
  if (!text) throw invalid([{ field: 'matchText', message: 'is required' }]);
  const shares = input.split ? await settleShares(ledger, orgSeq, input.split) : null;
  const category = await resolveCategory(ledger, orgSeq, { categoryCode: input.split?.[0]?.categoryCode ?? input.categoryCode });
  return {
    match_kind: input.matchKind,
    match_text: input.matchKind === 'shape' ? descriptionShape(text) : text,
    account_seq: input.accountId ? (await requireAccount(ledger, orgSeq, input.accountId)).seq : null,
    sign: input.sign ?? null,
    category_code: category.code,
    split: shares?.split ?? null,
    tax_code: input.taxCode ? (await usableTaxCodeRow(ledger, orgSeq, input.taxCode)).code : null,
    mode: input.mode ?? 'suggest',
    enabled: input.enabled === false ? 0 : 1,
    categoryText: shares?.text ?? `${category.code} ${category.name}`,
  };
}

export async function createRule(ledger: Ledger, orgSeq: number, actor: Actor, input: RuleInput, sourceProposalId: string | null = null): Promise<Rule> {
  return ledger.write(async () => {
    const s = await settle(ledger, orgSeq, input);
    const position = (((await ledger.stmt('SELECT max(position) AS p FROM rules WHERE org_seq = ?').get(orgSeq)) as { p: number | null }).p ?? 0) + 1;
    const id = newId();
    const now = nowIso();
    await ledger
      .stmt(
        `INSERT INTO rules (id, org_seq, position, match_kind, match_text, account_seq, sign, category_code, split, tax_code, mode, enabled, matched_count, source_proposal_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
      )
      .run(id, orgSeq, position, s.match_kind, s.match_text, s.account_seq, s.sign, s.category_code, s.split, s.tax_code, s.mode, s.enabled, sourceProposalId, now, now);
    const row = await requireRuleRow(ledger, orgSeq, id);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'rule.created',
      targetType: 'rule',
      targetId: id,
      summary: `Rule ${position} created: ${await describeRule(ledger, row)} -> ${s.categoryText} (${s.mode}${s.enabled ? '' : ', disabled'})${sourceProposalId ? `, remembered from proposal ${sourceProposalId}` : ''}`,
    });
    return toRule(ledger, row);
  });
}

export async function updateRule(ledger: Ledger, orgSeq: number, actor: Actor, id: string, input: RuleInput): Promise<Rule> {
  return ledger.write(async () => {
    const before = await requireRuleRow(ledger, orgSeq, id);
    const s = await settle(ledger, orgSeq, input);
    await ledger
      .stmt(
        'UPDATE rules SET match_kind = ?, match_text = ?, account_seq = ?, sign = ?, category_code = ?, split = ?, tax_code = ?, mode = ?, enabled = ?, updated_at = ? WHERE seq = ?',
      )
      .run(s.match_kind, s.match_text, s.account_seq, s.sign, s.category_code, s.split, s.tax_code, s.mode, s.enabled, nowIso(), before.seq);
    const after = await requireRuleRow(ledger, orgSeq, id);
    const state = async (r: RuleRow) => `${await describeRule(ledger, r)} -> ${ruleTarget(r)} (${r.mode}${r.enabled ? '' : ', disabled'})`;
    await appendAudit(ledger, orgSeq, actor, {
      action: 'rule.updated',
      targetType: 'rule',
      targetId: before.id,
      summary: `Rule ${before.position} changed: ${await state(before)} => ${await state(after)}`,
    });
    return toRule(ledger, after);
  });
}

/** Puts a rule at `position` (1 = first), the others keeping their order. */
export async function moveRule(ledger: Ledger, orgSeq: number, actor: Actor, id: string, position: number): Promise<Rule[]> {
  return ledger.write(async () => {
    const row = await requireRuleRow(ledger, orgSeq, id);
    const others = (await ruleRows(ledger, orgSeq)).filter((r) => r.seq !== row.seq);
    const to = Math.min(Math.max(1, position), others.length + 1);
    const order = [...others.slice(0, to - 1), row, ...others.slice(to - 1)];
    for (const [i, r] of order.entries()) await ledger.stmt('UPDATE rules SET position = ? WHERE seq = ?').run(i + 1, r.seq);
    if (to !== row.position) {
      await appendAudit(ledger, orgSeq, actor, {
        action: 'rule.moved',
        targetType: 'rule',
        targetId: row.id,
        summary: `Rule moved from ${row.position} to ${to}: ${await describeRule(ledger, row)}`,
      });
    }
    return listRules(ledger, orgSeq);
  });
}

export async function deleteRule(ledger: Ledger, orgSeq: number, actor: Actor, id: string): Promise<Rule[]> {
  return ledger.write(async () => {
    const row = await requireRuleRow(ledger, orgSeq, id);
    // Its suggestions stay (pending ones can still be reviewed); they just no longer point at a rule.
    await ledger.stmt('UPDATE proposals SET rule_seq = NULL WHERE rule_seq = ?').run(row.seq);
    await ledger.stmt('DELETE FROM rules WHERE seq = ?').run(row.seq);
    await ledger.stmt('UPDATE rules SET position = position - 1 WHERE org_seq = ? AND position > ?').run(orgSeq, row.position);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'rule.deleted',
      targetType: 'rule',
      targetId: row.id,
      summary: `Rule ${row.position} deleted: ${await describeRule(ledger, row)} -> ${ruleTarget(row)} (it had matched ${row.matched_count} rows)`,
    });
    return listRules(ledger, orgSeq);
  });
}

export interface RuleDraft extends RuleInput {
  /** The transaction's own description, for the person to edit a text from. */
  description: string;
  /** Counterparty aliases found in the description: each is a ready `contains` text. */
  aliases: string[];
}

/**
 * What "Approve and remember" offers for a categorization: the description's shape, its account and direction, the
 * category, and the tax code the proposal names (a reverse charge stays one: the category's own code would claim
 * input tax the supplier never charged); none named: the category's, as the approval takes it. A split is not
 * remembered (its parts are amounts, a rule's shares percents): Rules makes a rule with shares.
 */
export async function ruleDraftFor(ledger: Ledger, orgSeq: number, proposalId: string): Promise<RuleDraft> {
  const proposal = await requireProposalRow(ledger, orgSeq, proposalId);
  if (proposal.type !== 'categorization') {
    throw new LedgerError('conflict', 'Only a categorization can be remembered as a rule.', { id: proposal.id, type: proposal.type });
  }
  const payload = JSON.parse(proposal.payload) as ProposalPayloads['categorization'];
  if (payload.lines) throw new LedgerError('conflict', 'A split is remembered as a rule with shares: make it in Rules.', { id: proposal.id, reason: 'split' });
  const tx = await requireTransactionRow(ledger, orgSeq, payload.transactionId);
  const account = (await ledger.stmt('SELECT a.id FROM transactions t JOIN accounts a ON a.seq = t.account_seq WHERE t.seq = ?').get(tx.seq)) as { id: string } | undefined;
  const folded = foldRuleText(tx.description);
  const aliases = (await ledger.rows<{ aliases: string }>('SELECT aliases FROM counterparties WHERE org_seq = ?', orgSeq))
    .flatMap((c) => JSON.parse(c.aliases) as string[])
    .filter((alias) => alias.trim().length >= 3 && folded.includes(foldRuleText(alias)));
  return {
    matchKind: 'shape',
    matchText: descriptionShape(tx.description),
    accountId: account?.id ?? null,
    sign: tx.amount_minor < 0 ? 'outflow' : 'inflow',
    categoryCode: payload.categoryCode,
    taxCode: payload.taxCode ?? null,
    mode: 'suggest',
    description: tx.description,
    aliases: [...new Set(aliases)],
  };
}
