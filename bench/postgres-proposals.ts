// Issue 44's third target: agents' proposals across 8 organizations through 2
// server processes, at least 1,000 a second, every one audited. A fresh
// database each run (bench_proposals) with 8 organizations of small demo books
// (BENCH_PROPOSAL_ROWS each, a third of them uncategorized) and a token each;
// then 1 `ledgerdesk serve --database` process, and 2 on the same database,
// each taking POST /api/v1/proposals/categorization from 32 keep-alive
// connections in all (bench/load.ts: ready-made request bytes, one request in
// flight per connection; with 2 processes, 16 on each), the requests spread
// round-robin over the 8 organizations and their tokens, each proposal a new
// change: another uncategorized transaction (distinct transactions until an
// organization's run out, then the same ones with another category; a
// repeated change would be answered 200 as already pending, not filed).
// A warm-up (2 s) first, then BENCH_PROPOSAL_SECONDS (10); the figure is the
// proposals filed in the database over that window (each one a 201), counted
// by a connection as the login role (role: null, beside row-level security),
// which then checks that every proposal has its 'proposal.created' audit entry.
// Then 2 processes again through PgBouncer in transaction pooling
// (LEDGERDESK_DB_POOLER=transaction, issue 51), beside the direct 2's: target
// within 1.3x. The load generator, the servers and PostgreSQL share this
// machine's cores.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrganization, createToken, type Ledger } from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';
import type { BenchCluster } from './postgres-cluster';
import type { Pooler } from '../test/support/postgres';
import { throughput, type Load } from './load';
import { cpuText, sampleCpu } from './postgres-cpu';

const root = join(import.meta.dirname, '..');
const DB = 'bench_proposals';
const ORGS = 8;
const ROWS = Number(process.env.BENCH_PROPOSAL_ROWS ?? 12_000);
const SECONDS = Number(process.env.BENCH_PROPOSAL_SECONDS ?? 10);
const WARMUP_MS = 2000;
const IN_FLIGHT = 32;
const CODES = ['5100', '5300', '5000', '5200', '4000', '4010'];

interface Agent {
  seq: number;
  token: string;
  /** Its uncategorized transactions' ids. */
  pool: string[];
}

async function setUp(cluster: BenchCluster): Promise<Agent[]> {
  cluster.psql('postgres', `DROP DATABASE IF EXISTS ${DB}`);
  cluster.psql('postgres', `CREATE DATABASE ${DB}`);
  const ledger = await openPostgres(cluster.urlOf(DB));
  try {
    const agents: Agent[] = [];
    for (let i = 1; i <= ORGS; i++) {
      const org = await ledger.forOrg('all', () => createOrganization(ledger, { slug: `agents-${i}`, name: `Agents ${i} Ltd` }));
      const agent = await ledger.forOrg(org.seq, async () => {
        await fillDemo(ledger, org.seq, org.slug, ROWS, org.currency, BENCH_SHAPE);
        const { token } = await createToken(ledger, org.seq, { name: 'bench agent', scopes: ['read', 'propose-write'] });
        const pool = (await ledger.stmt("SELECT id FROM transactions WHERE org_seq = ? AND status = 'uncategorized' ORDER BY seq").pluck().all(org.seq)) as string[];
        return { seq: org.seq, token, pool };
      });
      agents.push(agent);
    }
    // As after bench_db's load: the planner's statistics, and no autovacuum of the fresh rows during the load below.
    cluster.psql(DB, 'VACUUM (ANALYZE)');
    return agents;
  } finally {
    await ledger.end();
  }
}

