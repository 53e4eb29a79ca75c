// An agent's journal entry with lines (issue 43, an additive extension of
// propose_journal_entry): over REST and through the official MCP SDK client,
// checked when proposed (balanced with its tax, its amount the debits), one
// journal when a person approves it, reversed on its own date when the
// approval is reversed; without lines it stays exactly as v1.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { reviewItems } from '../src/main/desk/proposals/review-queue';
import { expectTotalsMatchRows } from './support/aggregates';
import { call, world, type World } from './support/env';

let w: World;
const me = L.deskActor();
const propose = (body: unknown) => call(w.base, 'POST', '/proposals/journal-entry', { token: w.tokenA, body });
const accrual = {
  date: '2026-03-31',
  description: 'Accrued audit fee',
  amount: 600,
  lines: [
    { categoryCode: '5000', amount: 500, taxCode: 'S', memo: 'Audit, March' },
    { categoryCode: '2300', amount: -600 },
  ],
  confidence: 0.8,
  reason: 'The engagement letter says 500 a month',
};

beforeAll(async () => {
  w = await world(50);
  await L.setupTaxSet(w.ledger, w.orgA.seq, me, 'uk-vat');
  await L.addCategory(w.ledger, w.orgA.seq, me, { code: '2300', name: 'Accruals', type: 'liability' });
});

describe('propose_journal_entry with lines', () => {
  it('is checked when proposed: balanced with its tax, amount its debits, lines or a category', async () => {
    const short = await propose({ ...accrual, lines: [accrual.lines[0], { categoryCode: '2300', amount: -500 }] });
    expect(short.status).toBe(400);
    expect(short.json.error.details).toEqual([{ field: 'lines', message: expect.stringContaining('differ by 100.00 USD') }]);
    const total = await propose({ ...accrual, amount: 500 });
    expect(total.json.error.details).toEqual([{ field: 'amount', message: expect.stringContaining('600.00') }]);
    const both = await propose({ ...accrual, categoryCode: '5000' });
    expect(both.json.error.details).toEqual([{ field: 'lines', message: 'send lines or one category, not both' }]);
    const owed = await propose({
      ...accrual,
      lines: [
        { account: 'receivables', amount: 600 },
        { categoryCode: '4000', amount: -600 },
      ],
    });
    expect(owed.json.error.details[0]).toMatchObject({ field: 'lines[0].account' });
  });

  it('is one journal when approved, reversed on its own date when the approval is reversed', async () => {
    const made = await propose(accrual);
    expect(made.status).toBe(201);
    expect(made.json.data.payload.lines).toEqual([
      { account: 'category:5000', name: '5000 Operating expenses', amount: 500, taxCode: 'S', memo: 'Audit, March' },
      { account: 'category:2300', name: '2300 Accruals', amount: -600, taxCode: null, memo: null },
    ]);
    // The Approvals card shows the journal approval would enter, its tax worked out.
    const card = (await reviewItems(w.ledger, w.orgA.seq, 'pending')).find((i) => i.id === made.json.data.id)!;
    expect(card.change).toMatchObject({ lead: 'New journal', account: null });
    expect(card.change.journal!.lines.map((l) => [l.account, l.debit, l.credit])).toEqual([
      ['Operating expenses', 500, 0],
      ['Sales tax control', 100, 0],
      ['Accruals', 0, 600],
    ]);
    const approved = await L.reviewProposal(w.ledger, w.orgA.seq, made.json.data.id, 'approve', me);
    expect(approved.status).toBe('approved');
    const [journal] = (await L.listJournals(w.ledger, w.orgA.seq, { limit: 5, offset: 0 })).data;
    expect(journal).toMatchObject({ date: '2026-03-31', narration: 'Accrued audit fee', total: 600 });
    const shown = await L.toJournal(w.ledger, await L.requireJournal(w.ledger, w.orgA.seq, journal.number));
    expect(shown.lines.map((l) => [l.name, l.amount])).toEqual([
      ['Operating expenses', 500],
      ['Sales tax control', 100],
      ['Accruals', -600],
    ]);
    expect((await L.taxReturn(w.ledger, w.orgA.seq, { from: '2026-01-01', to: '2026-03-31' })).boxes['4']).toBe(100);
    await L.reverseProposal(w.ledger, w.orgA.seq, me, made.json.data.id, 'wrong month');
    const after = (await L.listJournals(w.ledger, w.orgA.seq, { limit: 5, offset: 0 })).data;
    expect(after[0]).toMatchObject({ date: '2026-03-31', reverses: journal.number });
    expect((await L.taxReturn(w.ledger, w.orgA.seq, { from: '2026-01-01', to: '2026-03-31' })).boxes['4']).toBe(0);
    const accruals = await L.generalLedger(w.ledger, w.orgA.seq, { account: '2300', limit: 10, offset: 0 });
    expect([accruals.meta.totalCount, accruals.endingBalance]).toEqual([2, 0]);
    await expectTotalsMatchRows(w.ledger);
  });

  it("refuses to categorize a manual journal's row when it is proposed, not at approval", async () => {
    const account = (await L.listAccounts(w.ledger, w.orgA.seq))[0].name;
    const j = await L.addJournal(w.ledger, w.orgA.seq, me, {
      date: '2026-05-01',
      narration: 'Loan in',
      lines: [
        { account, amount: 1000 },
        { account: '2300', amount: -1000 },
      ],
    });
    const r = await call(w.base, 'POST', '/proposals/categorization', { token: w.tokenA, body: { transactionId: j.lines[0].transactionId, categoryCode: '4000' } });
    expect([r.status, r.json.error.code, r.json.error.details]).toEqual([409, 'conflict', { reason: 'journal', journal: j.number }]);
  });

  it('through the MCP tool, the same; without lines, v1 as it was (a new row)', async () => {
    const client = new Client({ name: 'ledgerdesk-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${w.server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${w.tokenA}` } } }));
    const result = await client.callTool({ name: 'propose_journal_entry', arguments: { ...accrual, date: '2026-04-30', description: 'Accrued audit fee, April' } });
    expect(result.isError).not.toBe(true);
    const proposal = (result.structuredContent as { data: L.Proposal }).data;
    expect(proposal).toMatchObject({ type: 'journal_entry', status: 'pending', payload: { lines: expect.any(Array) } });
    const v1 = await propose({ date: '2026-04-30', description: 'Bank fee', amount: -3.5 });
    expect(v1.json.data.payload).toEqual({ date: '2026-04-30', description: 'Bank fee', amount: -3.5, currency: 'USD', categoryCode: null, category: null, source: 'manual_csv' });
    await L.reviewProposal(w.ledger, w.orgA.seq, proposal.id, 'approve', me);
    expect((await L.listJournals(w.ledger, w.orgA.seq, { dateFrom: '2026-04-30', dateTo: '2026-04-30', limit: 5, offset: 0 })).meta.totalCount).toBe(1);
    await client.close();
  });
});
