// Rules a person makes while reviewing, on real SQLite files through the desk
// operations (what the screens and owner commands run): made from an approval,
// run on demand and on import, suggesting or applying, in the person's order.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { expectTotalsMatchRows } from './support/aggregates';
import { tempLedger } from './support/env';
import { deskAs } from './support/desk';
import { fillDemo } from '../src/main/demo';

let ctx: DeskContext;
let org: L.Organization;
let agent: Extract<L.Actor, { type: 'token' }>;

const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const audit = async (action: string) => (await L.listAudit(ctx.ledger, org.seq, { action, limit: 50, offset: 0 })).entries;
const tx = async (id: string) => (await L.getTransaction(ctx.ledger, org.seq, id)).transaction;
const pendingByRules = async () => (await ctx.ledger.stmt("SELECT count(*) FROM proposals WHERE status = 'pending' AND rule_seq IS NOT NULL").pluck().get()) as number;

/** Rows by hand, uncategorized: [account, description, amount]. */
async function rows(list: [string, string, number][]): Promise<L.HandRow[]> {
  const made: L.HandRow[] = [];
  for (const [account, description, amount] of list) made.push(await desk<L.HandRow>('addTransaction', { account, date: '2024-03-02', description, amount }));
  return made;
}

beforeEach(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const { info } = await L.createToken(ledger, org.seq, { name: 'bot', scopes: ['read', 'propose-write'] });
  agent = { type: 'token', tokenSeq: 1, tokenId: info.id, tokenName: 'bot', channel: 'mcp' };
  await desk('createAccount', { name: 'Bank' });
  await desk('createAccount', { name: 'Card', type: 'credit_card' });
});

afterEach(() => expectTotalsMatchRows(ctx.ledger));

describe('Approve and remember', () => {
  it('drafts a rule from a categorization, approves it and runs the new rule over the other rows', async () => {
    const [first, second, third, refund] = await rows([
      ['Bank', 'FIGMA.COM 4411', -15],
      ['Bank', 'FIGMA.COM 9823', -15],
      ['Card', 'FIGMA.COM 1200', -15],
      ['Bank', 'FIGMA.COM 5555', 15],
    ]);
    const proposal = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: first.id, categoryCode: '5100', confidence: 0.9 });
    const draft = await desk<L.RuleDraft>('ruleDraft', { proposalId: proposal.id });
    expect(draft).toMatchObject({ matchKind: 'shape', matchText: 'FIGMA.COM ####', sign: 'outflow', categoryCode: '5100', mode: 'suggest', aliases: ['Figma', 'FIGMA.COM'] });
    const bank = (await L.listAccounts(ctx.ledger, org.seq)).find((a) => a.name === 'Bank')!;
    expect(draft.accountId).toBe(bank.id);
    const { aliases: _, description: __, ...rule } = draft;
    const done = await desk('approveAndRemember', { id: proposal.id, rule, comment: 'Always Figma' });
    expect(done.proposal.status).toBe('approved');
    expect(await tx(first.id)).toMatchObject({ category: 'Software & tools', status: 'matched' });
    // Same account and direction only: the card row and the refund are left alone.
    expect(done.run).toMatchObject({ suggested: 1, applied: 0 });
    expect(done.rule).toMatchObject({ position: 1, matchedCount: 1, sourceProposalId: proposal.id, accountName: 'Bank', sign: 'outflow' });
    const suggestion = (await L.listPendingProposals(ctx.ledger, org.seq, { limit: 10, offset: 0 })).proposals[0];
    expect(suggestion).toMatchObject({
      proposedBy: `rule:${done.rule.id}`,
      payload: { transactionId: second.id, categoryCode: '5100', evidence: [{ type: 'rule', value: 'description shaped like "FIGMA.COM ####" in "Bank", outflows only' }] },
    });
    const [item] = await desk('listProposals', {});
    expect(item.rule).toEqual({ id: done.rule.id, position: 1, matchText: 'FIGMA.COM ####' });
    // Approving the rule's suggestion names the rule in the log and on the row.
    await desk('reviewProposals', { ids: [suggestion.id], decision: 'approve' });
    expect(await tx(second.id)).toMatchObject({ category: 'Software & tools', suggestedBy: `rule:${done.rule.id}` });
    expect((await audit('proposal.approved'))[0].summary).toContain('categorization proposal by rule 1 ("FIGMA.COM ####")');
    expect([(await tx(third.id)).status, (await tx(refund.id)).status]).toEqual(['uncategorized', 'uncategorized']);
    expect((await audit('rule.created'))[0].summary).toContain(`remembered from proposal ${proposal.id}`);
  });

  it('refuses to remember anything but a categorization, and leaves the proposal pending when the rule is refused', async () => {
    const [row] = await rows([['Bank', 'Stamps', -3]]);
    const note = await L.proposeNote(ctx.ledger, org.seq, agent, { transactionId: row.id, content: 'post office' });
    await expect(desk('ruleDraft', { proposalId: note.id })).rejects.toMatchObject({ code: 'conflict' });
    const categorization = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: row.id, categoryCode: '5000' });
    const bad = { matchKind: 'contains', matchText: 'Stamps', categoryCode: '9999' };
    await expect(desk('approveAndRemember', { id: categorization.id, rule: bad })).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await L.getProposal(ctx.ledger, org.seq, categorization.id)).status).toBe('pending');
    expect((await tx(row.id)).status).toBe('uncategorized');
  });
});