/** A `serve --database` process with its own data folder (as on another machine), and the port it listens on. */
function serve(url: string, data: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  mkdirSync(data, { recursive: true });
  const child = spawn(process.execPath, [join(root, 'bin', 'ledgerdesk.mjs'), 'serve', '--port', '0', '--database', url, '--data', data], {
    cwd: root,
    env: { ...process.env, ...env, LEDGERDESK_HEADLESS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const seen = (c: Buffer) => {
      out += String(c);
      const port = /^http:\/\/127\.0\.0\.1:(\d+)\/api\/v1$/m.exec(out)?.[1];
      if (port) resolve({ child, port: Number(port) });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', (c: Buffer) => (out += String(c)));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });

const peakRss = (pid: number): string => {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return 'n/a';
  return `${Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1]) / 1024)} MB`;
};

/** Proposals and their audit entries per organization, as the login role sees them (all organizations). */
async function audited(owner: Ledger) {
  const [row] = await owner.rows<{ proposals: number; entries: number; missing: number; orgs: number }>(
    `SELECT (SELECT count(*) FROM proposals) AS proposals,
            (SELECT count(*) FROM audit_log WHERE action = 'proposal.created') AS entries,
            (SELECT count(*) FROM proposals p WHERE NOT EXISTS (
               SELECT 1 FROM audit_log a WHERE a.org_seq = p.org_seq AND a.action = 'proposal.created' AND a.target_id = p.id)) AS missing,
            (SELECT count(*) FROM (SELECT org_seq FROM proposals GROUP BY org_seq
               HAVING count(*) <> (SELECT count(*) FROM audit_log a WHERE a.org_seq = proposals.org_seq AND a.action = 'proposal.created')) AS o) AS orgs`,
  );
  return row;
}

/** The proposals' requests, round-robin over the organizations: each a change not proposed before in this run. */
function proposals(agents: Agent[]) {
  let k = 0;
  let reused = 0;
  const next = () => {
    const agent = agents[k % agents.length];
    const j = Math.floor(k / agents.length);
    k++;
    if (j >= agent.pool.length) reused++;
    const body = JSON.stringify({ transactionId: agent.pool[j % agent.pool.length], categoryCode: CODES[Math.floor(j / agent.pool.length) % CODES.length], confidence: 0.9 });
    return { method: 'POST', path: '/api/v1/proposals/categorization', headers: { Authorization: `Bearer ${agent.token}` }, body };
  };
  return { next, reused: () => reused, sent: () => k };
}

interface Run {
  processes: number;
  /** Through PgBouncer (transaction pooling), or directly. */
  pooled: boolean;
}

/** The Markdown table of proposals/s with 1 and with 2 server processes (directly, then through PgBouncer), and each run's audit check. */
export async function compareProposals(cluster: BenchCluster, bouncer: Pooler): Promise<string> {
  console.log(`proposals: setting up ${ORGS} organizations of ${ROWS.toLocaleString('en')} demo transactions each`);
  const agents = await setUp(cluster);
  const distinct = agents.reduce((a, g) => a + g.pool.length, 0);
  const url = cluster.urlOf(DB);
  const owner = await openPostgres(url, { role: null });
  const requests = proposals(agents);
  const lines = ['| server processes | proposals/s | filed in the window | CPU in the window | server peak RSS | audit check (login role) |', '|---|---:|---:|---|---|---|'];
  const data = mkdtempSync(join(tmpdir(), 'ldk-bench-serve-'));
  const rates: number[] = [];
  const runs: Run[] = [
    { processes: 1, pooled: false },
    { processes: 2, pooled: false },
    { processes: 2, pooled: true },
  ];
  try {
    for (const { processes, pooled } of runs) {
      const via = pooled ? ' through PgBouncer (transaction pooling)' : '';
      console.log(`proposals: ${processes} server process(es)${via}, ${IN_FLIGHT} in flight, ${SECONDS} s after ${WARMUP_MS / 1000} s of warm-up`);
      const [at, env] = pooled ? [bouncer.urlOf(DB), { LEDGERDESK_DB_POOLER: 'transaction' }] : [url, {}];
      const servers = await Promise.all(Array.from({ length: processes }, (_, i) => serve(at, join(data, `serve-${processes}-${i}${pooled ? '-pooled' : ''}`), env)));
      try {
        const loads: Load[] = servers.map((s) => ({ port: s.port, next: requests.next }));
        const load = (ms: number) => Promise.all(loads.map((l) => throughput(l, IN_FLIGHT / processes, ms)));
        await load(WARMUP_MS);
        const before = (await audited(owner)).proposals;
        const pids = servers.map((s) => s.child.pid!);
        const cpuBefore = sampleCpu(pids, cluster.postmaster());
        const started = performance.now();
        const answered = (await load(SECONDS * 1000)).reduce((a, r) => a + r.completed, 0);
        const seconds = (performance.now() - started) / 1000;
        const cpu = cpuText(cpuBefore, sampleCpu(pids, cluster.postmaster()), seconds);
        const check = await audited(owner);
        const filed = check.proposals - before;
        const ok = check.missing === 0 && check.orgs === 0 && check.entries === check.proposals;
        const audit = `${ok ? 'every one audited' : 'NOT ALL AUDITED'}: ${check.proposals} proposals, ${check.entries} proposal.created entries, ${check.missing} without one`;
        const unanswered = answered === filed ? '' : ` (${answered} answered 2xx)`;
        rates.push(filed / seconds);
        lines.push(
          `| ${processes}${pooled ? ', via PgBouncer' : ''} | ${Math.round(filed / seconds)} | ${filed}${unanswered} | ${cpu} | ${pids.map(peakRss).join(', ')} | ${audit} |`,
        );
      } finally {
        await Promise.all(servers.map((s) => stopped(s.child)));
      }
    }
  } finally {
    await owner.end();
    rmSync(data, { recursive: true, force: true });
  }
  const reuse = requests.reused() > 0 ? `; ${requests.reused()} of them on a transaction already proposed, with another category` : '';
  lines.push(
    '',
    `2 processes, directly / through PgBouncer: ${(rates[1] / rates[2]).toFixed(2)}x the proposals a second (target within 1.3x).`,
    '',
    `${requests.sent()} proposals sent in all (warm-ups included) over ${distinct} uncategorized transactions${reuse}. ` +
      `The load generator (bench/load.ts), the server process(es) and PostgreSQL all ran on this machine's ${availableParallelism()} cores.`,
  );
  return lines.join('\n');
}
