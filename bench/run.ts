// `npm run bench`: a 1,000,000-transaction organization, our server (the real
// `serve` command) beside a bare node:http + better-sqlite3 server running the
// same SQL on the same file. Prints median/p99 latency (both servers warmed up,
// then sampled alternately), requests/s, peak RSS and database size. Figures
// only: nothing here asserts a time.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createOrganization, createToken, findOrganization, listTransactions, openLedger } from '../src/main/ledger';
import { ledgerFile } from '../src/main/paths';
import { throughput, type Load } from './load';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';

const N = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const CODES = ['5300', '5100', '5000', '5200', '4000', '4010'];
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 400);
const root = join(import.meta.dirname, '..');
const data = join(root, 'bench', '.data-books-api');
const file = ledgerFile(data);

async function prepare() {
  const ledger = openLedger(file);
  let org = await findOrganization(ledger, 'bench');
  let loadSeconds: number | null = null;
  if (!org || (await listTransactions(ledger, org.seq, { limit: 1, offset: 0 })).meta.totalCount !== N) {
    if (org) throw new Error(`bench/.data-books-api holds another size; delete ${data} and run again`);
    org = await createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd' });
    const started = performance.now();
    await fillDemo(ledger, org.seq, org.slug, N, org.currency, BENCH_SHAPE);
    loadSeconds = (performance.now() - started) / 1000;
  }
  const { token } = await createToken(ledger, org.seq, { name: `bench ${new Date().toISOString()}`, scopes: ['read', 'propose-write'] });
  // Proposals are told apart by their change (the same one again is answered as pending): 5,000 rows x 6 categories are 30,000 new ones.
  const pool: string[] = [];
  for (let page = 0; page < 10; page++) {
    pool.push(...(await listTransactions(ledger, org.seq, { status: 'uncategorized', limit: 500, offset: 1000 + page * 500 })).data.map((t) => t.id));
  }
  const middle = (await listTransactions(ledger, org.seq, { limit: 1, offset: Math.floor(N / 2) })).data[0].id;
  ledger.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  ledger.close();
  return { orgSeq: org.seq, token, pool, middle, loadSeconds };
}

function startChild(args: string[]): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, base: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

