// The tool bridge through the official SDK client, compared with /api/v1 answers.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as L from '../src/main/ledger';
import { operations } from '../src/main/api/registry';
import { call, rawRequest, world, type World } from './support/env';

let w: World;
let txA: L.Transaction;
let receiptA: L.Receipt;

const DEFAULT_TOOLS = [
  'attach_note', 'get_dashboard_summary', 'get_ontology', 'get_transaction', 'list_categories', 'list_connectors',
  'list_pending_proposals', 'list_transactions', 'propose_categorization', 'propose_journal_entry', 'propose_receipt_link', 'search_receipts',
];

async function connect(token: string, query = ''): Promise<Client> {
  const client = new Client({ name: 'ledgerdesk-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${w.server.url}/api/mcp${query}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

async function tool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0].text;
  return { isError: result.isError === true, structured: result.structuredContent as any, body: JSON.parse(text) };
}

const rest = (method: string, path: string, token: string, body?: unknown) => call(w.base, method, path, { token, body });

let agent: Client;
let all: Client;
beforeAll(async () => {
  w = await world(300);
  txA = L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 1, offset: 0 }).data[0];
  receiptA = L.searchReceipts(w.ledger, w.orgA.seq, 'invoice')[0];
  agent = await connect(w.tokenA);
  all = await connect(w.tokenA, '?tools=all');
});

