// Issue 42 on real SQLite files: a split's parts typed as a person types them
// (positive figures, parts of the row), the agent API's v1 form (every line in
// the row's sign) still read as documented, a line against the row typed on
// purpose and shown marked, a set that adds up only read against the row
// refused; unsplit putting back what the row was before its split, or asking;
// a transfer named by its direction in the general ledger.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import { transactionOperations } from '../src/main/desk/transactions/transactions';
import { reviewItems } from '../src/main/desk/proposals/review-queue';
import * as L from '../src/main/ledger';
import { readParts, remainderFigure } from '../src/shared/split-parts';
import { expectTotalsMatchRows } from './support/aggregates';
import { deskAs } from './support/desk';
import { tempLedger } from './support/env';

let ctx: DeskContext;
let org: L.Organization;
let agent: Extract<L.Actor, { type: 'token' }>;
const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
const add = async (amount: string, description: string, categoryCode?: string) =>
  (await desk<L.HandRow>('addTransaction', { account: 'Bank', date: '2026-03-02', amount, description, categoryCode })).id;
const lines = async (id: string) => (await L.getTransaction(ctx.ledger, org.seq, id)).lines.map((l) => [l.kind, l.categoryCode, l.amount]);
const refusal = (message: string | RegExp) => ({
  code: 'validation_failed',
  details: [{ field: 'lines', message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message) }],
});

beforeEach(async () => {
  const { ledger, dir } = await tempLedger();
  org = await L.createOrganization(ledger, { slug: 'acme', name: 'Acme' });
  ctx = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const { info } = await L.createToken(ledger, org.seq, { name: 'bot', scopes: ['read', 'propose-write'] });
  agent = { type: 'token', tokenSeq: 1, tokenId: info.id, tokenName: 'bot', channel: 'rest' };
  await desk('createAccount', { name: 'Bank', type: 'checking' });
  await desk('createAccount', { name: 'Card', type: 'credit_card' });
});

afterEach(() => expectTotalsMatchRows(ctx.ledger));

describe('reading a split as parts of the row', () => {
  it('reads positive figures as parts, a payment written all negative in its sign, and never guesses a line against the row', () => {
    expect(readParts(-38998, [32999, 5999])).toMatchObject({ form: 'parts', shares: [-32999, -5999], left: 0 });
    expect(readParts(-10000, [-6000, -4000])).toMatchObject({ form: 'row-sign', shares: [-6000, -4000], left: 0 });
    expect(readParts(-10000, [12000, -2000])).toMatchObject({ form: 'parts', shares: [-12000, 2000], left: 0, onlyAgainst: null });
    // The remainder worked out in the row's sign: it adds up only with 329.99 as a refund.
    expect(readParts(-38998, [32999, -71997])).toMatchObject({ left: 77996, onlyAgainst: [0] });
    expect(readParts(10000, [6000, 4000])).toMatchObject({ shares: [6000, 4000], left: 0 });
    expect(remainderFigure(-38998, [32999])).toEqual({ figure: 5999 });
    expect(remainderFigure(-10000, [-6000])).toEqual({ figure: -4000 });
    expect(remainderFigure(-10000, [12000])).toEqual({ over: 2000 });
    expect(remainderFigure(-10000, [10000])).toEqual({ none: true });
  });

  it('splits by hand with the parts typed as positive figures; the v1 form still works; a wrong-sign remainder is refused', async () => {
    const monitor = await add('-389.98', 'COMPUTER SHOP');
    await expect(desk('splitTransaction', { id: monitor, lines: ['5100=329.99', '5200=-719.97'] })).rejects.toMatchObject(
      refusal(/^these lines add up to the payment of 389\.98 USD only if line 1 \(329\.99 USD\) is a refund inside it: parts of a payment are positive figures/),
    );
    await expect(desk('splitTransaction', { id: monitor, lines: ['5100=329.99', '5200=50'] })).rejects.toMatchObject(
      refusal('the parts add up to 379.99 USD, the payment is 389.98 USD: 9.99 USD left to assign'),
    );
    await desk('splitTransaction', { id: monitor, lines: ['5100=329.99:monitor', { categoryCode: '5200', amount: '59.99' }] });
    expect(await lines(monitor)).toEqual([
      ['category', '5100', -329.99],
      ['category', '5200', -59.99],
    ]);
    const store = await add('-100', 'HARDWARE STORE');
    await expect(desk('splitTransaction', { id: store, lines: ['5100=-60', '5200=-30'] })).rejects.toMatchObject(
      refusal('the lines add up to -90.00 USD, the row is -100.00 USD: 10.00 USD left to assign'),
    );
    await desk('splitTransaction', { id: store, lines: ['5100=-60', '5200=-40'] });
    expect(await lines(store)).toEqual([
      ['category', '5100', -60],
      ['category', '5200', -40],
    ]);
    const sale = await add('100', 'CLIENT');
    await expect(desk('splitTransaction', { id: sale, lines: ['4000=-60', '4010=-40'] })).rejects.toMatchObject(
      refusal('the parts add up to -100.00 USD, the receipt is 100.00 USD: 200.00 USD left to assign'),
    );
  });

  it('takes a refund inside a payment typed with a minus, and says so in the command, the audit log and the general ledger', async () => {
    const id = await add('-100', 'ELECTRONICS');
    await expect(desk('splitTransaction', { id, lines: ['5100=-120', '5200=20'] })).rejects.toMatchObject(refusal('only if line 2 (20.00 USD) is a refund inside it'));
    const result = await desk('splitTransaction', { id, lines: ['5100=120:monitor', '5200=-20:returned cable'] });
    expect(await lines(id)).toEqual([
      ['category', '5100', -120],
      ['category', '5200', 20],
    ]);
    const printed = transactionOperations.splitTransaction.command!.print!(result);
    expect(printed.slice(1)).toEqual(['  5100            120.00  monitor', '  5200            -20.00  returned cable  against the row: a refund of 20.00 inside the payment']);
    const [entry] = (await L.listAudit(ctx.ledger, org.seq, { action: 'transaction.split', limit: 1, offset: 0 })).entries;
    expect(entry.summary).toContain(
      '-> 120.00 5100 Software & tools (monitor); -20.00 5200 Office & rent (returned cable) [against the row: a refund of 20.00 inside the payment]',
    );
    const gl = await desk<L.GeneralLedger>('generalLedger', { account: 'Bank', to: '2026-12-31' });
    expect(gl.data.find((p) => p.transactionId === id)!.other).toBe('Split: Software & tools, Office & rent (against the row)');
  });
});

