// The reads of issue 44's first target, timed on both engines in process as the
// server runs them: on PostgreSQL through an openPostgres ledger with the
// default role (ledgerdesk_app, bound by row-level security) inside
// forOrg(org), each read in its own REPEATABLE READ snapshot as the domain takes
// it; on SQLite through openLedger. Median and 99th percentile of 300 runs after
// 50 warm-up (BENCH_RUNS), PostgreSQL's and SQLite's of a read one after the other;
// and, given, the same PostgreSQL books through PgBouncer in transaction
// pooling (issue 51), timed in turns with the direct connection run by run
// (a loaded machine weighs on both alike), the ratio of their medians beside.
// Deep offsets are the reports benchmark's, scaled to the books' size (a small
// run reads as deep into its books as the full one).
import { balancesAt, balanceSheet, dashboardSummary, generalLedger, listTransactions, profitAndLoss, trialBalance, type Ledger } from '../src/main/ledger';
import { pairedPercentiles, percentiles } from './timing';
import { roundTrips, type Hop } from './postgres-hop';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
/** A read slower than this on its first call is timed fewer times, so that one slow read does not hold the run for minutes. */
const SLOW_MS = 50;

interface Read {
  name: string;
  run: (ledger: Ledger, seq: number) => Promise<unknown>;
}

/** The reads over books of n transactions (offsets as deep, in proportion, as over 1,000,000). */
export function readsOf(n: number): Read[] {
  const deep = (at: number) => Math.round((at * n) / 1_000_000);
  const en = (x: number) => x.toLocaleString('en');
  return [
    { name: 'listTransactions, first page of 50', run: (l, s) => listTransactions(l, s, { limit: 50, offset: 0 }) },
    { name: `listTransactions, page at offset ${en(deep(300_000))}`, run: (l, s) => listTransactions(l, s, { limit: 50, offset: deep(300_000) }) },
    { name: 'listTransactions, status uncategorized', run: (l, s) => listTransactions(l, s, { status: 'uncategorized', limit: 50, offset: 0 }) },
    { name: 'listTransactions, description "figma"', run: (l, s) => listTransactions(l, s, { description: 'figma', limit: 50, offset: 0 }) },
    { name: 'dashboardSummary', run: (l, s) => dashboardSummary(l, s) },
    { name: 'profit and loss, 2025-07-01 to 2026-06-30, by month', run: (l, s) => profitAndLoss(l, s, { from: '2025-07-01', to: '2026-06-30', byMonth: true }) },
    { name: 'profit and loss, 2023-07-01 to 2026-06-30 (three years), by month', run: (l, s) => profitAndLoss(l, s, { from: '2023-07-01', to: '2026-06-30', byMonth: true }) },
    { name: 'balances of every account at 2025-12-31', run: (l, s) => balancesAt(l, s, '2025-12-31') },
    { name: 'balance sheet at 2026-03-17', run: (l, s) => balanceSheet(l, s, { date: '2026-03-17' }) },
    { name: 'trial balance, 2025-07-01 to 2026-03-17', run: (l, s) => trialBalance(l, s, { from: '2025-07-01', to: '2026-03-17' }) },
    { name: 'general ledger of 5300, first page of 50', run: (l, s) => generalLedger(l, s, { account: '5300', limit: 50, offset: 0 }) },
    {
      name: `general ledger of 5300, page at offset ${en(deep(90_000))}`,
      run: (l, s) => generalLedger(l, s, { account: '5300', limit: 50, offset: deep(90_000) }),
    },
    {
      name: `general ledger of the bank account, page at offset ${en(deep(300_000))}`,
      run: (l, s) => generalLedger(l, s, { account: 'Operating account', limit: 50, offset: deep(300_000) }),
    },
  ];
}

interface Timed {
  p50: number;
  p99: number;
  runs: number;
}

/** One read on one engine's books: RUNS after 50 warm-up, or 50 after 5 when its first call took over SLOW_MS. */
async function timed(ledger: Ledger, seq: number, read: Read): Promise<Timed> {
  return ledger.forOrg(seq, async () => {
    const started = performance.now();
    await read.run(ledger, seq);
    const slow = performance.now() - started > SLOW_MS;
    const runs = slow ? Math.min(50, RUNS) : RUNS;
    return { ...(await percentiles(() => read.run(ledger, seq), runs, slow ? 5 : 50)), runs };
  });
}