describe('tool lists', () => {
  it('serves exactly the 12 default tools, and all 17 with ?tools=all', async () => {
    expect((await agent.listTools()).tools.map((t) => t.name).sort()).toEqual(DEFAULT_TOOLS);
    expect((await all.listTools()).tools.map((t) => t.name).sort()).toEqual(operations.map((o) => o.operationId).sort());
    expect(DEFAULT_TOOLS).toEqual(operations.filter((o) => o.exposeByDefault).map((o) => o.operationId).sort());
  });

  it('describes each tool from the registry with strict input, an output schema and annotations', async () => {
    const tools = (await all.listTools()).tools;
    for (const t of tools) {
      const op = operations.find((o) => o.operationId === t.name)!;
      expect(t.title).toBe(op.title);
      expect(t.description).toContain(op.description);
      expect(t.inputSchema.type).toBe('object');
      expect((t.inputSchema as { additionalProperties?: boolean }).additionalProperties).toBe(false);
      expect(t.outputSchema?.type).toBe('object');
      expect(JSON.stringify(t)).not.toContain('$ref');
      expect(t.annotations?.readOnlyHint).toBe(op.method === 'GET');
      expect(t.annotations?.destructiveHint).toBe(false);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('create_note')!.description).toMatch(/DEPRECATED: use attach_note/);
    expect(byName.get('list_notes')!.description).toMatch(/Prefer get_transaction/);
    expect(byName.get('propose_categorization')!.description).toMatch(/never a posted ledger entry/);
    expect(byName.get('list_transactions')!.description).toMatch(/Never pass an organization id/);
    expect(Object.keys((byName.get('get_transaction')!.inputSchema as { properties: object }).properties)).toEqual(['id']);
  });

  it('carries the agent rules and the categorization workflow in the instructions', () => {
    const instructions = agent.getInstructions() ?? '';
    for (const rule of ['Prefer categoryCode', 'limit 50 or less', 'never a posted ledger entry', 'Prefer get_transaction over list_notes', 'Prefer attach_note', 'organization id', 'reason, a calibrated confidence']) {
      expect(instructions).toContain(rule);
    }
    expect(instructions).toMatch(/list_categories[\s\S]*status=uncategorized[\s\S]*get_transaction[\s\S]*propose_categorization[\s\S]*list_pending_proposals/);
  });

  it('offers a read-only token only the tools it can call (decision, documented)', async () => {
    const reader = await connect(w.readOnlyA);
    const names = (await reader.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual(DEFAULT_TOOLS.filter((n) => !n.startsWith('propose_') && n !== 'attach_note'));
    const denied = await tool(reader, 'propose_categorization', { transactionId: txA.id, categoryCode: '5300' });
    expect(denied.isError).toBe(true);
    expect(denied.body).toEqual((await rest('POST', '/proposals/categorization', w.readOnlyA, { transactionId: txA.id, categoryCode: '5300' })).json);
    expect(denied.body.error.code).toBe('insufficient_scope');
    await reader.close();
  });
});

describe('tools equal REST', () => {
  it('answers every read tool with the REST body, as structuredContent and as text', async () => {
    const proposal = L.attachNote(w.ledger, w.orgA.seq, { type: 'token', tokenSeq: 1, tokenId: w.tokenAId, tokenName: 'A agent', channel: 'rest' }, { transactionId: txA.id, content: 'seen' });
    const reads: [string, Record<string, unknown>, string][] = [
      ['get_ontology', {}, '/ontology.jsonld'],
      ['get_ontology_context', {}, '/ontology/context.jsonld'],
      ['list_transactions', { status: 'uncategorized', limit: 5, offset: 2 }, '/transactions?status=uncategorized&limit=5&offset=2'],
      ['list_transactions', { description: 'aws' }, '/transactions?description=aws'],
      ['get_transaction', { id: txA.id }, `/transactions/${txA.id}`],
      ['get_dashboard_summary', {}, '/dashboard/summary'],
      ['search_receipts', { q: 'invoice' }, '/receipts/search?q=invoice'],
      ['get_receipt', { id: receiptA.id }, `/receipts/${receiptA.id}`],
      ['list_categories', {}, '/categories'],
      ['list_connectors', {}, '/connectors'],
      ['list_pending_proposals', {}, '/proposals'],
      ['get_proposal', { id: proposal.id }, `/proposals/${proposal.id}`],
      ['list_notes', { transactionId: txA.id }, `/notes?transactionId=${txA.id}`],
    ];
    for (const [name, args, path] of reads) {
      const result = await tool(all, name, args);
      const expected = (await rest('GET', path, w.tokenA)).json;
      expect(result.isError, name).toBe(false);
      expect(result.structured, name).toEqual(expected);
      expect(result.body, name).toEqual(expected);
    }
  });

  it('makes proposals and notes like REST, marked as coming through the tool bridge', async () => {
    const writes: [string, Record<string, unknown>][] = [
      ['propose_categorization', { transactionId: txA.id, categoryCode: '5300', confidence: 0.8, reason: 'Cloud hosting', evidence: [{ type: 'counterparty_match', value: 'AWS' }] }],
      ['propose_journal_entry', { date: '2025-01-31', description: 'Accrued interest', amount: -12.5, categoryCode: '5300' }],
      ['propose_receipt_link', { transactionId: txA.id, receiptId: receiptA.id, confidence: 0.6 }],
      ['attach_note', { transactionId: txA.id, content: 'Asked the client' }],
    ];
    for (const [name, args] of writes) {
      const result = await tool(all, name, args);
      expect(result.isError, JSON.stringify(result.body)).toBe(false);
      expect(result.structured.data).toMatchObject({ status: 'pending', proposedBy: `mcp:${w.tokenAId}` });
      expect(result.structured).toEqual((await rest('GET', `/proposals/${result.structured.data.id}`, w.tokenA)).json);
      const [entry] = L.listAudit(w.ledger, w.orgA.seq, { limit: 1, offset: 0 }).entries;
      expect(entry).toMatchObject({ channel: 'mcp', action: 'proposal.created', targetId: result.structured.data.id });
      expect(entry.summary).toMatch(/MCP tool bridge/);
    }
    const note = await tool(all, 'create_note', { transactionId: txA.id, content: 'Direct' });
    expect(note.structured.data).toMatchObject({ transactionId: txA.id, content: 'Direct' });
    expect(L.listAudit(w.ledger, w.orgA.seq, { limit: 1, offset: 0 }).entries[0]).toMatchObject({ channel: 'mcp', action: 'note.created' });
  });

  it('runs the typical categorization workflow end to end', async () => {
    const categories = (await tool(agent, 'list_categories')).structured.data as L.Category[];
    const software = categories.find((c) => c.name === 'Software & tools')!;
    const work = (await tool(agent, 'list_transactions', { status: 'uncategorized', limit: 50 })).structured;
    expect(work.data.length).toBeGreaterThan(0);
    const target = work.data[work.data.length - 1];
    const detail = (await tool(agent, 'get_transaction', { id: target.id })).structured.data;
    expect(detail.transaction.id).toBe(target.id);
    const proposed = await tool(agent, 'propose_categorization', {
      transactionId: target.id,
      categoryCode: software.code,
      confidence: 0.9,
      reason: 'Monthly SaaS subscription',
      evidence: [{ type: 'keyword', value: target.description }],
    });
    expect(proposed.structured.data.payload).toMatchObject({ transactionId: target.id, categoryCode: software.code, category: software.name });
    const pending = (await tool(agent, 'list_pending_proposals')).structured.data as L.Proposal[];
    expect(pending.map((p) => p.id)).toContain(proposed.structured.data.id);
    expect(L.getTransaction(w.ledger, w.orgA.seq, target.id).transaction.status).toBe('uncategorized');
  });
});

describe('errors', () => {
  it('reports invalid arguments with the same code, message and details as REST', async () => {
    const cases: [string, Record<string, unknown>, string, string, unknown?][] = [
      ['propose_categorization', { transactionId: txA.id, categoryCode: '5300', organizationId: 'x' }, 'POST', '/proposals/categorization'],
      ['propose_categorization', { transactionId: 'nope', confidence: 2 }, 'POST', '/proposals/categorization'],
      ['propose_categorization', { transactionId: txA.id, category: 'Snacks' }, 'POST', '/proposals/categorization'],
      ['list_transactions', { limit: 501 }, 'GET', '/transactions?limit=501'],
      ['list_transactions', { status: 'bogus' }, 'GET', '/transactions?status=bogus'],
      ['search_receipts', {}, 'GET', '/receipts/search'],
      ['list_categories', { orgId: 1 }, 'GET', '/categories?orgId=1'],
      ['list_transactions', { description: 'a\u0000b' }, 'GET', '/transactions?description=a%00b'],
      ['list_transactions', { description: '\u0000' }, 'GET', '/transactions?description=%00'],
      ['list_transactions', { limit: '0x10' }, 'GET', '/transactions?limit=0x10'],
    ];
    for (const [name, args, method, path] of cases) {
      const result = await tool(all, name, args);
      const expected = (await rest(method, path, w.tokenA, method === 'POST' ? args : undefined)).json;
      expect(result.isError, name).toBe(true);
      expect(result.structured).toBeUndefined();
      expect(result.body, name).toEqual(expected);
      expect(result.body.error.code).toBe('validation_failed');
    }
  });

  it('takes ids in any case, like REST', async () => {
    const result = await tool(agent, 'get_transaction', { id: txA.id.toUpperCase() });
    expect(result.isError).toBe(false);
    expect(result.structured.data.transaction.id).toBe(txA.id);
  });

  it('reports unknown ids and other organizations as not_found, like REST', async () => {
    const ghost = '0b5d5f9c-9d1e-4c1e-9a3f-2b1c0d9e8f7a';
    const missing = await tool(agent, 'get_transaction', { id: ghost });
    expect(missing.body).toEqual((await rest('GET', `/transactions/${ghost}`, w.tokenA)).json);
    expect(missing.body.error.code).toBe('not_found');
    const other = await connect(w.tokenB);
    for (const [name, args] of [
      ['get_transaction', { id: txA.id }],
      ['propose_categorization', { transactionId: txA.id, categoryCode: '5300' }],
      ['propose_receipt_link', { transactionId: txA.id, receiptId: receiptA.id }],
      ['attach_note', { transactionId: txA.id, content: 'x' }],
    ] as const) {
      const result = await tool(other, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.body.error.code, name).toBe('not_found');
    }
    const list = (await tool(other, 'list_transactions', { limit: 500 })).structured;
    expect(list.meta.totalCount).toBe(50);
    expect(list.data.some((t: L.Transaction) => t.id === txA.id)).toBe(false);
    await other.close();
  });

  it('refuses a tool outside the served set as a protocol error', async () => {
    await expect(agent.callTool({ name: 'create_note', arguments: {} })).rejects.toThrow(/Unknown tool "create_note".*tools=all/);
  });
});

describe('HTTP edge', () => {
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  const post = (headers: Record<string, string>, path = '/api/mcp', body = initialize) =>
    rawRequest(`${w.server.url}${path}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });

  it('answers 401 with WWW-Authenticate without a valid token', async () => {
    for (const headers of [{}, { authorization: 'Bearer ldk_live_bogus' }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="ledgerdesk"/);
      expect(JSON.parse(res.body).error.code).toBe('unauthorized');
    }
  });

  it('answers 403 to a foreign Host or Origin, even with a good token', async () => {
    const auth = { authorization: `Bearer ${w.tokenA}` };
    expect((await post({ ...auth, host: 'evil.example' })).status).toBe(403);
    expect((await post({ ...auth, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(auth)).status).toBe(200);
  });

  it('refuses an unsupported MCP-Protocol-Version, unknown query parameters, GET/DELETE and big bodies', async () => {
    const auth = { authorization: `Bearer ${w.tokenA}` };
    const version = await post({ ...auth, 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(JSON.parse(version.body).error.code).toBe('unsupported_protocol_version');
    expect((await post({ ...auth, 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
    expect(JSON.parse((await post(auth, '/api/mcp?tools=everything')).body).error.details).toEqual([{ field: 'tools', message: expect.any(String) }]);
    for (const method of ['GET', 'DELETE']) {
      const res = await rawRequest(`${w.server.url}/api/mcp`, { method, headers: auth });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
    const big = await post(auth, '/api/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } }));
    expect(big.status).toBe(413);
  });
});