describe('unsplit', () => {
  it('puts an uncategorized row back uncategorized: no category moves by the whole amount', async () => {
    const id = await add('-100', 'MISC');
    await desk('splitTransaction', { id, lines: ['5100=60', '5200=40'] });
    const row = await desk<L.HandRow>('unsplitTransaction', { id });
    expect(row).toMatchObject({ category: null, status: 'uncategorized' });
    expect(await lines(id)).toEqual([['suspense', null, -100]]);
    const pl = await desk<L.ProfitAndLoss>('profitAndLoss', { from: '2026-01-01', to: '2026-12-31' });
    expect(pl.expenses).toBe(0);
    expect((await L.listAudit(ctx.ledger, org.seq, { action: 'transaction.unsplit', limit: 1, offset: 0 })).entries[0].summary).toContain('as before its split: (uncategorized)');
  });

  it('puts back the category and its tax after the split was edited, and from an approved split proposal', async () => {
    await L.setupTaxSet(ctx.ledger, org.seq, L.deskActor(), 'uk-vat');
    const id = await desk<L.HandRow>('addTransaction', { account: 'Bank', date: '2026-03-02', amount: '-120', description: 'DESK', categoryCode: '5200', taxCode: 'S' });
    const taxed = await lines(id.id);
    expect(taxed).toEqual([
      ['category', '5200', -100],
      ['tax', null, -20],
    ]);
    await desk('splitTransaction', { id: id.id, lines: ['5200=100', '5000=20'] });
    await desk('splitTransaction', { id: id.id, lines: ['5200=90', '5000=30'] }); // a split made from a split
    await desk('unsplitTransaction', { id: id.id });
    expect(await lines(id.id)).toEqual(taxed);

    const cloud = await add('-50', 'CLOUD', '5300');
    const p = await L.proposeCategorization(ctx.ledger, org.seq, agent, {
      transactionId: cloud,
      lines: [
        { categoryCode: '5300', amount: 30 },
        { categoryCode: '5100', amount: 20 },
      ],
    });
    await L.reviewProposal(ctx.ledger, org.seq, p.id, 'approve', L.deskActor());
    expect(await desk('unsplitTransaction', { id: cloud })).toMatchObject({ category: 'Cloud infrastructure' });
  });

  it('asks what the row becomes when its split predates this version, and takes a category or uncategorized', async () => {
    const id = await add('-100', 'OLD SPLIT', '5000');
    await desk('splitTransaction', { id, lines: ['5100=60', '5200=40'] });
    await ctx.ledger.stmt('DELETE FROM split_origins').run(); // as a file from before issue 42 has it
    await expect(desk('unsplitTransaction', { id })).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'categoryCode', message: expect.stringContaining('name its category (--category-code 5100), or leave it uncategorized (--uncategorized)') }],
    });
    expect(await lines(id)).toHaveLength(2); // nothing written
    await expect(desk('unsplitTransaction', { id, categoryCode: '5100', uncategorized: true })).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await desk('unsplitTransaction', { id, categoryCode: '5300' })).toMatchObject({ category: 'Cloud infrastructure' });
    await desk('splitTransaction', { id, lines: ['5100=60', '5200=40'] });
    await ctx.ledger.stmt('DELETE FROM split_origins').run();
    expect(await desk('unsplitTransaction', { id, uncategorized: true })).toMatchObject({ category: null, status: 'uncategorized' });
  });

  it("puts a rule's split back uncategorized; a split row can still be deleted", async () => {
    const phone = await add('-60', 'PHONE BILL 0042');
    await desk('createRule', {
      rule: {
        matchKind: 'contains',
        matchText: 'PHONE BILL',
        categoryCode: '5100',
        mode: 'apply',
        split: [
          { categoryCode: '5100', percent: 70 },
          { categoryCode: '5000', percent: 30 },
        ],
      },
    });
    expect(await lines(phone)).toHaveLength(2);
    expect(await desk('unsplitTransaction', { id: phone })).toMatchObject({ category: null });
    await desk('splitTransaction', { id: phone, lines: ['5100=30', '5000=30'] });
    await desk('deleteTransaction', { id: phone });
    expect(await ctx.ledger.stmt('SELECT count(*) FROM split_origins').pluck().get()).toBe(0);
  });
});

