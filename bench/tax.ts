// `npm run bench:tax`: the tax return of a quarter over an organization of
// 1,000,000 transactions (a fifth split, one in twenty a transfer, every
// categorized row taxed at its category's default UK VAT code), in process,
// after warm-up: median and 99th percentile. Its own folder
// (bench/.data-tax), made once. Figures only: nothing here asserts a time.
import { join } from 'node:path';
import { createOrganization, deskActor, findOrganization, openLedger, setCategoryTax, setupTaxSet, taxAudit, taxReturn } from '../src/main/ledger';
import { ledgerFile } from '../src/main/paths';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';
import { percentiles, timedRow } from './timing';

const base = join(import.meta.dirname, '.data-tax');
const N = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const ledger = openLedger(ledgerFile(base));
let org = await findOrganization(ledger, 'bench');
if (!org) {
  org = await createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd', currency: 'GBP' });
  await setupTaxSet(ledger, org.seq, deskActor(), 'uk-vat');
  for (const [category, code] of [
    ['4000', 'S'],
    ['4010', 'Z'],
    ['5000', 'E'],
    ['5100', 'S'],
    ['5200', 'R'],
    ['5300', 'RC'],
  ])
    await setCategoryTax(ledger, org.seq, deskActor(), category, code);
  console.log(`Loading ${N.toLocaleString('en')} taxed demo transactions into ${base} ...`);
  const started = performance.now();
  await fillDemo(ledger, org.seq, org.slug, N, org.currency, { ...BENCH_SHAPE, tax: true });
  console.log(`loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const seq = org.seq;

const time = async (name: string, runs: number, fn: () => unknown): Promise<string> => timedRow(name, await percentiles(fn, runs, 10), '50 ms');

const quarter = { from: '2025-10-01', to: '2025-12-31' };
const lines = ledger.sqlite
  .prepare("SELECT count(*) FROM lines WHERE org_seq = ? AND tax_code_seq IS NOT NULL AND kind = 'category' AND date BETWEEN ? AND ?")
  .pluck()
  .get(seq, quarter.from, quarter.to);
const table = [
  await time('tax return, 2025-10-01 to 2025-12-31', 100, () => taxReturn(ledger, seq, quarter)),
  await time('tax audit, box 4, first page of 100', 50, () => taxAudit(ledger, seq, { ...quarter, box: '4', limit: 100, offset: 0 })),
];
console.log(`\nThe tax return over ${N.toLocaleString('en')} transactions (${String(lines)} taxed lines in the quarter; in process, after 10 warm-up runs):\n`);
console.log('| report | p50 | p99 | target p50 |\n|---|---:|---:|---|');
console.log(table.join('\n'));
ledger.close();
