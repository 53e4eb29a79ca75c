// Every operation of /api/v1 over real HTTP on port 0, with its error cases.
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { operations } from '../src/main/api/registry';
import { call, rawRequest, world, type World } from './support/env';

let w: World;
let txA: L.Transaction;
let receiptA: L.Receipt;
const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) => call(w.base, method, path, options);
const byId = (id: string) => operations.find((o) => o.operationId === id)!;

beforeAll(async () => {
  w = await world(400);
  txA = (await L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 1, offset: 0 })).data[0];
  receiptA = (await L.searchReceipts(w.ledger, w.orgA.seq, 'invoice'))[0];
});

function expectError(res: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(Object.keys(res.json.error)).toEqual(['code', 'message', 'details']);
  expect(res.json.error.code).toBe(code);
  expect(res.json.error.message).toEqual(expect.any(String));
  expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
  return res.json.error;
}

describe('reads', () => {
  it('lists a reconciled row that was never categorized as uncategorized, where agents look for work', async () => {
    const org = await L.createOrganization(w.ledger, { slug: 'reconciled-first' });
    const { token } = await L.createToken(w.ledger, org.seq, { name: 'bot', scopes: ['read'] });
    await L.createAccount(w.ledger, org.seq, L.deskActor(), { name: 'Bank', type: 'checking' });
    const row = await L.addTransaction(w.ledger, org.seq, L.deskActor(), { account: 'Bank', date: '2026-03-02', description: 'BANK FEE', amount: -15 });
    await L.reconcileAccount(w.ledger, org.seq, L.deskActor(), { account: 'Bank', statementDate: '2026-03-31', statementBalance: -15, clearThrough: '2026-03-31' });
    for (const query of ['status=uncategorized', 'category=__uncategorized__']) {
      const res = await api('GET', `/transactions?${query}`, { token });
      expect(res.json.data.map((t: L.Transaction) => [t.id, t.status])).toEqual([[row.id, 'uncategorized']]);
    }
    expect((await api('GET', '/transactions?status=reconciled', { token })).json.meta.totalCount).toBe(0);
    expect((await api('GET', '/dashboard/summary', { token })).json.data).toMatchObject({ uncategorized: 1, pendingReview: 1 });
  });

  it('lists transactions with the {data, meta} envelope and exact fields', async () => {
    const res = await api('GET', '/transactions?status=uncategorized&limit=3', { token: w.tokenA });
    expect(res.status).toBe(200);
    byId('list_transactions').output.parse(res.json);
    expect(Object.keys(res.json.data[0])).toEqual([
      'id',
      'date',
      'amount',
      'currency',
      'description',
      'category',
      'status',
      'source',
      'externalId',
      'suggestedBy',
      'confidence',
      'reason',
    ]);
    expect(res.json.meta).toEqual({
      totalCount: (await L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 1, offset: 0 })).meta.totalCount,
      limit: 3,
      offset: 0,
    });
    expect(res.json.data.every((t: L.Transaction) => t.status === 'uncategorized')).toBe(true);
  });

  it('applies every filter the same as the ledger', async () => {
    const qs = 'source=bankfeed&dateFrom=2024-01-01&dateTo=2024-12-31&description=aws&category=__uncategorized__&limit=20&offset=2';
    const res = await api('GET', `/transactions?${qs}`, { token: w.tokenA });
    const expected = await L.listTransactions(w.ledger, w.orgA.seq, {
      source: 'bankfeed',
      dateFrom: '2024-01-01',
      dateTo: '2024-12-31',
      description: 'aws',
      category: '__uncategorized__',
      limit: 20,
      offset: 2,
    });
    expect(res.json).toEqual(expected);
    expect(expected.meta.totalCount).toBeGreaterThan(2);
    const exact = await api('GET', `/transactions?date=${txA.date}&limit=500`, { token: w.tokenA });
    expect(exact.json.data.length).toBeGreaterThan(0);
    expect(exact.json.data.every((t: L.Transaction) => t.date === txA.date)).toBe(true);
  });

  it('gets a transaction with notes and receipts, a receipt, categories, connectors, dashboard', async () => {
    const detail = await api('GET', `/transactions/${txA.id}`, { token: w.tokenA });
    expect(detail.status).toBe(200);
    expect(detail.json).toEqual({ data: await L.getTransaction(w.ledger, w.orgA.seq, txA.id) });
    expect((await api('GET', `/receipts/${receiptA.id}`, { token: w.tokenA })).json).toEqual({ data: receiptA });
    const cats = await api('GET', '/categories', { token: w.tokenA });
    byId('list_categories').output.parse(cats.json);
    expect(cats.json.data.find((c: L.Category) => c.code === '5300')).toMatchObject({ name: 'Cloud infrastructure', inUse: true });
    const conns = await api('GET', '/connectors', { token: w.tokenA });
    byId('list_connectors').output.parse(conns.json);
    // The demo's three accounts, as the spec's Connector shape exactly.
    expect(conns.json.data).toEqual(
      (await L.listAccounts(w.ledger, w.orgA.seq)).map((a) => ({ id: a.id, name: a.name, provider: 'file_import', status: 'active', lastSyncAt: null, syncStatus: null })),
    );
    const dash = await api('GET', '/dashboard/summary', { token: w.tokenA });
    byId('get_dashboard_summary').output.parse(dash.json);
    expect(Object.keys(dash.json.data)).toEqual([
      'currency',
      'revenue',
      'expenses',
      'cashPosition',
      'pendingReview',
      'missingReceipts',
      'uncategorized',
      'agentSuggested',
      'recentTransactions',
      'monthlyTrend',
      'notifications',
    ]);
  });

  it('searches receipts by OCR text and file name, at most 50', async () => {
    const res = await api('GET', '/receipts/search?q=invoice', { token: w.tokenA });
    expect(res.status).toBe(200);
    expect(res.json.meta).toEqual({ count: res.json.data.length, limit: 50 });
    expect(res.json.data.length).toBeLessThanOrEqual(50);
    const byName = await api('GET', `/receipts/search?q=${encodeURIComponent(receiptA.fileName.slice(0, 10))}`, { token: w.tokenA });
    expect(byName.json.data.map((r: L.Receipt) => r.id)).toContain(receiptA.id);
    expectError(await api('GET', '/receipts/search', { token: w.tokenA }), 400, 'validation_failed');
    expectError(await api('GET', '/receipts/search?q=', { token: w.tokenA }), 400, 'validation_failed');
  });

  it('lists notes of an existing transaction only', async () => {
    const res = await api('GET', `/notes?transactionId=${txA.id}`, { token: w.tokenA });
    expect(res.json).toEqual({ data: (await L.getTransaction(w.ledger, w.orgA.seq, txA.id)).notes });
    const missing = expectError(await api('GET', '/notes', { token: w.tokenA }), 400, 'validation_failed');
    expect(missing.details).toEqual([{ field: 'transactionId', message: 'is required' }]);
    expectError(await api('GET', '/notes?transactionId=6f1c2d8e-1111-4aaa-8bbb-123456789abc', { token: w.tokenA }), 404, 'not_found');
  });

  it('serves the public ontology as JSON-LD without a token', async () => {
    const doc = await api('GET', '/ontology.jsonld');
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    const graph = doc.json['@graph'] as { code?: string; synonyms?: string[]; defaultCode?: string }[];
    expect(graph.find((n) => n.code === '5100')?.synonyms).toEqual(['Software', 'SaaS', 'Subscriptions']);
    expect(
      graph
        .filter((n) => n.defaultCode)
        .map((n) => n.defaultCode)
        .sort(),
    ).toEqual(['4000', '5100', '5100', '5200', '5300']);
    const ctx = await api('GET', '/ontology/context.jsonld');
    expect(ctx.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    expect(Object.keys(ctx.json)).toEqual(['@context']);
  });
});

