// Proposals that respect what a person said (a rejected change stays
// rejected, an identical pending one is not stored twice) and writes that are
// safe to retry (Idempotency-Key), over real HTTP and the MCP SDK client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { KEEP_MS } from '../src/main/api/idempotency';
import { call, world, type World } from './support/env';

let w: World;
let rows: L.Transaction[];
const pending = async () => (await L.listPendingProposals(w.ledger, w.orgA.seq, { limit: 500, offset: 0 })).count;
const audits = async () => (await w.ledger.stmt("SELECT count(*) FROM audit_log WHERE action = 'proposal.created'").pluck().get()) as number;

beforeAll(async () => {
  w = await world(100);
  rows = (await L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 20, offset: 0 })).data;
});

describe('proposals that respect what a person said', () => {
  it('answers an identical pending proposal with 200 and that proposal, storing and auditing nothing new', async () => {
    const body = { transactionId: rows[0].id, categoryCode: '5300', confidence: 0.9, reason: 'Cloud bill' };
    const first = await call(w.base, 'POST', '/proposals/categorization', { token: w.tokenA, body });
    expect(first.status).toBe(201);
    const [count, logged] = [await pending(), await audits()];
    // Another reason and evidence, the same change: still the same proposal.
    const again = await call(w.base, 'POST', '/proposals/categorization', { token: w.tokenA, body: { ...body, reason: 'Again', evidence: [{ type: 'keyword', value: 'AWS' }] } });
    expect(again.status).toBe(200);
    expect(again.json.data.id).toBe(first.json.data.id);
    expect([await pending(), await audits()]).toEqual([count, logged]);
    // Another category for the same row is another change: both wait for the person.
    const other = await call(w.base, 'POST', '/proposals/categorization', { token: w.tokenA, body: { ...body, categoryCode: '5100' } });
    expect(other.status).toBe(201);
  });

  it('refuses a change a person rejected with 409 proposal_rejected, naming the proposal and the comment', async () => {
    const body = { transactionId: rows[1].id, content: 'Paid by the owner personally' };
    const made = await call(w.base, 'POST', '/notes', { token: w.tokenA, body });
    await L.reviewProposal(w.ledger, w.orgA.seq, made.json.data.id, 'reject', L.deskActor(), 'Company card, not personal');
    const again = await call(w.base, 'POST', '/notes', { token: w.tokenA, body });
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({
      code: 'proposal_rejected',
      details: { rejectedProposalId: made.json.data.id, comment: 'Company card, not personal', reviewedAt: expect.any(String) },
    });
    expect(again.json.error.message).toContain('"Company card, not personal"');
    // Another token of the organization is told the same: the person's no is the organization's.
    const writer = await call(w.base, 'POST', '/notes', { token: w.writeOnlyA, body });
    expect(writer.json.error.code).toBe('proposal_rejected');
  });

  it('says so over MCP too: the pending one with a line of explanation, the rejected one as an error result', async () => {
    const client = new Client({ name: 'respect-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${w.server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${w.tokenA}` } } }));
    const args = { transactionId: rows[2].id, categoryCode: '5000' };
    const first = (await client.callTool({ name: 'propose_categorization', arguments: args })) as any;
    const again = (await client.callTool({ name: 'propose_categorization', arguments: args })) as any;
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent.data.id).toBe(first.structuredContent.data.id);
    expect(again.content[1].text).toMatch(/already pending as proposal/);
    await L.reviewProposal(w.ledger, w.orgA.seq, first.structuredContent.data.id, 'reject', L.deskActor());
    const refused = (await client.callTool({ name: 'propose_categorization', arguments: args })) as any;
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0].text).error).toMatchObject({ code: 'proposal_rejected', details: { comment: null } });
    await client.close();
  });
});

