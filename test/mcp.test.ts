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
  'attach_note',
  'get_dashboard_summary',
  'get_ontology',
  'get_transaction',
  'list_categories',
  'list_connectors',
  'list_pending_proposals',
  'list_transactions',
  'propose_categorization',
  'propose_journal_entry',
  'propose_receipt_link',
  'search_receipts',
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
  txA = (await L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 1, offset: 0 })).data[0];
  receiptA = (await L.searchReceipts(w.ledger, w.orgA.seq, 'invoice'))[0];
  agent = await connect(w.tokenA);
  all = await connect(w.tokenA, '?tools=all');
});

describe('tool lists', () => {
  it('serves exactly the 12 default tools, and all 19 with ?tools=all', async () => {
    expect((await agent.listTools()).tools.map((t) => t.name).sort()).toEqual(DEFAULT_TOOLS);
    expect((await all.listTools()).tools.map((t) => t.name).sort()).toEqual(operations.map((o) => o.operationId).sort());
    expect(DEFAULT_TOOLS).toEqual(
      operations
        .filter((o) => o.exposeByDefault)
        .map((o) => o.operationId)
        .sort(),
    );
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
      // Hints only where they differ from the protocol's defaults (readOnly false, destructive true, openWorld true).
      if (op.method === 'GET') expect(t.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      else expect(t.annotations).toMatchObject({ destructiveHint: false, openWorldHint: false });
      expect(JSON.stringify(t.inputSchema)).not.toMatch(/"pattern":"\^\(\[0-9a-fA-F\]/); // uuids by format alone
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('create_note')!.description).toMatch(/DEPRECATED: use attach_note/);
    expect(byName.get('list_notes')!.description).toMatch(/Prefer get_transaction/);
    expect(byName.get('propose_categorization')!.description).toMatch(/Pending until a human approves it/);
    expect(byName.get('propose_categorization')!.annotations?.idempotentHint).toBe(true);
    expect(Object.keys((byName.get('get_transaction')!.inputSchema as { properties: object }).properties)).toEqual(['id']);
  });

  it('keeps the twelve default tools, output schemas included, within 20,000 bytes, every input field described', async () => {
    const { tools } = await agent.listTools();
    expect(tools.every((t) => t.outputSchema)).toBe(true);
    // docs/mcp.md says how it is kept there: result schemas name a proposal's payload instead of spelling it out, among others.
    expect(JSON.stringify({ tools }).length).toBeLessThanOrEqual(20_000);
    const pending = JSON.stringify(tools.find((t) => t.name === 'list_pending_proposals')!.outputSchema);
    expect(pending).toContain('the fields its propose tool took');
    expect(pending).not.toContain('receiptId'); // the payload's shapes are the propose tools' inputs, not repeated
    const undescribed: string[] = [];
    const walk = (schema: any, path: string) => {
      for (const [name, field] of Object.entries<any>(schema?.properties ?? {})) {
        if (!field.description) undescribed.push(`${path}.${name}`);
        walk(field, `${path}.${name}`);
        walk(field.items, `${path}.${name}[]`);
      }
    };
    for (const t of tools) walk(t.inputSchema, t.name);
    expect(undescribed).toEqual([]);
    const evidence = (tools.find((t) => t.name === 'propose_categorization')!.inputSchema as any).properties.evidence.items.properties.type.description;
    for (const type of L.EVIDENCE_TYPES) expect(evidence).toContain(`${type}:`);
  });

  it('carries the agent rules and the categorization workflow in the instructions, fitted to the scopes', async () => {
    const instructions = agent.getInstructions() ?? '';
    for (const rule of [
      'Prefer categoryCode',
      'limit 50 or less',
      'never a posted ledger entry',
      'Prefer get_transaction over list_notes',
      'Prefer attach_note',
      'organization id',
      'reason, a calibrated confidence',
      'proposal_rejected',
    ]) {
      expect(instructions).toContain(rule);
    }
    expect(instructions).toMatch(/list_categories[\s\S]*status=uncategorized[\s\S]*get_transaction[\s\S]*propose_categorization[\s\S]*list_pending_proposals/);
    const reader = await connect(w.readOnlyA);
    const read = reader.getInstructions() ?? '';
    expect(read).toContain('only reads');
    expect(read).not.toMatch(/propose_categorization|calibrated confidence|workflow/);
    await reader.close();
    const writer = await connect(w.writeOnlyA);
    const write = writer.getInstructions() ?? '';
    expect(write).toContain('only proposes');
    expect(write).not.toMatch(/limit 50|workflow/);
    await writer.close();
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
    const proposal = await L.proposeNote(
      w.ledger,
      w.orgA.seq,
      { type: 'token', tokenSeq: 1, tokenId: w.tokenAId, tokenName: 'A agent', channel: 'rest' },
      { transactionId: txA.id, content: 'seen' },
    );
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
      [
        'propose_categorization',
        { transactionId: txA.id, categoryCode: '5300', confidence: 0.8, reason: 'Cloud hosting', evidence: [{ type: 'counterparty_match', value: 'AWS' }] },
      ],
      ['propose_journal_entry', { date: '2025-01-31', description: 'Accrued interest', amount: -12.5, categoryCode: '5300' }],
      ['propose_receipt_link', { transactionId: txA.id, receiptId: receiptA.id, confidence: 0.6 }],
      ['attach_note', { transactionId: txA.id, content: 'Asked the client' }],
    ];
    for (const [name, args] of writes) {
      const result = await tool(all, name, args);
      expect(result.isError, JSON.stringify(result.body)).toBe(false);
      expect(result.structured.data).toMatchObject({ status: 'pending', proposedBy: `mcp:${w.tokenAId}` });
      expect(result.structured).toEqual((await rest('GET', `/proposals/${result.structured.data.id}`, w.tokenA)).json);
      const [entry] = (await L.listAudit(w.ledger, w.orgA.seq, { limit: 1, offset: 0 })).entries;
      expect(entry).toMatchObject({ channel: 'mcp', action: 'proposal.created', targetId: result.structured.data.id });
      expect(entry.summary).toMatch(/MCP tool bridge/);
    }
    const note = await tool(all, 'create_note', { transactionId: txA.id, content: 'Direct' });
    expect(note.structured.data).toMatchObject({ transactionId: txA.id, content: 'Direct' });
    expect((await L.listAudit(w.ledger, w.orgA.seq, { limit: 1, offset: 0 })).entries[0]).toMatchObject({ channel: 'mcp', action: 'note.created' });
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
    expect((await L.getTransaction(w.ledger, w.orgA.seq, target.id)).transaction.status).toBe('uncategorized');
  });
});