describe('proposals over HTTP', () => {
  it('creates the four kinds as pending 201s and leaves the ledger unchanged', async () => {
    const before = await L.getTransaction(w.ledger, w.orgA.seq, txA.id);
    const cat = await api('POST', '/proposals/categorization', {
      token: w.tokenA,
      body: {
        transactionId: txA.id,
        categoryCode: '5300',
        confidence: 0.93,
        reason: 'AWS is cloud',
        evidence: [{ type: 'counterparty_match', value: 'AWS', detail: 'ontology alias' }],
      },
    });
    expect(cat.status).toBe(201);
    expect(cat.json.data).toMatchObject({ type: 'categorization', status: 'pending', proposedBy: `mcp:${w.tokenAId}`, confidence: 0.93, reason: 'AWS is cloud' });
    const je = await api('POST', '/proposals/journal-entry', { token: w.tokenA, body: { date: '2026-02-01', description: 'Bank fee', amount: -3.5 } });
    expect(je.status).toBe(201);
    expect(je.json.data.payload).toEqual({ date: '2026-02-01', description: 'Bank fee', amount: -3.5, currency: 'USD', categoryCode: null, category: null, source: 'manual_csv' });
    const link = await api('POST', '/proposals/receipt-link', { token: w.tokenA, body: { transactionId: txA.id, receiptId: receiptA.id, confidence: 0.5 } });
    expect(link.status).toBe(201);
    const note = await api('POST', '/notes', { token: w.tokenA, body: { transactionId: txA.id, content: 'Looks like the March invoice' } });
    expect(note.status).toBe(201);
    expect(note.json.data.type).toBe('note');
    for (const [r, id] of [
      [cat, 'propose_categorization'],
      [je, 'propose_journal_entry'],
      [link, 'propose_receipt_link'],
      [note, 'attach_note'],
    ] as const)
      byId(id).output.parse(r.json);
    expect(await L.getTransaction(w.ledger, w.orgA.seq, txA.id)).toEqual(before);
    const pending = await api('GET', '/proposals', { token: w.tokenA });
    expect(pending.json.meta.count).toBe(pending.json.data.length);
    const ids = pending.json.data.map((p: L.Proposal) => p.id);
    expect(ids.slice(0, 4)).toEqual([note, link, je, cat].map((r) => r.json.data.id)); // newest first
    // Pages of the backlog; meta.count stays the whole number pending.
    const second = await api('GET', '/proposals?limit=2&offset=2', { token: w.tokenA });
    expect(second.json).toEqual({ data: pending.json.data.slice(2, 4), meta: { count: ids.length } });
    expect((await api('GET', `/proposals/${cat.json.data.id}`, { token: w.tokenA })).json).toEqual(cat.json);
    const dash = await api('GET', '/dashboard/summary', { token: w.tokenA });
    expect(dash.json.data.agentSuggested).toBe(pending.json.meta.count);
  });

  it('reflects review effects made by the human side', async () => {
    const cat = await api('POST', '/proposals/categorization', { token: w.tokenA, body: { transactionId: txA.id, category: 'software', confidence: 0.7, reason: 'SaaS' } });
    await L.reviewProposal(w.ledger, w.orgA.seq, cat.json.data.id, 'approve', L.deskActor() as never);
    const after = await api('GET', `/transactions/${txA.id}`, { token: w.tokenA });
    expect(after.json.data.transaction).toMatchObject({ category: 'Software & tools', status: 'matched', suggestedBy: `mcp:${w.tokenAId}`, confidence: 0.7, reason: 'SaaS' });
    expect((await api('GET', `/proposals/${cat.json.data.id}`, { token: w.tokenA })).json.data.status).toBe('approved');
  });

  it('creates a note at once with PUT /notes and a Deprecation header', async () => {
    const res = await api('PUT', '/notes', { token: w.tokenA, body: { transactionId: txA.id, content: 'direct note' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(res.json.data).toMatchObject({ transactionId: txA.id, content: 'direct note', authorUserId: `mcp:${w.tokenAId}` });
    expect((await L.listNotes(w.ledger, w.orgA.seq, txA.id)).map((n) => n.content)).toContain('direct note');
    expect((await L.listAudit(w.ledger, w.orgA.seq, { action: 'note.created', limit: 5, offset: 0 })).entries[0].targetId).toBe(res.json.data.id);
  });

  it('answers 404 for a transaction or receipt that does not exist', async () => {
    const ghost = '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a';
    expectError(await api('POST', '/proposals/categorization', { token: w.tokenA, body: { transactionId: ghost, categoryCode: '5300' } }), 404, 'not_found');
    expectError(await api('POST', '/proposals/receipt-link', { token: w.tokenA, body: { transactionId: txA.id, receiptId: ghost } }), 404, 'not_found');
    expectError(await api('POST', '/notes', { token: w.tokenA, body: { transactionId: ghost, content: 'x' } }), 404, 'not_found');
    for (const path of ['/transactions/', '/receipts/', '/proposals/']) expectError(await api('GET', path + ghost, { token: w.tokenA }), 404, 'not_found');
  });
});

describe('strict input (400)', () => {
  const bad: [string, string, unknown, string[]][] = [
    ['GET', '/transactions?limit=0', undefined, ['limit']],
    ['GET', '/transactions?limit=501', undefined, ['limit']],
    ['GET', '/proposals?limit=0&offset=-1', undefined, ['limit', 'offset']],
    ['GET', '/transactions?limit=abc', undefined, ['limit']],
    ['GET', '/transactions?offset=-1', undefined, ['offset']],
    ['GET', '/transactions?status=bogus', undefined, ['status']],
    ['GET', '/transactions?source=bank', undefined, ['source']],
    ['GET', '/transactions?date=2024-13-45', undefined, ['date']],
    ['GET', '/transactions?dateFrom=2024-02-30', undefined, ['dateFrom']],
    ['GET', '/transactions?status=matched&status=reconciled', undefined, ['status']],
    ['GET', '/transactions?colour=red', undefined, ['colour']],
    ['GET', '/categories?x=1', undefined, ['x']],
    ['GET', '/transactions/not-a-uuid', undefined, ['id']],
    ['GET', '/transactions?description=%00', undefined, ['description']],
    ['GET', '/transactions?description=a%00b', undefined, ['description']],
    ['GET', '/transactions?category=Rent%0A', undefined, ['category']],
    ['GET', `/transactions?description=${'x'.repeat(201)}`, undefined, ['description']],
    ['GET', '/receipts/search?q=in%00voice', undefined, ['q']],
    ['GET', '/transactions?limit=0x10', undefined, ['limit']],
    ['GET', '/transactions?limit=0b11', undefined, ['limit']],
    ['GET', '/transactions?limit=1e2', undefined, ['limit']],
    ['GET', '/transactions?offset=%2010', undefined, ['offset']],
    ['GET', '/transactions/%zz', undefined, ['path']],
    ['POST', '/proposals/categorization', { transactionId: 'TX', categoryCode: '5300' }, ['transactionId']],
    ['POST', '/proposals/categorization', { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a' }, ['categoryCode']],
    ['POST', '/proposals/categorization', { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a', categoryCode: '5300', confidence: 1.5 }, ['confidence']],
    ['POST', '/proposals/categorization', { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a', categoryCode: '5300', organizationId: 'x' }, ['organizationId']],
    [
      'POST',
      '/proposals/categorization',
      { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a', categoryCode: '5300', evidence: Array(21).fill({ type: 'rule', value: 'r' }) },
      ['evidence'],
    ],
    [
      'POST',
      '/proposals/categorization',
      {
        transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a',
        categoryCode: '5300',
        evidence: [
          { type: 'hunch', value: 'v' },
          { type: 'rule', value: 'v', extra: 1 },
        ],
      },
      ['evidence[0].type', 'evidence[1].extra'],
    ],
    ['POST', '/proposals/journal-entry', { date: '2026/01/01', description: '', amount: 'ten', currency: 'US' }, ['date', 'description', 'amount', 'currency']],
    ['POST', '/proposals/journal-entry', { date: '2026-01-01', description: 'x', amount: 1.234 }, ['amount']],
    ['POST', '/proposals/journal-entry', { date: '2026-01-01', description: 'x', amount: 1, source: 'cash' }, ['source']],
    ['POST', '/proposals/journal-entry', { date: '2026-01-01', description: 'x', amount: 1e14 }, ['amount']],
    ['POST', '/proposals/journal-entry', { date: '2026-01-01', description: 'Coffee\u0000', amount: -3 }, ['description']],
    ['POST', '/notes', { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a', content: 'bell\u0007' }, ['content']],
    ['POST', '/proposals/receipt-link', { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a' }, ['receiptId']],
    ['POST', '/notes', { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a', content: '' }, ['content']],
    ['PUT', '/notes', { transactionId: '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a' }, ['content']],
    ['POST', '/notes', [1, 2], ['body']],
  ];
  it.each(bad)('%s %s %j is a 400 naming %j', async (method, path, body, fields) => {
    const error = expectError(await api(method, path, { token: w.tokenA, body }), 400, 'validation_failed');
    expect(error.details.map((d: { field: string }) => d.field)).toEqual(fields);
  });

  it('names the amount limit and what control characters are refused', async () => {
    const big = expectError(
      await api('POST', '/proposals/journal-entry', { token: w.tokenA, body: { date: '2026-01-01', description: 'x', amount: -1e14 } }),
      400,
      'validation_failed',
    );
    expect(big.details).toEqual([{ field: 'amount', message: 'must be less than 1,000,000,000,000 in absolute value' }]);
    const nul = expectError(await api('GET', '/transactions?description=a%00b', { token: w.tokenA }), 400, 'validation_failed');
    expect(nul.details[0].message).toMatch(/control characters/);
    // A note may span lines: line breaks and tabs are text, not control characters to refuse.
    expect((await api('POST', '/notes', { token: w.tokenA, body: { transactionId: txA.id, content: 'line one\n\tline two' } })).status).toBe(201);
  });

  it('takes ids in any case and answers them in lower case', async () => {
    const upper = txA.id.toUpperCase();
    const detail = await api('GET', `/transactions/${upper}`, { token: w.tokenA });
    expect(detail.status).toBe(200);
    expect(detail.json.data.transaction.id).toBe(txA.id);
    const notes = await api('GET', `/notes?transactionId=${upper}`, { token: w.tokenA });
    expect(notes.status).toBe(200);
    // The same change as one made earlier in this file: answered as already pending (200), found by the upper-case id.
    const proposal = await api('POST', '/proposals/categorization', { token: w.tokenA, body: { transactionId: upper, categoryCode: '5300' } });
    expect(proposal.status).toBe(200);
    expect(proposal.json.data.payload.transactionId).toBe(txA.id);
  });

  it('refuses an unknown category with details of what was not understood', async () => {
    const error = expectError(await api('POST', '/proposals/categorization', { token: w.tokenA, body: { transactionId: txA.id, category: 'Snacks' } }), 400, 'validation_failed');
    expect(error.details).toEqual([{ field: 'category', message: expect.stringContaining('"Snacks"') }]);
  });

  it('answers malformed JSON with 400, a non-JSON body with 415 and a body over 1 MiB with 413', async () => {
    expectError(await api('POST', '/notes', { token: w.tokenA, rawBody: '{"transactionId":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
    expectError(
      await api('POST', '/notes', { token: w.tokenA, rawBody: 'content=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'unsupported_media_type',
    );
    const huge = JSON.stringify({ transactionId: txA.id, content: 'x'.repeat(1024 * 1024) });
    expectError(await api('POST', '/notes', { token: w.tokenA, rawBody: huge, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
  });
});

describe('routing', () => {
  it('answers an unknown path with 404 and a wrong method with 405 and Allow', async () => {
    expectError(await api('GET', '/nope', { token: w.tokenA }), 404, 'not_found');
    const res = await api('DELETE', '/transactions', { token: w.tokenA });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await api('GET', '/proposals/categorization', { token: w.tokenA })).headers.get('allow')).toBe('POST');
    expect((await api('PATCH', '/notes', { token: w.tokenA })).headers.get('allow')).toBe('GET, HEAD, POST, PUT');
  });

  it('hands paths outside the agent API to the app behind the same guard', async () => {
    const outside = await rawRequest(`${w.server.url}/elsewhere?x=1`, {});
    expect(outside.status).toBe(404);
    expect(JSON.parse(outside.body).error).toMatchObject({ code: 'not_found', details: { path: '/elsewhere' } });
    expect(outside.headers['x-content-type-options']).toBe('nosniff');
    const foreign = await rawRequest(`${w.server.url}/elsewhere`, { headers: { host: 'evil.example' } });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.code).toBe('forbidden_host');
  });
});

describe('authentication and scopes', () => {
  it('answers 401 with WWW-Authenticate for missing, malformed, unknown, revoked and URL tokens', async () => {
    const forged = L.generateToken();
    const revoked = await L.createToken(w.ledger, w.orgA.seq, { name: 'old', scopes: ['read'] });
    await L.revokeToken(w.ledger, w.orgA.seq, revoked.info.id);
    const cases: [Parameters<typeof call>[3], string, string][] = [
      [{}, 'missing', '/transactions'],
      [{ token: 'ldk_live_short' }, 'malformed', '/transactions'],
      [{ headers: { authorization: `Basic ${w.tokenA}` } }, 'malformed', '/transactions'],
      [{ token: forged }, 'unknown', '/transactions'],
      [{ token: revoked.token }, 'revoked', '/transactions'],
      [{}, 'token_in_url', `/transactions?access_token=${w.tokenA}`],
    ];
    for (const [options, reason, path] of cases) {
      const res = await api('GET', path, options);
      expect(expectError(res, 401, 'unauthorized').details).toEqual({ reason });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="ledgerdesk"/);
    }
  });

  it('answers 403 for a missing scope: propose-write does not imply read', async () => {
    const res = await api('POST', '/notes', { token: w.readOnlyA, body: { transactionId: txA.id, content: 'x' } });
    expect(expectError(res, 403, 'insufficient_scope').details).toEqual({ required: 'propose-write', granted: ['read'] });
    expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
    expectError(await api('GET', '/transactions', { token: w.writeOnlyA }), 403, 'insufficient_scope');
    expect((await api('POST', '/notes', { token: w.writeOnlyA, body: { transactionId: txA.id, content: 'x' } })).status).toBe(201);
  });
});

const rawGet = (path: string, headers: Record<string, string>) => rawRequest(`${w.base}${path}`, { headers: { authorization: `Bearer ${w.tokenA}`, ...headers } });

describe('loopback guard', () => {
  it('refuses a foreign Host or Origin with 403 and accepts the loopback names', async () => {
    const port = w.server.port;
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`]) {
      const res = await rawGet('/transactions', { host });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('forbidden_host');
    }
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${port + 1}`]) {
      const res = await rawGet('/ontology.jsonld', { origin });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('forbidden_origin');
    }
    for (const host of [`localhost:${port}`, `[::1]:${port}`, `127.0.0.1:${port}`]) expect((await rawGet('/transactions?limit=1', { host })).status).toBe(200);
    expect((await rawGet('/transactions?limit=1', { origin: `http://localhost:${port}` })).status).toBe(200);
  });
});

describe('organization isolation', () => {
  it("gives a token of B 404 for every id of A and none of A's rows", async () => {
    const proposal = await L.proposeNote(
      w.ledger,
      w.orgA.seq,
      { type: 'token', tokenSeq: 1, tokenId: w.tokenAId, tokenName: 'A agent', channel: 'rest' },
      { transactionId: txA.id, content: 'A only' },
    );
    const idsA = new Set((await L.listTransactions(w.ledger, w.orgA.seq, { limit: 500, offset: 0 })).data.map((t) => t.id));
    for (const path of [`/transactions/${txA.id}`, `/receipts/${receiptA.id}`, `/proposals/${proposal.id}`, `/notes?transactionId=${txA.id}`]) {
      expectError(await api('GET', path, { token: w.tokenB }), 404, 'not_found');
    }
    expectError(await api('POST', '/proposals/categorization', { token: w.tokenB, body: { transactionId: txA.id, categoryCode: '5300' } }), 404, 'not_found');
    expectError(await api('POST', '/proposals/receipt-link', { token: w.tokenB, body: { transactionId: txA.id, receiptId: receiptA.id } }), 404, 'not_found');
    expectError(await api('PUT', '/notes', { token: w.tokenB, body: { transactionId: txA.id, content: 'x' } }), 404, 'not_found');
    const list = await api('GET', '/transactions?limit=500', { token: w.tokenB });
    expect(list.json.meta.totalCount).toBe(50);
    expect(list.json.data.some((t: L.Transaction) => idsA.has(t.id))).toBe(false);
    expect(list.json.data.every((t: L.Transaction) => t.currency === 'EUR')).toBe(true);
    expect((await api('GET', '/proposals', { token: w.tokenB })).json).toEqual({ data: [], meta: { count: 0 } });
    const search = await api('GET', '/receipts/search?q=invoice', { token: w.tokenB });
    expect(search.json.data.some((r: L.Receipt) => r.id === receiptA.id)).toBe(false);
    const dash = await api('GET', '/dashboard/summary', { token: w.tokenB });
    expect(dash.json.data).toMatchObject({ currency: 'EUR', agentSuggested: 0 });
    expect(dash.json.data.uncategorized).toBe((await L.listTransactions(w.ledger, w.orgB.seq, { status: 'uncategorized', limit: 1, offset: 0 })).meta.totalCount);
  });
});

describe('OpenAPI', () => {
  it('is served without a token and is a valid OpenAPI 3.1 document covering the 17 operations and the documented additions', async () => {
    const res = await api('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const result = await new Validator().validate(res.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const ids = Object.values(res.json.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(ids.sort()).toEqual(operations.map((o) => o.operationId).sort());
    expect(ids).toHaveLength(19);
    expect(res.json.paths['/notes'].put.deprecated).toBe(true);
    expect(res.json.components.schemas.CategorizationProposal.additionalProperties).toBe(false);
    const params = res.json.paths['/transactions'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(['status', 'source', 'date', 'dateFrom', 'dateTo', 'category', 'description', 'limit', 'offset']);
  });
});
