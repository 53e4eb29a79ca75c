// `npm run bench` (third part): the profit and loss (twelve months, by month)
// and the balances over an organization of 1,000,000 transactions, in
// process, after warm-up: median and 99th percentile of 300 runs each.
// Uses the import benchmark's base folder (bench/.data-import), made if missing.
import { join } from 'node:path';
import { balancesAt, createOrganization, findOrganization, openLedger, profitAndLoss } from '../src/main/ledger';
import { ledgerFile } from '../src/main/paths';
import { fillDemo } from '../src/main/demo';

const base = join(import.meta.dirname, '.data-import');
const N = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const ledger = openLedger(ledgerFile(base));
let org = findOrganization(ledger, 'bench');
if (!org) {
  org = createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd' });
  console.log(`Loading ${N.toLocaleString('en')} demo transactions into ${base} ...`);
  fillDemo(ledger, org.seq, org.slug, N, org.currency);
}
const rows = (ledger.sqlite.prepare('SELECT coalesce(sum(n), 0) AS n FROM transaction_status_counts WHERE org_seq = ?').get(org.seq) as { n: number }).n;

function time(name: string, fn: () => unknown): string {
  for (let i = 0; i < 50; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return `| ${name} | ${samples[149].toFixed(2)} ms | ${samples[296].toFixed(2)} ms | 5 ms |`;
}

const seq = org.seq;
const table = [
  time('profit and loss, 2025-07-01 to 2026-06-30, by month', () => profitAndLoss(ledger, seq, { from: '2025-07-01', to: '2026-06-30', byMonth: true })),
  time('profit and loss, the whole three years, in total', () => profitAndLoss(ledger, seq, { from: '2023-07-01', to: '2026-06-30' })),
  time('balances of every account at 2025-12-31', () => balancesAt(ledger, seq, '2025-12-31')),
];
console.log(`\nReports over ${rows.toLocaleString('en')} transactions (in process, 300 runs after 50 warm-up):\n`);
console.log('| report | p50 | p99 | target p50 |\n|---|---:|---:|---|');
console.log(table.join('\n'));
ledger.close();
