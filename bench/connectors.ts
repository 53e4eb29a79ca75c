// `npm run bench:connectors` (and part of `npm run bench`): issue 52's speed
// targets, on SQLite and PostgreSQL, each beside a bare baseline of the same
// run. Figures only: nothing here asserts a time.
//   (a) A first sync of 10,000 rows from the SimpleFIN double (test/doubles/
//       simplefin.ts, real HTTP on loopback) into an empty account, beside
//       importing the same 10,000 rows from an OFX file into another empty
//       account (the import that exists, as `ledgerdesk import` runs it):
//       target at most 1.3x. Both through the desk's operations in this process,
//       each into a new organization, alternating, BENCH_ROUNDS (3) rounds; the
//       medians are compared.
//   (b) The schedule's pass over 200 connectors (each its own organization and
//       its own SimpleFIN double, as a firm's clients are) with nothing new:
//       the CPU time of the pass (process.cpuUsage: this process, the doubles
//       included) at most 2 s, beside 200 bare HTTP round trips asking the
//       doubles the same questions (the doubles' share of the CPU is in both).
//       On PostgreSQL the cluster's CPU over the pass is printed beside it.
// Books are made new each run: bench/.data-connectors (SQLite) and database
// bench_connectors of the bench's cluster (bench/.data-pg). Sizes:
// BENCH_FEED_ROWS (10,000), BENCH_CONNECTORS (200), BENCH_ROUNDS (3),
// BENCH_ENGINES=sqlite,postgres (the default: both).
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DeskContext } from '../src/main/desk/operation';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { syncDueConnectors } from '../src/main/jobs/connector-sync';
import { createOrganization, deskActor, openLedger, type Ledger, type Organization } from '../src/main/ledger';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { ledgerFile } from '../src/main/paths';
import { epoch, SimplefinDouble, type SfinTransaction } from '../test/doubles/simplefin';
import { startCluster, type BenchCluster } from './postgres-cluster';
import { sampleCpu } from './postgres-cpu';