function send(base: string, method: string, path: string, token: string, body?: string, extra: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...extra };
    const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode! < 300 ? resolve(res.statusCode!) : reject(new Error(`${method} ${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Row {
  name: string;
  method: string;
  path: () => string;
  body?: () => string;
  headers?: Record<string, string>;
  samples?: number;
}

/** A stateless tools/call, as an MCP client sends it. */
const toolCall = (name: string, args: Record<string, unknown>): Row => ({
  name: `tools/call ${name}`,
  method: 'POST',
  path: () => '/api/mcp',
  headers: MCP_HEADERS,
  body: () => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

/**
 * Requests each target serves before sampling. V8 optimizes a code path only
 * after it has run a while: a tools/call, whose SDK path none of the REST rows
 * exercise, measured 1.6-1.8x of REST over its first 600 calls and settled
 * after ~1,800. Slow rows warm up as often as they sample.
 */
const WARMUP = 2000;

/** Sequential latencies of two targets, sampled alternately so both see the same conditions (WAL size, page cache, CPU). */
async function latencies(a: Target, b: Target, samples: number, warmup: number) {
  for (let i = 0; i < warmup; i++) for (const t of [a, b]) await t.send();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < samples; i++) {
    for (const [j, t] of [a, b].entries()) {
      const started = performance.now();
      await t.send();
      times[j].push(performance.now() - started);
    }
  }
  return times.map((ts) => {
    ts.sort((x, y) => x - y);
    return { p50: ts[Math.floor(samples / 2)], p99: ts[Math.floor(samples * 0.99)] };
  });
}

interface Target {
  /** One request through node:http, as a client sees it. */
  send(): Promise<number>;
  /** The same requests for the throughput load. */
  load: Load;
}

const target = (base: string, token: string, row: Row): Target => ({
  send: () => send(base, row.method, row.path(), token, row.body?.(), row.headers),
  load: {
    port: Number(new URL(base).port),
    next: () => ({ method: row.method, path: row.path(), headers: { Authorization: `Bearer ${token}`, ...row.headers }, body: row.body?.() }),
  },
});

interface Comparison {
  name: string;
  a: Target;
  b: Target;
  samples: number;
  warmup: number;
  /** The MCP rows print the tool call's requests/s only. */
  bothRates: boolean;
}

/**
 * Every latency first, then every throughput: a burst of load leaves garbage in
 * the load generator and, for proposals, a longer WAL, which would disturb the
 * latencies sampled after it.
 */
async function measure(comparisons: Comparison[]) {
  const lat = [];
  for (const c of comparisons) {
    console.log(`latency: ${c.name}`);
    lat.push(await latencies(c.a, c.b, c.samples, c.warmup));
  }
  const results = [];
  for (const [i, c] of comparisons.entries()) {
    console.log(`throughput: ${c.name}`);
    const rates = [(await throughput(c.a.load)).perSecond, c.bothRates ? (await throughput(c.b.load)).perSecond : NaN];
    results.push(lat[i].map((l, j) => ({ ...l, rps: rates[j] })));
  }
  return results;
}

const peakRss = (pid: number): string => {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return 'n/a';
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1]);
  return `${Math.round(kb / 1024)} MB`;
};

async function main() {
  console.log(`Preparing ${N.toLocaleString('en')} transactions in ${data} ...`);
  const { orgSeq, token, pool, middle, loadSeconds } = await prepare();
  if (loadSeconds !== null) console.log(`Demo load: ${loadSeconds.toFixed(1)} s`);
  const size = (['', '-wal'] as const).reduce((a, s) => a + (existsSync(file + s) ? statSync(file + s).size : 0), 0);
  const ours = await startChild(['src/cli/index.ts', 'serve', '--port', '0', '--data', data]);
  const bare = await startChild(['bench/bare-server.ts', file, String(orgSeq)]);
  let k = 0;
  const rows: Row[] = [
    { name: 'GET /transactions (first page)', method: 'GET', path: () => '/api/v1/transactions' },
    { name: 'GET /transactions?status=uncategorized', method: 'GET', path: () => '/api/v1/transactions?status=uncategorized' },
    { name: 'GET /transactions?description=figma', method: 'GET', path: () => '/api/v1/transactions?description=figma' },
    { name: 'GET /transactions?dateFrom&dateTo (1 month)', method: 'GET', path: () => '/api/v1/transactions?dateFrom=2025-03-01&dateTo=2025-03-31' },
    { name: 'GET /transactions?offset=900000', method: 'GET', path: () => '/api/v1/transactions?offset=900000', samples: 60 },
    { name: 'GET /transactions/{id}', method: 'GET', path: () => `/api/v1/transactions/${middle}` },
    { name: 'GET /dashboard/summary', method: 'GET', path: () => '/api/v1/dashboard/summary' },
    { name: 'GET /receipts/search?q=figma', method: 'GET', path: () => '/api/v1/receipts/search?q=figma' },
    {
      name: 'POST /proposals/categorization',
      method: 'POST',
      path: () => '/api/v1/proposals/categorization',
      body: () => {
        const at = k++;
        return JSON.stringify({ transactionId: pool[at % pool.length], categoryCode: CODES[Math.floor(at / pool.length) % CODES.length] });
      },
    },
  ];
  const pairs: [Row, Row][] = [
    [toolCall('list_transactions', {}), rows[0]],
    [toolCall('get_transaction', { id: middle }), rows[5]],
  ];
  const comparisons: Comparison[] = [
    ...rows.map((row) => ({
      name: row.name,
      a: target(ours.base, token, row),
      b: target(bare.base, token, row),
      samples: row.samples ?? SAMPLES,
      warmup: row.samples ?? WARMUP,
      bothRates: true,
    })),
    ...pairs.map(([mcp, rest]) => ({ name: mcp.name, a: target(ours.base, token, mcp), b: target(ours.base, token, rest), samples: SAMPLES, warmup: WARMUP, bothRates: false })),
  ];
  const results = await measure(comparisons);
  const lines = ['| request | ours p50 | ours p99 | ours req/s | bare p50 | bare p99 | bare req/s | p50 ratio |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const [i, [a, b]] of results.entries()) {
    if (i === rows.length) lines.push('', '| MCP request | p50 | p99 | req/s | same REST p50 | p50 ratio |', '|---|---:|---:|---:|---:|---:|');
    const ratio = `${(a.p50 / b.p50).toFixed(2)}x`;
    lines.push(
      i < rows.length
        ? `| ${comparisons[i].name} | ${a.p50.toFixed(2)} ms | ${a.p99.toFixed(2)} ms | ${Math.round(a.rps)} | ${b.p50.toFixed(2)} ms | ${b.p99.toFixed(2)} ms | ${Math.round(b.rps)} | ${ratio} |`
        : `| ${comparisons[i].name} | ${a.p50.toFixed(2)} ms | ${a.p99.toFixed(2)} ms | ${Math.round(a.rps)} | ${b.p50.toFixed(2)} ms | ${ratio} |`,
    );
  }
  const summary = `Peak RSS: ours ${peakRss(ours.child.pid!)}, bare ${peakRss(bare.child.pid!)}. Database: ${(size / 1e6).toFixed(0)} MB for ${N.toLocaleString('en')} transactions.`;
  console.log(`\n${lines.join('\n')}\n\n${summary}`);
  for (const c of [ours.child, bare.child]) c.kill('SIGTERM');
  agent.destroy();
}

await main().catch((error) => {
  console.error(error);
  process.exit(1);
});
