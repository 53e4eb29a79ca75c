// `npm run bench` (third part): the balance sheet, the trial balance, the
// profit and loss (twelve months, by month), the balances and the general
// ledger (first and deep page) over an organization of 1,000,000
// transactions (a fifth of them split, one in twenty a transfer), in
// process, after warm-up: median and 99th percentile of 300 runs each.
// Uses the import benchmark's base folder (bench/.data-books), made if missing.
import { join } from 'node:path';
import { balancesAt, balanceSheet, createOrganization, findOrganization, generalLedger, openLedger, profitAndLoss, trialBalance } from '../src/main/ledger';
import { ledgerFile } from '../src/main/paths';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';
import { percentiles, timedRow } from './timing';

const base = join(import.meta.dirname, '.data-books');
const N = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const ledger = openLedger(ledgerFile(base));
let org = await findOrganization(ledger, 'bench');
if (!org) {
  org = await createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd' });
  console.log(`Loading ${N.toLocaleString('en')} demo transactions into ${base} ...`);
  await fillDemo(ledger, org.seq, org.slug, N, org.currency, BENCH_SHAPE);
}
const rows = (ledger.sqlite.prepare('SELECT coalesce(sum(n), 0) AS n FROM transaction_status_counts WHERE org_seq = ?').get(org.seq) as { n: number }).n;

const time = async (name: string, fn: () => unknown): Promise<string> => timedRow(name, await percentiles(fn, 300, 50), '5 ms');

const seq = org.seq;
const bank = ledger.sqlite.prepare("SELECT seq FROM accounts WHERE org_seq = ? AND name = 'Operating account'").pluck().get(seq);
const bareDeepPage = ledger.sqlite.prepare('SELECT seq FROM transactions WHERE account_seq = ? ORDER BY date, amount_minor, seq LIMIT 50 OFFSET ?');
const table = [
  await time('profit and loss, 2025-07-01 to 2026-06-30, by month', () => profitAndLoss(ledger, seq, { from: '2025-07-01', to: '2026-06-30', byMonth: true })),
  await time('profit and loss, the whole three years, in total', () => profitAndLoss(ledger, seq, { from: '2023-07-01', to: '2026-06-30' })),
  await time('balances of every account at 2025-12-31', () => balancesAt(ledger, seq, '2025-12-31')),
  await time('balance sheet at 2026-03-17', () => balanceSheet(ledger, seq, { date: '2026-03-17' })),
  await time('trial balance, 2025-07-01 to 2026-03-17', () => trialBalance(ledger, seq, { from: '2025-07-01', to: '2026-03-17' })),
  await time('general ledger of 5300, first page of 50', () => generalLedger(ledger, seq, { account: '5300', limit: 50, offset: 0 })),
  await time('general ledger of 5300 (90,511 lines), page at offset 90,000', () => generalLedger(ledger, seq, { account: '5300', limit: 50, offset: 90_000 })),
  await time('general ledger of 5000 (its largest category), page at offset 230,000', () => generalLedger(ledger, seq, { account: '5000', limit: 50, offset: 230_000 })),
  await time('general ledger of the bank account, page at offset 300,000', () => generalLedger(ledger, seq, { account: 'Operating account', limit: 50, offset: 300_000 })),
  await time('general ledger of suspense (uncategorized rows), page at offset 300,000', () => generalLedger(ledger, seq, { account: 'suspense', limit: 50, offset: 300_000 })),
  // Baseline: SQLite alone reading the same deep page's keys from the account's index by skipping (what the ledger did before).
  timedRow('bare SQLite: 50 keys at offset 300,000 of the bank account’s index (baseline)', await percentiles(() => bareDeepPage.all(bank, 300_000), 300, 50), ''),
];
console.log(`\nReports over ${rows.toLocaleString('en')} transactions (in process, 300 runs after 50 warm-up):\n`);
console.log('| report | p50 | p99 | target p50 |\n|---|---:|---:|---|');
console.log(table.join('\n'));
ledger.close();