const root = join(import.meta.dirname, '..');
const ROWS = Number(process.env.BENCH_FEED_ROWS ?? 10_000);
const CONNECTORS = Number(process.env.BENCH_CONNECTORS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const engines = new Set((process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(','));
const folder = resolve(root, 'bench', '.data-connectors');
const DAY = 86_400_000;
const en = (n: number) => n.toLocaleString('en');
// A server keeps its sealed credentials with the key IT gives it; the benchmark makes one for its run.
process.env.LEDGERDESK_SECRET_KEY ||= randomBytes(32).toString('base64');

const MERCHANTS = ['CARD PAYMENT TO TESCO STORES', 'AMAZON MKTPLACE PMTS', 'DIRECT DEBIT VODAFONE', 'FASTER PAYMENT FROM J SMITH', 'UBER TRIP', 'PRET A MANGER', 'SHELL OIL'];
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `n` booked rows over the last `days` days (inside the first sync's 90), the same every run. */
function feedRows(n: number, days: number, prefix = 'r'): SfinTransaction[] {
  const today = Date.parse(`${isoDay(Date.now())}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${String(i).padStart(7, '0')}`,
    posted: epoch(isoDay(today - (days - Math.floor((i * days) / n)) * DAY)),
    amount: ((((i * 7919) % 20000) - 15000) / 100).toFixed(2),
    description: `${MERCHANTS[i % MERCHANTS.length]} ${(i * 31) % 9973}`,
  }));
}

/** The same rows as a bank's OFX statement (one transaction a line, FITID the bank's id). */
function writeOfx(file: string, rows: SfinTransaction[]): void {
  const day = (t: SfinTransaction) => new Date(t.posted * 1000).toISOString().slice(0, 10).replaceAll('-', '');
  const body = rows.map(
    (t) => `<STMTTRN><TRNTYPE>${t.amount.startsWith('-') ? 'DEBIT' : 'CREDIT'}<DTPOSTED>${day(t)}120000<TRNAMT>${t.amount}<FITID>${t.id}<NAME>${t.description}</STMTTRN>`,
  );
  writeFileSync(
    file,
    `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD\n<BANKACCTFROM><BANKID>121000248<ACCTID>55443322<ACCTTYPE>CHECKING</BANKACCTFROM>\n<BANKTRANLIST><DTSTART>${day(rows[0])}<DTEND>${day(rows.at(-1)!)}\n${body.join('\n')}\n</BANKTRANLIST><LEDGERBAL><BALAMT>0.00<DTASOF>${day(rows.at(-1)!)}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`,
  );
}

/** A desk operation as the owner commands run it; a refusal thrown. */
async function desk<T>(ctx: DeskContext, org: Organization, name: string, input: Record<string, unknown> = {}): Promise<T> {
  const answer = await runDesk(ctx, name, { orgId: org.id, ...input }, (m) => console.error(m));
  if ('error' in answer) throw new Error(`${name}: ${answer.error.code}: ${answer.error.message}`);
  return answer.data as T;
}

/** A new organization with an empty checking account "Bank". */
async function newBooks(ctx: DeskContext, slug: string): Promise<Organization> {
  const org = await ctx.ledger.forOrg('all', () => createOrganization(ctx.ledger, { slug, name: slug, currency: 'USD' }));
  await desk(ctx, org, 'createAccount', { name: 'Bank', type: 'checking' });
  return org;
}

const seconds = (start: number) => (performance.now() - start) / 1000;
const cpuSeconds = (before: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1e6;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** (a): the first sync and the OFX import of the same rows, alternating, each into new books. */
async function firstSync(ctx: DeskContext, engine: string): Promise<string[]> {
  const rows = feedRows(ROWS, 80);
  const bank = await SimplefinDouble.start();
  bank.account('big', 'Checking').transactions.push(...rows);
  const ofx = join(folder, `statement-${ROWS}.ofx`);
  writeOfx(ofx, rows);
  const sync: number[] = [];
  const imported: number[] = [];
  const fed: Organization[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const timeSync = async () => {
        const org = await newBooks(ctx, `feed-${round}`);
        fed.push(org);
        await desk(ctx, org, 'addSimplefinConnector', { name: 'Bank feed', setupToken: bank.setupToken(), account: 'Bank' });
        const start = performance.now();
        const report = await desk<{ outcome: string; accounts: { imported: number }[] }>(ctx, org, 'syncConnector', { connector: 'Bank feed' });
        sync.push(seconds(start));
        if (report.outcome !== 'ok' || report.accounts[0]?.imported !== ROWS) throw new Error(`the first sync wrote ${JSON.stringify(report)}`);
      };
      const timeImport = async () => {
        const org = await newBooks(ctx, `ofx-${round}`);
        const start = performance.now();
        const result = await desk<{ imported: number }>(ctx, org, 'importStatement', { file: ofx, account: 'Bank', format: 'ofx' });
        imported.push(seconds(start));
        if (result.imported !== ROWS) throw new Error(`the OFX import wrote ${result.imported} rows`);
      };
      // Alternating which goes first: neither always meets the warmer cache.
      if (round % 2) await timeImport().then(timeSync);
      else await timeSync().then(timeImport);
    }
    // Disconnected (their rows stay): the schedule's pass below is over its own connectors only.
    for (const org of fed) await desk(ctx, org, 'removeConnector', { connector: 'Bank feed' });
  } finally {
    await bank.close();
  }
  const [s, i] = [median(sync), median(imported)];
  return [
    `| ${engine}: first sync of ${en(ROWS)} rows from SimpleFIN (loopback HTTP) | ${s.toFixed(2)} s | ${(s / i).toFixed(2)}x the OFX import (target ≤ 1.3x) | ${sync.map((x) => x.toFixed(2)).join(', ')} |`,
    `| ${engine}: OFX import of the same ${en(ROWS)} rows (baseline) | ${i.toFixed(2)} s | | ${imported.map((x) => x.toFixed(2)).join(', ')} |`,
  ];
}

/** (b): CONNECTORS organizations, each with a connector to its own double, synced once; then a pass with nothing new. */
async function scheduledPass(ctx: DeskContext, engine: string, cluster?: BenchCluster): Promise<string[]> {
  const doubles: SimplefinDouble[] = [];
  try {
    for (let i = 0; i < CONNECTORS; i++) {
      const bank = await SimplefinDouble.start();
      bank.account('acc', 'Checking').transactions.push(...feedRows(5, 10, `c${i}-`));
      doubles.push(bank);
      const org = await newBooks(ctx, `client-${i}`);
      await desk(ctx, org, 'addSimplefinConnector', { name: 'Bank feed', setupToken: bank.setupToken(), account: 'Bank' });
      await desk(ctx, org, 'syncConnector', { connector: 'Bank feed' });
    }
    // The schedule's next pass, once every connector's interval (6 hours) has gone by: each is due, none has anything new.
    const later = new Date(Date.now() + 7 * 3_600_000);
    const pgBefore = cluster ? sampleCpu([], cluster.postmaster()) : null;
    const cpu = process.cpuUsage();
    const start = performance.now();
    const synced = await syncDueConnectors(ctx.ledger, later);
    const [passCpu, passWall] = [cpuSeconds(cpu), seconds(start)];
    const pgAfter = cluster ? sampleCpu([], cluster.postmaster()) : null;
    if (synced !== CONNECTORS) throw new Error(`the pass synced ${synced} connectors, not ${CONNECTORS}`);

    // The bare baseline: the same questions to the same doubles (the pass's window: its last 14 days on), nothing else.
    const from = Math.floor((Date.now() - 14 * DAY) / 1000);
    const until = Math.floor((later.getTime() + DAY) / 1000);
    const bareCpu = process.cpuUsage();
    const bareStart = performance.now();
    for (const bank of doubles) {
      const url = new URL(`${bank.base}/simplefin/accounts?account=acc&start-date=${from}&end-date=${until}&pending=1`);
      const res = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${bank.user}:${bank.password}`).toString('base64')}` } });
      if ((await res.json()).accounts.length !== 1) throw new Error('the double did not answer its account');
    }
    const [bare, bareWall] = [cpuSeconds(bareCpu), seconds(bareStart)];
    const pg = pgBefore && pgAfter ? `; PostgreSQL ${(pgAfter.postgres - pgBefore.postgres).toFixed(2)} s` : '';
    return [
      `| ${engine}: scheduled pass over ${en(CONNECTORS)} connectors, nothing new | ${passCpu.toFixed(2)} s CPU (wall ${passWall.toFixed(2)} s${pg}) | target < 2 s CPU; ${(passCpu / bare).toFixed(1)}x the bare round trips | |`,
      `| ${engine}: ${en(CONNECTORS)} bare HTTP round trips to the doubles (baseline) | ${bare.toFixed(2)} s CPU (wall ${bareWall.toFixed(2)} s) | | |`,
    ];
  } finally {
    await Promise.all(doubles.map((d) => d.close()));
  }
}