describe("agents' proposed splits", () => {
  it('reads positive parts and the v1 form as the same change, keeps shares in the row sign, and marks a line against the row on the card', async () => {
    const id = await add('-100', 'HARDWARE');
    const parts = await L.proposeCategorization(ctx.ledger, org.seq, agent, {
      transactionId: id,
      lines: [
        { categoryCode: '5100', amount: 60 },
        { categoryCode: '5200', amount: 40 },
      ],
    });
    expect((parts.payload as { lines: { amount: number }[] }).lines.map((l) => l.amount)).toEqual([-60, -40]);
    const v1 = await L.proposeCategorization(ctx.ledger, org.seq, agent, {
      transactionId: id,
      lines: [
        { categoryCode: '5100', amount: -60 },
        { categoryCode: '5200', amount: -40 },
      ],
    });
    expect(v1.id).toBe(parts.id);
    await expect(
      L.proposeCategorization(ctx.ledger, org.seq, agent, {
        transactionId: id,
        lines: [
          { categoryCode: '5100', amount: -120 },
          { categoryCode: '5200', amount: 20 },
        ],
      }),
    ).rejects.toThrow(
      expect.objectContaining({ code: 'validation_failed', details: [{ field: 'lines', message: expect.stringContaining('only if line 2 (20.00 USD) is a refund') }] }),
    );
    const refund = await L.proposeCategorization(ctx.ledger, org.seq, agent, {
      transactionId: id,
      lines: [
        { categoryCode: '5100', amount: 120 },
        { categoryCode: '5200', amount: -20 },
      ],
      evidence: [{ type: 'counterparty_match', value: 'HARDWARE' }],
    });
    const card = (await reviewItems(ctx.ledger, org.seq, 'pending')).find((i) => i.id === refund.id)!;
    expect(card.change.split).toEqual([
      { code: '5100', name: 'Software & tools', amount: 120, against: false, memo: null },
      { code: '5200', name: 'Office & rent', amount: -20, against: true, memo: null },
    ]);
    await L.reviewProposal(ctx.ledger, org.seq, refund.id, 'approve', L.deskActor());
    expect(await lines(id)).toEqual([
      ['category', '5100', -120],
      ['category', '5200', 20],
    ]);
  });
});

describe('transfers by their direction', () => {
  it('names money in "Transfer from" the other account in the general ledger', async () => {
    const out = await add('-250', 'CARD PAYMENT');
    const thanks = (await desk<L.HandRow>('addTransaction', { account: 'Card', date: '2026-03-03', amount: '250', description: 'PAYMENT THANK YOU' })).id;
    await desk('matchTransfer', { id: out, other: thanks });
    const bank = await desk<L.GeneralLedger>('generalLedger', { account: 'Bank', to: '2026-12-31' });
    const card = await desk<L.GeneralLedger>('generalLedger', { account: 'Card', to: '2026-12-31' });
    expect(bank.data.find((p) => p.transactionId === out)!.other).toBe('Transfer to Card');
    expect(card.data.find((p) => p.transactionId === thanks)!.other).toBe('Transfer from Bank');
  });
});