/** One read on the same PostgreSQL books over several connections (direct first), timed in turns (pairedPercentiles). */
async function timedInTurns(books: Books[], read: Read): Promise<Timed[]> {
  const inOrgs = (i: number, fn: () => Promise<Timed[]>): Promise<Timed[]> => (i === books.length ? fn() : books[i].ledger.forOrg(books[i].seq, () => inOrgs(i + 1, fn)));
  return inOrgs(0, async () => {
    const started = performance.now();
    await read.run(books[0].ledger, books[0].seq);
    const slow = performance.now() - started > SLOW_MS;
    const runs = slow ? Math.min(50, RUNS) : RUNS;
    const timings = await pairedPercentiles(
      books.map((b) => () => read.run(b.ledger, b.seq)),
      runs,
      slow ? 5 : 50,
    );
    return timings.map((t) => ({ ...t, runs }));
  });
}

const ms = (t: number) => `${t.toFixed(2)} ms`;

type Books = { ledger: Ledger; seq: number };

/**
 * The Markdown table: each read's PostgreSQL and SQLite p50/p99 side by side, and the ratio of the medians; with
 * `pooled` (the same PostgreSQL books through PgBouncer in transaction pooling, issue 51), its p50/p99 and its
 * median against the direct connection's (target within 1.3x); with `asPooled` (the same books directly, but as
 * the driver runs behind a pooler: each transaction's first statement unnamed, the next ones prepared per server
 * session, pooled.ts), its median against the direct one's: what the pooled way of running statements costs, the
 * rest of PgBouncer's figure being its extra hop; with `hop` (a bare round trip's extra cost through the pooler,
 * postgres-hop.ts), the read's round trips and its floor: the direct median plus that extra cost per round trip,
 * against the direct median (what no driver could go under through this pooler on this machine).
 */
export async function compareReads(n: number, postgres: Books, sqlite: Books, pooled?: Books, asPooled?: Books, hop?: Hop): Promise<string> {
  const head = ['| read | PostgreSQL p50 | PostgreSQL p99 | SQLite p50 | SQLite p99 | p50 ratio | target p50 |', '|---|---:|---:|---:|---:|---:|---|'];
  if (pooled) {
    head[0] += ' via PgBouncer p50 | via PgBouncer p99 | PgBouncer / direct p50 (target 1.3x) |';
    head[1] += '---:|---:|---:|';
  }
  if (pooled && asPooled) {
    head[0] += ' direct as pooled / direct p50 |';
    head[1] += '---:|';
  }
  if (pooled && hop) {
    head[0] += ' round trips | bare floor via PgBouncer |';
    head[1] += '---:|---:|';
  }
  const lines = [...head];
  let fewer = false;
  const mark = (t: Timed) => (t.runs < RUNS ? ' †' : '');
  for (const read of readsOf(n)) {
    console.log(`reads: ${read.name}`);
    // Through PgBouncer, timed in turns with the direct connection: their ratio is the figure.
    const [pg, via, planned] = pooled ? await timedInTurns(asPooled ? [postgres, pooled, asPooled] : [postgres, pooled], read) : [await timed(postgres.ledger, postgres.seq, read)];
    const lite = await timed(sqlite.ledger, sqlite.seq, read);
    fewer ||= pg.runs < RUNS || lite.runs < RUNS || (via ? via.runs < RUNS : false);
    let line = `| ${read.name} | ${ms(pg.p50)}${mark(pg)} | ${ms(pg.p99)} | ${ms(lite.p50)}${mark(lite)} | ${ms(lite.p99)} | ${(pg.p50 / lite.p50).toFixed(1)}x | 5 ms |`;
    if (via) line += ` ${ms(via.p50)}${mark(via)} | ${ms(via.p99)} | ${(via.p50 / pg.p50).toFixed(2)}x |`;
    if (via && planned) line += ` ${(planned.p50 / pg.p50).toFixed(2)}x |`;
    if (via && pooled && hop) {
      const trips = await pooled.ledger.forOrg(pooled.seq, () => roundTrips(() => read.run(pooled.ledger, pooled.seq)));
      line += ` ${trips} | ${((pg.p50 + trips * hop.extra) / pg.p50).toFixed(2)}x |`;
    }
    lines.push(line);
  }
  if (fewer) lines.push('', `† slower than ${SLOW_MS} ms on its first call: ${Math.min(50, RUNS)} runs after 5 warm-up.`);
  return lines.join('\n');
}