describe("Approve and remember keeps the proposal's tax code", () => {
  it('a reverse-charge proposal makes a reverse-charge rule, whose suggestions claim no input tax; a split is not offered', async () => {
    await L.setupTaxSet(ctx.ledger, org.seq, L.deskActor(), 'uk-vat');
    await desk('setCategoryTax', { categoryCode: '5300', taxCode: 'S' });
    const [first, second, third] = await rows([
      ['Bank', 'CLOUDHOST EU 1001', -300],
      ['Bank', 'CLOUDHOST EU 1002', -300],
      ['Bank', 'PHONE BILL', -100],
    ]);
    const proposal = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: first.id, categoryCode: '5300', taxCode: 'RC' });
    const draft = await desk<L.RuleDraft>('ruleDraft', { proposalId: proposal.id });
    expect(draft).toMatchObject({ matchText: 'CLOUDHOST EU ####', categoryCode: '5300', taxCode: 'RC' });
    const { aliases: _, description: __, ...rule } = draft;
    const done = await desk('approveAndRemember', { id: proposal.id, rule });
    expect(done.rule).toMatchObject({ categoryCode: '5300', taxCode: 'RC' });
    const [suggestion] = (await L.listPendingProposals(ctx.ledger, org.seq, { limit: 10, offset: 0 })).proposals;
    expect(suggestion).toMatchObject({ proposedBy: `rule:${done.rule.id}`, payload: { transactionId: second.id, taxCode: 'RC' } });
    await desk('reviewProposals', { ids: [suggestion.id], decision: 'approve' });
    // The reverse charge: its notional VAT in boxes 1 and 4 alike (60 each for the two rows), nothing to reclaim.
    const vat = await L.taxReturn(ctx.ledger, org.seq, { from: '2024-03-01', to: '2024-03-31' });
    expect([vat.boxes['1'], vat.boxes['4'], vat.payable]).toEqual([120, 120, 0]);
    // No code named: the rule takes the category's, as the approval does.
    const plain = await L.proposeCategorization(ctx.ledger, org.seq, agent, { transactionId: third.id, categoryCode: '5300' });
    expect((await desk<L.RuleDraft>('ruleDraft', { proposalId: plain.id })).taxCode).toBeNull();
    const split = await L.proposeCategorization(ctx.ledger, org.seq, agent, {
      transactionId: third.id,
      lines: [
        { categoryCode: '5300', amount: 60, taxCode: 'RC' },
        { categoryCode: '5000', amount: 40 },
      ],
    });
    await expect(desk('ruleDraft', { proposalId: split.id })).rejects.toMatchObject({ code: 'conflict', details: { reason: 'split' } });
    expect((await desk<{ id: string; change: { rememberable: boolean } }[]>('listProposals', {})).find((p) => p.id === split.id)?.change.rememberable).toBe(false);
  });
});