describe('a split through MCP (issue 42)', () => {
  it('takes its lines as parts of the row, answers them in the row sign, and refuses a refund it would have to guess', async () => {
    const out = (await L.listTransactions(w.ledger, w.orgA.seq, { status: 'uncategorized', limit: 100, offset: 0 })).data.find((t) => t.amount <= -1)!;
    const whole = Math.round(-out.amount * 100);
    const lines = [
      { categoryCode: '5100', amount: 1 },
      { categoryCode: '5200', amount: (whole - 100) / 100 },
    ];
    const proposed = await tool(agent, 'propose_categorization', { transactionId: out.id, lines });
    expect(proposed.isError, JSON.stringify(proposed.body)).toBe(false);
    expect(proposed.structured.data.payload.lines.map((l: { amount: number }) => l.amount)).toEqual([-1, -(whole - 100) / 100]);
    const guessed = await tool(agent, 'propose_categorization', { transactionId: out.id, lines: [lines[0], { ...lines[1], amount: -(whole + 100) / 100 }] });
    expect(guessed.isError).toBe(true);
    expect(guessed.body.error).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'lines', message: expect.stringContaining('only if line 1 (1.00 USD) is a refund') }],
    });
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
    const refused = agent.callTool({ name: 'create_note', arguments: {} });
    await expect(refused).rejects.toThrow(/^MCP error -32602: Unknown tool "create_note".*tools=all/);
    await expect(refused).rejects.not.toThrow(/MCP error -32602: MCP error/);
  });
});