async function measure(ledger: Ledger, engine: string, cluster?: BenchCluster): Promise<string[]> {
  const ctx: DeskContext = { ledger, dataDir: folder, agentUrl: '', mode: 'command', reviewer: deskActor() };
  return [...(await firstSync(ctx, engine)), ...(await scheduledPass(ctx, engine, cluster))];
}

async function main() {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const lines = ['| what | time | against its baseline | each round |', '|---|---|---|---|'];
  if (engines.has('sqlite')) {
    const ledger = openLedger(ledgerFile(folder));
    try {
      lines.push(...(await measure(ledger, 'SQLite')));
    } finally {
      ledger.close();
    }
  }
  if (engines.has('postgres')) {
    const cluster = startCluster(resolve(root, process.env.BENCH_PG_DATA ?? join('bench', '.data-pg')));
    try {
      cluster.psql('postgres', 'DROP DATABASE IF EXISTS bench_connectors');
      cluster.psql('postgres', 'CREATE DATABASE bench_connectors');
      // As a server runs: its role, bound by row-level security.
      const ledger = await openPostgres(cluster.urlOf('bench_connectors'));
      try {
        lines.push(...(await measure(ledger, 'PostgreSQL', cluster)));
      } finally {
        await ledger.end();
      }
    } finally {
      cluster.stop();
    }
  }
  console.log(`\nIssue 52: connectors (${ROUNDS} rounds of the first sync, medians; the pass once)\n`);
  for (const line of lines) console.log(line);
  rmSync(folder, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