describe('running rules', () => {
  it('gives each row its first matching rule, in the order the person set, and never files a decided change twice', async () => {
    const [aws, awsCredit, github, uber] = await rows([
      ['Bank', 'AWS EMEA invoice 77', -120],
      ['Bank', 'AWS EMEA credit 12', 20],
      ['Card', 'GITHUB.COM 1', -4],
      ['Card', 'UBER *TRIP (Berlin)', -14],
    ]);
    // Texts are texts, not patterns: "*" and "(" match themselves.
    const travel = (await desk('createRule', { rule: { matchKind: 'contains', matchText: 'uber *trip (', categoryCode: '5000', mode: 'apply' } })).rule;
    expect((await tx(uber.id)).category).toBe('Operating expenses');
    const general = (await desk('createRule', { rule: { matchKind: 'contains', matchText: 'aws', categoryCode: '5300' } })).rule;
    // Made disabled: it does not run when made.
    const inflow = { matchKind: 'contains', matchText: 'AWS', sign: 'inflow', categoryCode: '4000' };
    const inflows = (await desk('createRule', { rule: { ...inflow, enabled: false } })).rule;
    // The general rule, made first, took both AWS rows when it was made.
    expect(await pendingByRules()).toBe(2);
    // Put the inflow rule first, enable it and run all: its change is new, the general one's is pending already.
    await desk('moveRule', { id: inflows.id, position: 1 });
    await desk('updateRule', { id: inflows.id, rule: inflow });
    expect((await desk<L.Rule[]>('listRules')).map((r) => r.id)).toEqual([inflows.id, travel.id, general.id]);
    const run = await desk<L.RuleRunResult>('runRules');
    expect(run).toMatchObject({ rows: 3, suggested: 1, alreadyDecided: 1 });
    const pendingFor = async (id: string) =>
      (await L.listPendingProposals(ctx.ledger, org.seq, { limit: 50, offset: 0 })).proposals
        .filter((p) => (p.payload as { transactionId: string }).transactionId === id)
        .map((p) => (p.payload as { categoryCode: string }).categoryCode);
    expect((await pendingFor(awsCredit.id)).sort()).toEqual(['4000', '5300']);
    // A person's "no" sticks for rules too.
    const [rejected] = (await L.listPendingProposals(ctx.ledger, org.seq, { limit: 50, offset: 0 })).proposals.filter(
      (p) => (p.payload as { transactionId: string }).transactionId === aws.id,
    );
    await desk('reviewProposals', { ids: [rejected.id], decision: 'reject', comment: 'Not AWS hosting: training' });
    expect((await desk<L.RuleRunResult>('runRules')).suggested).toBe(0);
    expect((await tx(github.id)).status).toBe('uncategorized');
    expect((await audit('rule.moved'))[0].summary).toContain('moved from 3 to 1');
  });

  it("applies at once when the rule says so, as the person's rule, skipping closed accounts and disabled rules", async () => {
    const [bank, card] = await rows([
      ['Bank', 'Slack Technologies', -8],
      ['Card', 'Slack Technologies', -8],
    ]);
    await desk('closeAccount', { account: 'Card' });
    const made = await desk('createRule', { rule: { matchKind: 'contains', matchText: 'slack', categoryCode: '5100', mode: 'apply' } });
    expect(made.run).toMatchObject({ applied: 1, suggested: 0 });
    expect(await tx(bank.id)).toMatchObject({ category: 'Software & tools', status: 'matched', suggestedBy: `rule:${made.rule.id}` });
    expect((await tx(card.id)).status).toBe('uncategorized');
    expect((await audit('rule.applied'))[0]).toMatchObject({
      actor: { type: 'human' },
      summary: expect.stringContaining('categorized 1 uncategorized row as 5100 Software & tools, when it was made'),
    });
    await desk('reopenAccount', { account: 'Card' });
    await desk('updateRule', { id: made.rule.id, rule: { matchKind: 'contains', matchText: 'slack', categoryCode: '5100', mode: 'apply', enabled: false } });
    expect((await desk<L.RuleRunResult>('runRules')).applied).toBe(0);
    expect((await audit('rule.updated'))[0].summary).toMatch(/\(apply\) => .*\(apply, disabled\)/);
    await desk('updateRule', { id: made.rule.id, rule: { matchKind: 'contains', matchText: 'slack', categoryCode: '5100', mode: 'apply' } });
    expect((await desk<L.RuleRunResult>('runRules')).applied).toBe(1);
    expect((await desk<L.Rule[]>('listRules'))[0].matchedCount).toBe(2);
    expect(await desk('deleteRule', { id: made.rule.id })).toEqual([]);
    expect((await audit('rule.deleted'))[0].summary).toContain('it had matched 2 rows');
  });

  it('takes reconciled rows that were never categorized: being cleared by the bank is not being categorized', async () => {
    const [fee, paid] = await rows([
      ['Bank', 'MONTHLY ACCOUNT FEE', -15],
      ['Bank', 'CLIENT PAYMENT 2211', 900],
    ]);
    await desk('reconcileAccount', { account: 'Bank', date: '2024-03-31', balance: '885.00', clearThrough: '2024-03-31' });
    expect([(await tx(fee.id)).status, (await tx(paid.id)).status]).toEqual(['uncategorized', 'uncategorized']);
    const made = await desk('createRule', { rule: { matchKind: 'contains', matchText: 'account fee', categoryCode: '5000', mode: 'apply' } });
    expect(made.run).toMatchObject({ rows: 2, applied: 1 });
    expect(await tx(fee.id)).toMatchObject({ category: 'Operating expenses', status: 'reconciled' });
    await desk('createRule', { rule: { matchKind: 'contains', matchText: 'client payment', categoryCode: '4000', mode: 'suggest' } });
    expect(await pendingByRules()).toBe(1);
  });

  it("runs on every import, in the import's transaction, over the imported rows only", async () => {
    await rows([['Bank', 'Coffee shop', -3]]);
    await desk('createRule', { rule: { matchKind: 'shape', matchText: 'Coffee shop', categoryCode: '5000', mode: 'apply' } });
    const file = join(ctx.dataDir, 'march.csv');
    writeFileSync(file, 'Date,Description,Amount\n2024-03-04,Coffee shop,-3.50\n2024-03-05,Bakery,-2.10\n2024-03-06,COFFEE SHOP,-4.00\n');
    const imported = await desk<L.ImportResult>('importStatement', { file, account: 'Card' });
    expect(imported).toMatchObject({ imported: 3, rules: { applied: 2, suggested: 0 } });
    expect((await audit('rule.applied'))[0].summary).toContain('after importing "march.csv"');
    const card = (await L.listTransactions(ctx.ledger, org.seq, { limit: 10, offset: 0, accountSeq: (await L.requireAccount(ctx.ledger, org.seq, 'Card')).seq })).data;
    expect(card.map((t) => [t.description, t.category]).sort()).toEqual([
      ['Bakery', null],
      ['COFFEE SHOP', 'Operating expenses'],
      ['Coffee shop', 'Operating expenses'],
    ]);
  });

  it('keeps every total and count true when a big run lifts the triggers (thousands of rows applied and suggested)', async () => {
    await fillDemo(ctx.ledger, org.seq, org.slug, 20000, org.currency);
    const uncategorized = async () => (await L.listTransactions(ctx.ledger, org.seq, { status: 'uncategorized', limit: 1, offset: 0 })).meta.totalCount;
    const before = await uncategorized();
    expect(before).toBeGreaterThan(6000);
    // Outflows applied, inflows suggested: both paths above the bulk threshold (2,000 rows).
    await desk('createRule', { rule: { matchKind: 'contains', matchText: 'e', sign: 'outflow', categoryCode: '5000', mode: 'apply', enabled: false } });
    await desk('createRule', { rule: { matchKind: 'contains', matchText: 'e', sign: 'inflow', categoryCode: '4000', enabled: false } });
    const ids = (await desk<L.Rule[]>('listRules')).map((r) => r.id);
    const run = await desk<L.RuleRunResult>('runRules', { ids });
    expect(run.applied).toBeGreaterThan(2000);
    expect(run.suggested).toBeGreaterThan(2000);
    expect(await uncategorized()).toBe(before - run.applied);
    expect((await L.listPendingProposals(ctx.ledger, org.seq, { limit: 1, offset: 0 })).count).toBe(run.suggested);
    // afterEach recounts every maintained total (proposal counts included) from the rows.
  });

  it('matches texts with digits row by row, their "." and "(" as themselves', async () => {
    const [ref, other, card] = await rows([
      ['Bank', 'Payment ref.(2) ok', -5],
      ['Bank', 'Payment refx(2) ok', -5],
      ['Bank', 'Card 4411 fee', -1],
    ]);
    await desk('createRule', { rule: { matchKind: 'contains', matchText: 'ref.(2)', categoryCode: '5000', mode: 'apply' } });
    await desk('createRule', { rule: { matchKind: 'contains', matchText: '4411', categoryCode: '5000', mode: 'apply' } });
    expect([(await tx(ref.id)).status, (await tx(other.id)).status, (await tx(card.id)).status]).toEqual(['matched', 'uncategorized', 'matched']);
  });

  it('refuses a rule with an unknown category, account or an empty text, naming the field', async () => {
    await expect(desk('createRule', { rule: { matchKind: 'contains', matchText: 'x', categoryCode: '9999' } })).rejects.toMatchObject({ details: [{ field: 'categoryCode' }] });
    await expect(desk('createRule', { rule: { matchKind: 'contains', matchText: '  ', categoryCode: '5000' } })).rejects.toMatchObject({ details: [{ field: 'rule.matchText' }] });
    await expect(
      desk('createRule', { rule: { matchKind: 'contains', matchText: 'x', categoryCode: '5000', accountId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a' } }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await desk('listRules')).toEqual([]);
  });
});
