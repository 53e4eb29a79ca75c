// The agent API on double-entry books: a transaction's lines (an additive
// field of get_transaction), a categorization proposal carrying a split
// (approved as one), v1 shapes unchanged for a split row, and the closing
// date refusing proposals with 409 period_locked, over real HTTP.
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { operations } from '../src/main/api/registry';
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
  org = L.createOrganization(w.ledger, { slug: 'books' });
  token = L.createToken(w.ledger, org.seq, { name: 'bot', scopes: ['read', 'propose-write'] }).token;
  L.createAccount(w.ledger, org.seq, L.deskActor(), { name: 'Bank', type: 'checking' });
  store = L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-02-10', description: 'HARDWARE STORE', amount: -100 });
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
    L.reviewProposal(w.ledger, org.seq, res.json.data.id, 'approve', L.deskActor());
    const list = await api('GET', '/transactions?limit=5');
    byId('list_transactions').output.parse(list.json);
    expect(list.json.data[0]).toMatchObject({ id: store.id, category: 'Software & tools', status: 'matched' });
    const one = await api('GET', `/transactions/${store.id}`);
    byId('get_transaction').output.parse(one.json);
    expect(one.json.data.lines).toEqual([
      { kind: 'category', categoryCode: '5100', accountId: null, counterpartId: null, amount: -60, memo: 'paint' },
      { kind: 'category', categoryCode: '5200', accountId: null, counterpartId: null, amount: -40, memo: null },
    ]);
    expectTotalsMatchRows(w.ledger);
  });
});

describe('a closing date', () => {
  it('refuses a proposal for a row or a date in the closed period with 409 period_locked, and an approval after the lock', async () => {
    const open = L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-03-05', description: 'CLOUD', amount: -20 });
    const pending = await api('POST', '/proposals/categorization', { transactionId: open.id, categoryCode: '5300' });
    expect(pending.status).toBe(201);
    L.lockPeriod(w.ledger, org.seq, L.deskActor(), '2026-03-31', 'Q1 filed');
    const row = await api('POST', '/proposals/categorization', { transactionId: store.id, categoryCode: '5000' });
    expect(row.status, row.text).toBe(409);
    expect(row.json.error).toMatchObject({ code: 'period_locked', details: { date: '2026-02-10', lockedThrough: '2026-03-31' } });
    const entry = await api('POST', '/proposals/journal-entry', { date: '2026-01-31', description: 'Accrual', amount: -5, categoryCode: '5000' });
    expect(entry.status).toBe(409);
    expect(entry.json.error.code).toBe('period_locked');
    expect(() => L.reviewProposal(w.ledger, org.seq, pending.json.data.id, 'approve', L.deskActor())).toThrow(expect.objectContaining({ code: 'period_locked' }));
    const later = await api('POST', '/proposals/journal-entry', { date: '2026-04-01', description: 'Accrual', amount: -5, categoryCode: '5000' });
    expect(later.status, later.text).toBe(201);
  });

  it('documents 409 period_locked on the proposals that can meet it', () => {
    for (const id of ['propose_categorization', 'propose_journal_entry']) expect(byId(id).errors).toContain('period_locked');
  });
});

describe('tax codes for agents', () => {
  it("lists each category's default code, proposes a code, and the approval posts net and tax", async () => {
    L.setupTaxSet(w.ledger, org.seq, L.deskActor(), 'uk-vat');
    L.setCategoryTax(w.ledger, org.seq, L.deskActor(), '5200', 'S');
    const cats = await api('GET', '/categories');
    byId('list_categories').output.parse(cats.json);
    expect(cats.json.data.find((c: L.Category) => c.code === '5200').taxCode).toBe('S');
    expect(cats.json.data.find((c: L.Category) => c.code === '5100').taxCode).toBeNull();
    const row = L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-05-02', description: 'REDUCED RATE FUEL', amount: -105 });
    const bad = await api('POST', '/proposals/categorization', { transactionId: row.id, categoryCode: '5000', taxCode: 'NOPE' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details).toEqual([{ field: 'taxCode', message: expect.stringContaining('"NOPE" is not a tax code') }]);
    const made = await api('POST', '/proposals/categorization', { transactionId: row.id, categoryCode: '5000', taxCode: 'r' });
    expect(made.status, made.text).toBe(201);
    expect(made.json.data.payload).toMatchObject({ categoryCode: '5000', taxCode: 'R' });
    const { reviewItems } = await import('../src/main/desk/proposals/review-queue');
    const card = reviewItems(w.ledger, org.seq, 'pending').find((i) => i.id === made.json.data.id)!;
    expect(card.change.tax).toEqual({ code: 'R', net: -100, tax: -5 });
    L.reviewProposal(w.ledger, org.seq, made.json.data.id, 'approve', L.deskActor());
    const one = await api('GET', `/transactions/${row.id}`);
    byId('get_transaction').output.parse(one.json);
    expect(one.json.data.lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
      ['category', -100],
      ['tax', -5],
    ]);
    // Without a code, the category's default: 5200 is standard rated.
    const other = L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-05-03', description: 'DESK', amount: -240 });
    const byDefault = await api('POST', '/proposals/categorization', { transactionId: other.id, categoryCode: '5200' });
    L.reviewProposal(w.ledger, org.seq, byDefault.json.data.id, 'approve', L.deskActor());
    expect(L.getTransaction(w.ledger, org.seq, other.id).lines.map((l) => l.amount)).toEqual([-200, -40]);
    expectTotalsMatchRows(w.ledger);
  });
});
