// The agent API on double-entry books: a transaction's lines (an additive
// field of get_transaction), a categorization proposal carrying a split
// (approved as one), v1 shapes unchanged for a split row, and the closing
// date refusing proposals with 409 period_locked, over real HTTP.
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { operations } from '../src/main/api/registry';
import { openApiDocument } from '../src/main/api/openapi';
import { call, world, type World } from './support/env';
import { expectTotalsMatchRows } from './support/aggregates';

let w: World;
let org: L.Organization;
let token: string;
let store: L.HandRow;
const api = (method: string, path: string, body?: unknown) => call(w.base, method, path, { token, body });
const byId = (id: string) => operations.find((o) => o.operationId === id)!;

beforeAll(async () => {
  w = await world(20);
  org = await L.createOrganization(w.ledger, { slug: 'books' });
  token = (await L.createToken(w.ledger, org.seq, { name: 'bot', scopes: ['read', 'propose-write'] })).token;
  await L.createAccount(w.ledger, org.seq, L.deskActor(), { name: 'Bank', type: 'checking' });
  store = await L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-02-10', description: 'HARDWARE STORE', amount: -100 });
});

describe('splits by proposal', () => {
  it('refuses lines that do not add up to the amount, naming the field', async () => {
    const res = await api('POST', '/proposals/categorization', {
      transactionId: store.id,
      lines: [
        { categoryCode: '5100', amount: -60 },
        { categoryCode: '5200', amount: -30 },
      ],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'validation_failed', details: [{ field: 'lines', message: expect.stringContaining('10.00 USD left to assign') }] });
    const both = await api('POST', '/proposals/categorization', { transactionId: store.id, categoryCode: '5100', lines: [] });
    expect(both.status).toBe(400);
  });

  it('approves a split as one: the row shows its largest line, status matched, and get_transaction carries the lines', async () => {
    const res = await api('POST', '/proposals/categorization', {
      transactionId: store.id,
      lines: [
        { categoryCode: '5100', amount: -60, memo: 'paint' },
        { categoryCode: '5200', amount: -40 },
      ],
      confidence: 0.9,
    });
    expect(res.status, res.text).toBe(201);
    await L.reviewProposal(w.ledger, org.seq, res.json.data.id, 'approve', L.deskActor());
    const list = await api('GET', '/transactions?limit=5');
    byId('list_transactions').output.parse(list.json);
    expect(list.json.data[0]).toMatchObject({ id: store.id, category: 'Software & tools', status: 'matched' });
    const one = await api('GET', `/transactions/${store.id}`);
    byId('get_transaction').output.parse(one.json);
    expect(one.json.data.lines).toEqual([
      { kind: 'category', categoryCode: '5100', accountId: null, counterpartId: null, amount: -60, memo: 'paint' },
      { kind: 'category', categoryCode: '5200', accountId: null, counterpartId: null, amount: -40, memo: null },
    ]);
    await expectTotalsMatchRows(w.ledger);
  });
});

describe('split amounts as parts of the row (issue 42)', () => {
  it('reads positive parts as the v1 form is read, refuses lines that add up only with a refund guessed, and answers shares in the row sign', async () => {
    const row = await L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-02-11', description: 'MONITOR SHOP', amount: -389.98 });
    const guessed = await api('POST', '/proposals/categorization', {
      transactionId: row.id,
      lines: [
        { categoryCode: '5100', amount: 329.99 },
        { categoryCode: '5200', amount: -719.97 },
      ],
    });
    expect(guessed.status, guessed.text).toBe(400);
    expect(guessed.json.error).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'lines', message: expect.stringContaining('only if line 1 (329.99 USD) is a refund inside it') }],
    });
    const parts = await api('POST', '/proposals/categorization', {
      transactionId: row.id,
      lines: [
        { categoryCode: '5100', amount: 329.99, memo: 'monitor' },
        { categoryCode: '5200', amount: 59.99 },
      ],
    });
    expect(parts.status, parts.text).toBe(201);
    expect(parts.json.data.payload.lines.map((l: { amount: number }) => l.amount)).toEqual([-329.99, -59.99]);
    const v1 = await api('POST', '/proposals/categorization', {
      transactionId: row.id,
      lines: [
        { categoryCode: '5100', amount: -329.99, memo: 'monitor' },
        { categoryCode: '5200', amount: -59.99 },
      ],
    });
    expect(v1.json.data.id).toBe(parts.json.data.id);
    await L.reviewProposal(w.ledger, org.seq, parts.json.data.id, 'approve', L.deskActor());
    const one = await api('GET', `/transactions/${row.id}`);
    expect(one.json.data.lines.map((l: { amount: number }) => l.amount)).toEqual([-329.99, -59.99]);
  });
});

