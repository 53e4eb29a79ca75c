// The categorization workflow as an agent works it: a scripted agent
// (test/support/scripted-agent.ts) with the official MCP SDK client works
// through the whole uncategorized backlog of 2,000 demo rows. It needs at most
// 1.1 tool calls per row and gets no error result; doing it all again files
// nothing new (the same changes are answered as pending). bench/agent.ts
// prints the same figures.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/main/api/server';
import * as L from '../src/main/ledger';
import { tempLedger } from './support/env';
import { categorizeBacklog } from './support/scripted-agent';
import { fillDemo } from '../src/main/demo';
import { jsonField } from '../src/main/ledger/core/dialect';

let server: RunningServer;
let client: Client;
let ledger: L.Ledger;
let org: L.Organization;

beforeAll(async () => {
  ({ ledger } = await tempLedger());
  org = await L.createOrganization(ledger, { slug: 'demo', name: 'Demo Ltd' });
  await fillDemo(ledger, org.seq, org.slug, 2000, org.currency);
  const { token } = await L.createToken(ledger, org.seq, { name: 'Scripted agent', scopes: ['read', 'propose-write'] });
  server = await startServer({ ledger, port: 0, log: () => {} });
  client = new Client({ name: 'scripted-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('a scripted agent over MCP', () => {
  it('works through the whole backlog with at most 1.1 calls per row and no error result', async () => {
    const run = await categorizeBacklog(client);
    expect(run.rows).toBeGreaterThan(600);
    expect(run.errors).toEqual([]);
    expect(run.calls / run.rows).toBeLessThanOrEqual(1.1);
    expect(run.skipped).toBe(0);
    expect((await L.listPendingProposals(ledger, org.seq, { limit: 1, offset: 0 })).count).toBe(run.proposals);
    // Sign-aware: no inflow was proposed an expense, no outflow a revenue category.
    const misplaced = await ledger
      .stmt(
        `SELECT count(*) FROM proposals p JOIN transactions t ON t.id = ${jsonField(ledger, 'p.payload', 'transactionId')}
         JOIN categories c ON c.org_seq = p.org_seq AND c.code = ${jsonField(ledger, 'p.payload', 'categoryCode')}
         WHERE (t.amount_minor < 0) <> (c.type = 'expense')`,
      )
      .pluck()
      .get();
    expect(misplaced).toBe(0);
  });

  it('files nothing new when it runs again: each change is already pending', async () => {
    const before = (await L.listPendingProposals(ledger, org.seq, { limit: 1, offset: 0 })).count;
    const again = await categorizeBacklog(client);
    expect(again.errors).toEqual([]);
    expect((await L.listPendingProposals(ledger, org.seq, { limit: 1, offset: 0 })).count).toBe(before);
  });
});