describe('Idempotency-Key', () => {
  const post = (key: string, body: unknown, token = w.tokenA) => call(w.base, 'POST', '/proposals/journal-entry', { token, body, headers: { 'idempotency-key': key } });
  const entry = { date: '2026-02-03', description: 'Stamps', amount: -4.2 };

  it('replays the first answer (status, body, marked) and writes once', async () => {
    const first = await post('k-1', entry);
    const [count, logged] = [await pending(), await audits()];
    const again = await post('k-1', entry);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect([await pending(), await audits()]).toEqual([count, logged]);
  });

  it('refuses the key with another body (422), keeps keys per token, and forgets them after 24 hours', async () => {
    await post('k-2', { ...entry, description: 'Envelopes' });
    const other = await post('k-2', { ...entry, description: 'Paper' });
    expect(other.status).toBe(422);
    expect(other.json.error).toMatchObject({ code: 'idempotency_key_reused', details: { key: 'k-2' } });
    // Another token's k-2 is its own.
    expect((await post('k-2', { ...entry, description: 'Paper' }, w.writeOnlyA)).status).toBe(201);
    // A day and a bit later the key is free again.
    const old = new Date(Date.now() - KEEP_MS - 60_000).toISOString();
    await w.ledger.stmt("UPDATE idempotency_keys SET created_at = ? WHERE key = 'k-2'").run(old);
    expect((await post('k-2', { ...entry, description: 'Paper' })).status).toBe(200); // the same entry is pending already
  });

  it("keeps the operation's own refusal, not a malformed request, and says what a key may be", async () => {
    const ghost = { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a', content: 'x' };
    const missing = await call(w.base, 'POST', '/notes', { token: w.tokenA, body: ghost, headers: { 'idempotency-key': 'k-3' } });
    const replay = await call(w.base, 'POST', '/notes', { token: w.tokenA, body: ghost, headers: { 'idempotency-key': 'k-3' } });
    expect([missing.status, replay.status, replay.headers.get('idempotent-replayed')]).toEqual([404, 404, 'true']);
    const bad = await call(w.base, 'POST', '/notes', { token: w.tokenA, body: {}, headers: { 'idempotency-key': 'k-4' } });
    expect(bad.status).toBe(400);
    const fixed = await call(w.base, 'POST', '/notes', { token: w.tokenA, body: { transactionId: rows[3].id, content: 'ok' }, headers: { 'idempotency-key': 'k-4' } });
    expect(fixed.status).toBe(201);
    const spaced = await call(w.base, 'POST', '/notes', { token: w.tokenA, body: ghost, headers: { 'idempotency-key': 'has space' } });
    expect(spaced.json.error).toMatchObject({ code: 'validation_failed', details: [{ field: 'Idempotency-Key' }] });
  });
});

describe('categories as an agent names them', () => {
  const propose = (body: unknown) => call(w.base, 'POST', '/proposals/categorization', { token: w.tokenA, body });
  const some = async (sign: 1 | -1) => (await L.listTransactions(w.ledger, w.orgA.seq, { limit: 500, offset: 0 })).data.find((t) => Math.sign(t.amount) === sign)!;

  it('reads a free-text name with the money\'s sign: "Subscriptions" is revenue on an inflow, the expense on an outflow', async () => {
    const inflow = await propose({ transactionId: (await some(1)).id, category: 'Subscriptions' });
    expect(inflow.json.data.payload).toMatchObject({ categoryCode: '4010', category: 'SaaS subscriptions' });
    const outflow = await propose({ transactionId: (await some(-1)).id, category: 'Subscriptions' });
    expect(outflow.json.data.payload).toMatchObject({ categoryCode: '5100', category: 'Software & tools' });
    // A code is taken as it is, whatever the sign.
    const coded = await propose({ transactionId: (await some(1)).id, categoryCode: '5100' });
    expect(coded.json.data.payload.categoryCode).toBe('5100');
  });

  it('says what to send when a code comes as a number', async () => {
    const res = await propose({ transactionId: rows[5].id, categoryCode: 5300 });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([{ field: 'categoryCode', message: 'must be a string such as "5300" (a code from list_categories), not a number' }]);
  });
});

describe('an ambiguous name', () => {
  it('is refused with both candidates named when two categories of the fitting type contain it', async () => {
    await L.addCategory(w.ledger, w.orgA.seq, L.deskActor(), { code: '4020', name: 'Consulting subscriptions', type: 'revenue' });
    const inflow = (await L.listTransactions(w.ledger, w.orgA.seq, { limit: 500, offset: 0 })).data.find((t) => t.amount > 0)!;
    const res = await call(w.base, 'POST', '/proposals/categorization', { token: w.tokenA, body: { transactionId: inflow.id, category: 'Subscriptions' } });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([
      { field: 'category', message: '"Subscriptions" on an inflow could be 4010 SaaS subscriptions, 4020 Consulting subscriptions; send categoryCode' },
    ]);
  });
});