describe('a closing date', () => {
  it('refuses a proposal for a row or a date in the closed period with 409 period_locked, and an approval after the lock', async () => {
    const open = await L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-03-05', description: 'CLOUD', amount: -20 });
    const pending = await api('POST', '/proposals/categorization', { transactionId: open.id, categoryCode: '5300' });
    expect(pending.status).toBe(201);
    await L.lockPeriod(w.ledger, org.seq, L.deskActor(), '2026-03-31', 'Q1 filed');
    const row = await api('POST', '/proposals/categorization', { transactionId: store.id, categoryCode: '5000' });
    expect(row.status, row.text).toBe(409);
    expect(row.json.error).toMatchObject({ code: 'period_locked', details: { date: '2026-02-10', lockedThrough: '2026-03-31' } });
    const entry = await api('POST', '/proposals/journal-entry', { date: '2026-01-31', description: 'Accrual', amount: -5, categoryCode: '5000' });
    expect(entry.status).toBe(409);
    expect(entry.json.error.code).toBe('period_locked');
    await expect(L.reviewProposal(w.ledger, org.seq, pending.json.data.id, 'approve', L.deskActor())).rejects.toThrow(expect.objectContaining({ code: 'period_locked' }));
    const later = await api('POST', '/proposals/journal-entry', { date: '2026-04-01', description: 'Accrual', amount: -5, categoryCode: '5000' });
    expect(later.status, later.text).toBe(201);
  });

  it('documents 409 period_locked on the proposals that can meet it, a filed return named', () => {
    for (const id of ['propose_categorization', 'propose_journal_entry']) expect(byId(id).errors).toContain('period_locked');
    const doc = openApiDocument() as any;
    expect(doc.paths['/proposals/categorization'].post.responses['409'].description).toContain('or a filed tax return took the row');
  });
});

describe('tax codes for agents', () => {
  it("lists each category's default code, proposes a code, and the approval posts net and tax", async () => {
    await L.setupTaxSet(w.ledger, org.seq, L.deskActor(), 'uk-vat');
    await L.setCategoryTax(w.ledger, org.seq, L.deskActor(), '5200', 'S');
    const cats = await api('GET', '/categories');
    byId('list_categories').output.parse(cats.json);
    expect(cats.json.data.find((c: L.Category) => c.code === '5200').taxCode).toBe('S');
    expect(cats.json.data.find((c: L.Category) => c.code === '5100').taxCode).toBeNull();
    const row = await L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-05-02', description: 'REDUCED RATE FUEL', amount: -105 });
    const bad = await api('POST', '/proposals/categorization', { transactionId: row.id, categoryCode: '5000', taxCode: 'NOPE' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details).toEqual([{ field: 'taxCode', message: expect.stringContaining('"NOPE" is not a tax code') }]);
    const made = await api('POST', '/proposals/categorization', { transactionId: row.id, categoryCode: '5000', taxCode: 'r' });
    expect(made.status, made.text).toBe(201);
    expect(made.json.data.payload).toMatchObject({ categoryCode: '5000', taxCode: 'R' });
    const { reviewItems } = await import('../src/main/desk/proposals/review-queue');
    const card = (await reviewItems(w.ledger, org.seq, 'pending')).find((i) => i.id === made.json.data.id)!;
    expect(card.change.tax).toEqual({ code: 'R', net: -100, tax: -5 });
    await L.reviewProposal(w.ledger, org.seq, made.json.data.id, 'approve', L.deskActor());
    const one = await api('GET', `/transactions/${row.id}`);
    byId('get_transaction').output.parse(one.json);
    expect(one.json.data.lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
      ['category', -100],
      ['tax', -5],
    ]);
    // Without a code, the category's default: 5200 is standard rated.
    const other = await L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-05-03', description: 'DESK', amount: -240 });
    const byDefault = await api('POST', '/proposals/categorization', { transactionId: other.id, categoryCode: '5200' });
    await L.reviewProposal(w.ledger, org.seq, byDefault.json.data.id, 'approve', L.deskActor());
    expect((await L.getTransaction(w.ledger, org.seq, other.id)).lines.map((l) => l.amount)).toEqual([-200, -40]);
    await expectTotalsMatchRows(w.ledger);
  });
});

