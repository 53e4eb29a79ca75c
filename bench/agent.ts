// `npm run bench` (last part): the categorization workflow as a scripted agent
// works it over MCP (test/support/scripted-agent.ts, the official SDK client):
// the whole uncategorized backlog of demo books, once, then once more (every
// change already pending). Prints rows, tool calls, calls per row, error
// results and time. Figures only: nothing here asserts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../src/main/api/server';
import { createOrganization, createToken, openLedger } from '../src/main/ledger';
import { categorizeBacklog, type AgentRun } from '../test/support/scripted-agent';
import { fillDemo } from '../src/main/demo';

const N = Number(process.env.BENCH_AGENT_ROWS ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'ldk-bench-agent-'));
const ledger = openLedger(join(dir, 'ledger.db'));
const org = await createOrganization(ledger, { slug: 'demo', name: 'Demo Ltd' });
await fillDemo(ledger, org.seq, org.slug, N, org.currency);
const { token } = await createToken(ledger, org.seq, { name: 'Scripted agent', scopes: ['read', 'propose-write'] });
const server = await startServer({ ledger, port: 0, log: () => {} });
const client = new Client({ name: 'scripted-agent', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));

const line = (label: string, r: AgentRun) =>
  `| ${label} | ${r.rows} | ${r.proposals} | ${r.skipped} | ${r.calls} | ${(r.calls / r.rows).toFixed(3)} | ${r.errors.length} | ${(r.ms / 1000).toFixed(2)} s |`;
const first = await categorizeBacklog(client);
const again = await categorizeBacklog(client);
await client.close();
await server.close();
ledger.close();
rmSync(dir, { recursive: true, force: true });
console.log(`\nA scripted agent over MCP, demo books of ${N.toLocaleString('en')} rows (target: at most 1.1 calls per row, no error result):\n`);
console.log('| run | uncategorized rows | proposals | left for a person | tool calls | calls per row | error results | time |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
console.log([line('first pass', first), line('again (all already pending)', again)].join('\n'));
