// Agents and invoices (issue 29), over real HTTP: list_invoices and
// get_invoice (documented additions, not among the default tools), and a
// payment proposed as a v1 categorization whose evidence names the invoice:
// approved by a person, the row pays the invoice instead of booking revenue
// twice; the reversal makes it owed again.
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { operations } from '../src/main/api/registry';
import { call, world, type World } from './support/env';
import { expectTotalsMatchRows } from './support/aggregates';

let w: World;
let org: L.Organization;
let token: string;
const api = (method: string, path: string, body?: unknown) => call(w.base, method, path, { token, body });

beforeAll(async () => {
  w = await world(20);
  org = await L.createOrganization(w.ledger, { slug: 'invoicing' });
  token = (await L.createToken(w.ledger, org.seq, { name: 'bot', scopes: ['read', 'propose-write'] })).token;
  const me = L.deskActor();
  await L.createAccount(w.ledger, org.seq, me, { name: 'Bank', type: 'checking' });
  await L.addContact(w.ledger, org.seq, me, { name: 'Acme Corp', customer: true });
  await L.createDocument(
    w.ledger,
    org.seq,
    me,
    { contact: 'Acme Corp', date: '2026-04-01', lines: [{ description: 'Audit', quantity: 1, unitPrice: 900, categoryCode: '4000' }] },
    { kind: 'invoice', issue: true },
  );
});

describe('invoices for agents', () => {
  it('lists and reads invoices; they are not among the default tools', async () => {
    expect(operations.filter((o) => o.operationId.includes('invoice')).every((o) => !o.exposeByDefault && o.scope === 'read')).toBe(true);
    const list = await api('GET', '/invoices?status=sent');
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject({
      data: [{ number: 'INV-0001', status: 'sent', balance: 900, contact: { name: 'Acme Corp' } }],
      meta: { totalCount: 1, limit: 50, offset: 0 },
    });
    const one = await api('GET', '/invoices/inv-0001');
    expect(one.json.data).toMatchObject({ number: 'INV-0001', total: 900, lines: [{ description: 'Audit', categoryCode: '4000' }] });
    expect((await api('GET', '/invoices/INV-9999')).json.error.code).toBe('not_found');
    expect((await api('GET', '/invoices?kind=receipt')).status).toBe(400);
  });

  it('a categorization whose evidence names the invoice pays it when approved, and reverses', async () => {
    const row = await L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-04-20', amount: 900, description: 'ACME CORP PAYMENT' });
    const res = await api('POST', '/proposals/categorization', {
      transactionId: row.id,
      categoryCode: '4000',
      evidence: [{ type: 'keyword', value: 'INV-0001', detail: 'the remittance names invoice INV-0001' }],
    });
    expect(res.status, res.text).toBe(201);
    await L.reviewProposal(w.ledger, org.seq, res.json.data.id, 'approve', L.deskActor());
    expect((await api('GET', '/invoices/INV-0001')).json.data).toMatchObject({ status: 'paid', balance: 0, paid: 900 });
    expect((await L.profitAndLoss(w.ledger, org.seq, { from: '2026-04-01', to: '2026-04-30' })).revenue).toBe(900);
    const tx = (await api('GET', `/transactions/${row.id}`)).json.data;
    expect([tx.transaction.status, tx.transaction.category, tx.lines[0].kind]).toEqual(['matched', null, 'receivable']);
    await L.reverseProposal(w.ledger, org.seq, L.deskActor(), res.json.data.id, 'wrong row');
    expect((await api('GET', '/invoices/INV-0001')).json.data).toMatchObject({ status: 'sent', balance: 900 });
    await expectTotalsMatchRows(w.ledger);
  });
});