describe('a filed tax return', () => {
  it('refuses at proposal time, over REST and MCP, a categorization of a row whose tax the return took; notes, receipts and untaxed rows stay open', async () => {
    // The rows taxed in May (the tax codes' test above) go into the return for the quarter.
    const filed = await L.fileTaxReturn(w.ledger, org.seq, L.deskActor(), { from: '2026-04-01', to: '2026-06-30' });
    const fuel = (await L.listTransactions(w.ledger, org.seq, { description: 'REDUCED RATE FUEL', limit: 1, offset: 0 })).data[0];
    const refused = { code: 'period_locked', details: { date: '2026-05-02', taxReturn: filed.id, from: '2026-04-01', to: '2026-06-30', filedAt: filed.filedAt } };
    const pending = async () => (await L.listPendingProposals(w.ledger, org.seq, { limit: 500, offset: 0 })).count;
    const before = await pending();
    for (const body of [
      { transactionId: fuel.id, categoryCode: '5300' },
      { transactionId: fuel.id, category: 'Cloud', taxCode: 'Z' },
      {
        transactionId: fuel.id,
        lines: [
          { categoryCode: '5000', amount: -100 },
          { categoryCode: '5300', amount: -5 },
        ],
      },
    ]) {
      const res = await api('POST', '/proposals/categorization', body);
      expect(res.status, res.text).toBe(409);
      expect(res.json.error).toMatchObject(refused);
      expect(res.json.error.message).toContain('filed in the return for 2026-04-01 to 2026-06-30');
    }
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const mcp = new Client({ name: 'ledgerdesk-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${w.server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const viaMcp = await mcp.callTool({ name: 'propose_categorization', arguments: { transactionId: fuel.id, categoryCode: '5300' } });
    expect(viaMcp.isError).toBe(true);
    expect(JSON.parse((viaMcp.content as { text: string }[])[0].text).error).toMatchObject(refused);
    await mcp.close();
    expect(await pending()).toBe(before);
    // A note changes no figure; a row dated in the filed quarter with no tax yet goes into the next return.
    expect((await api('POST', '/notes', { transactionId: fuel.id, content: 'fuel for the van' })).status).toBe(201);
    const late = await L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-06-20', description: 'LATE TAXI', amount: -30 });
    const open = await api('POST', '/proposals/categorization', { transactionId: late.id, categoryCode: '5000', taxCode: 'S' });
    expect(open.status, open.text).toBe(201);
    await L.reviewProposal(w.ledger, org.seq, open.json.data.id, 'approve', L.deskActor());
    expect((await L.taxReturn(w.ledger, org.seq, { from: '2026-07-01', to: '2026-09-30' })).lateLines).toBe(1);
  });
});