describe('HTTP edge', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const post = (headers: Record<string, string>, path = '/api/mcp', body = initialize) =>
    rawRequest(`${w.server.url}${path}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });

  /** Every refusal at the HTTP level is a JSON-RPC error; the stable code and details ride in error.data. */
  const rpcError = (body: string) => {
    const parsed = JSON.parse(body);
    expect(parsed).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.any(String) } });
    return parsed.error as { code: number; message: string; data: { code: string; details: unknown } };
  };

  it('answers 401 with a Bearer challenge naming its resource metadata, which names no OAuth server', async () => {
    for (const headers of [{}, { authorization: 'Bearer ldk_live_bogus' }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="ledgerdesk"/);
      expect(res.headers['www-authenticate']).toContain(`resource_metadata="${w.server.url}/.well-known/oauth-protected-resource/api/mcp"`);
      expect(rpcError(res.body)).toMatchObject({ code: -32001, data: { code: 'unauthorized' } });
    }
    const metadata = JSON.parse((await rawRequest(`${w.server.url}/.well-known/oauth-protected-resource/api/mcp`)).body);
    expect(metadata).toMatchObject({ resource: `${w.server.url}/api/mcp`, bearer_methods_supported: ['header'], scopes_supported: ['read', 'propose-write'] });
    expect(metadata.authorization_servers).toBeUndefined();
    expect((await rawRequest(`${w.server.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
    const register = await rawRequest(`${w.server.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(register.status).toBe(400);
    expect(JSON.parse(register.body)).toMatchObject({ error: 'invalid_client_metadata', error_description: expect.stringContaining('does not use OAuth') });
  });

  it('answers 403 to a foreign Host or Origin, even with a good token, as JSON-RPC errors', async () => {
    const auth = { authorization: `Bearer ${w.tokenA}` };
    const host = await post({ ...auth, host: 'evil.example' });
    expect(host.status).toBe(403);
    expect(rpcError(host.body).data.code).toBe('forbidden_host');
    expect((await post({ ...auth, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(auth)).status).toBe(200);
  });

  it('refuses an unsupported MCP-Protocol-Version, unknown query parameters, GET/DELETE, bad JSON and big bodies', async () => {
    const auth = { authorization: `Bearer ${w.tokenA}` };
    const version = await post({ ...auth, 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(rpcError(version.body)).toMatchObject({ code: -32600, data: { code: 'unsupported_protocol_version' } });
    expect((await post({ ...auth, 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
    expect(rpcError((await post(auth, '/api/mcp?tools=everything')).body).data.details).toEqual([{ field: 'tools', message: expect.any(String) }]);
    for (const method of ['GET', 'DELETE']) {
      const res = await rawRequest(`${w.server.url}/api/mcp`, { method, headers: auth });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(rpcError(res.body).data.code).toBe('method_not_allowed');
    }
    expect(rpcError((await post(auth, '/api/mcp', '{"jsonrpc":')).body)).toMatchObject({ code: -32700, data: { code: 'invalid_json' } });
    const big = await post(auth, '/api/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } }));
    expect(big.status).toBe(413);
    expect(rpcError(big.body).data.code).toBe('payload_too_large');
  });

  it('takes a JSON-RPC batch only in the protocol version that had them (2025-03-26, the default without the header)', async () => {
    const auth = { authorization: `Bearer ${w.tokenA}` };
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    for (const headers of [auth, { ...auth, 'mcp-protocol-version': '2025-03-26' }]) {
      const res = await post(headers, '/api/mcp', batch);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).map((a: { id: number }) => a.id)).toEqual([1, 2]);
    }
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post({ ...auth, 'mcp-protocol-version': version }, '/api/mcp', batch);
      expect(res.status).toBe(400);
      expect(rpcError(res.body)).toMatchObject({ code: -32600, data: { code: 'validation_failed', details: [{ field: 'body' }] } });
      expect(rpcError(res.body).message).toContain(`MCP ${version} does not have`);
    }
  });
});
