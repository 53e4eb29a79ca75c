// `npm run bench:currencies` (issue 30): importing the ECB's reference-rate
// history (27 years of business days, 41 currencies and 4 retired ones, as the
// ECB publishes it: newest first, N/A where a currency has no rate) into a USD
// organization, so every rate is a cross rate through the euro; beside it the
// bare SQLite insert of as many rate rows in the same run. Then the profit and
// loss and the balance sheet in the base currency over 1,000,000 transactions
// in USD, EUR and GBP (its own folder, bench/.data-currencies, made once), in
// process after warm-up: median and 99th percentile. Figures only: nothing
// here asserts a time.
import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as L from '../src/main/ledger';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';
import { ledgerFile } from '../src/main/paths';
import { addDays } from '../src/shared/dates';
import { percentiles, timedRow } from './timing';

const N = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const CURRENCIES = 'USD,JPY,BGN,CZK,DKK,GBP,HUF,PLN,RON,SEK,CHF,ISK,NOK,TRY,AUD,BRL,CAD,CNY,HKD,IDR,ILS,INR,KRW,MXN,MYR,NZD,PHP,SGD,THB,ZAR'.split(',');
const MORE = 'AED,ARS,CLP,COP,EGP,KWD,NGN,PKR,SAR,TWD,VND'.split(',');
const RETIRED = ['CYP', 'EEK', 'LTL', 'SIT'];

/** The ECB history file's text: a row per business day from 1999-01-04, newest first, a random walk per currency. */
function ecbHistory(): { text: string; values: number } {
  const codes = [...CURRENCIES, ...MORE, ...RETIRED];
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const level = codes.map(() => 0.5 + rand() * 150);
  const rows: string[] = [];
  let values = 0;
  for (let d = '1999-01-04'; d <= '2026-11-20'; d = addDays(d, 1)) {
    const day = new Date(`${d}T00:00:00Z`).getUTCDay();
    if (day === 0 || day === 6) continue;
    const cells = codes.map((c, i) => {
      level[i] *= 1 + (rand() - 0.5) / 100;
      if (RETIRED.includes(c) && d > '2010-12-31') return 'N/A';
      values++;
      return level[i].toPrecision(5);
    });
    rows.push(`${d},${cells.join(',')},`);
  }
  return { text: `Date,${codes.join(',')},\n${rows.reverse().join('\n')}\n`, values };
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const dir = join(import.meta.dirname, '.data-currencies');
const { text, values } = ecbHistory();
const days = text.split('\n').length - 2;

// The bare baseline: as many rate rows inserted into a keyed table, one transaction.
mkdirSync(dir, { recursive: true });
const bareFile = join(dir, 'bare.db');
rmSync(bareFile, { force: true });
const bare = new Database(bareFile);
bare.exec('CREATE TABLE rates (currency TEXT, date TEXT, rate TEXT, PRIMARY KEY (currency, date)) WITHOUT ROWID');
const bareTimes: number[] = [];
for (let run = 0; run < 3; run++) {
  bare.exec('DELETE FROM rates');
  const started = performance.now();
  const insert = bare.prepare('INSERT INTO rates VALUES (?, ?, ?)');
  bare.transaction(() => {
    for (let i = 0; i < values; i++) insert.run(CURRENCIES[i % CURRENCIES.length] + String(i % 97), String(i), '1.23456789012');
  })();
  bareTimes.push(performance.now() - started);
}
bare.close();

const ledger = L.openLedger(ledgerFile(dir));
const importTimes: number[] = [];
for (let run = 0; run < 3; run++) {
  const scratch = (await L.findOrganization(ledger, `rates-${run}`)) ?? (await L.createOrganization(ledger, { slug: `rates-${run}`, currency: 'USD' }));
  ledger.sqlite.prepare('DELETE FROM exchange_rates WHERE org_seq = ?').run(scratch.seq);
  const started = performance.now();
  await L.importRates(ledger, scratch.seq, L.deskActor(), text, { format: 'ecb' });
  importTimes.push(performance.now() - started);
}

let org = await L.findOrganization(ledger, 'bench');
if (!org) {
  org = await L.createOrganization(ledger, { slug: 'bench', name: 'Three currencies Ltd', currency: 'USD' });
  await L.importRates(ledger, org.seq, L.deskActor(), text, { format: 'ecb' });
  console.log(`Loading ${N.toLocaleString('en')} demo transactions in USD, EUR and GBP into ${dir} ...`);
  const started = performance.now();
  for (const currency of ['USD', 'EUR', 'GBP']) {
    await fillDemo(ledger, org.seq, `${org.slug}-${currency}`, Math.round(N / 3), currency, BENCH_SHAPE);
    // The demo accounts' names again for the next currency's: these keep theirs with the currency added.
    ledger.sqlite.prepare("UPDATE accounts SET name = name || ' ' || currency WHERE org_seq = ? AND currency = ?").run(org.seq, currency);
  }
  console.log(`loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const seq = org.seq;

const time = async (name: string, runs: number, fn: () => unknown, target: string): Promise<string> => timedRow(name, await percentiles(fn, runs, 10), target);

const to = (ledger.sqlite.prepare('SELECT max(date) FROM transactions WHERE org_seq = ?').pluck().get(seq) as string) ?? '2026-06-30';
const table = [
  `| ECB history import (${days.toLocaleString('en')} days, ${values.toLocaleString('en')} rates, cross rates in USD) | ${median(importTimes).toFixed(0)} ms | ${Math.max(...importTimes).toFixed(0)} ms (of 3) | 2,000 ms |`,
  `| bare SQLite insert of as many rate rows, same run | ${median(bareTimes).toFixed(0)} ms | ${Math.max(...bareTimes).toFixed(0)} ms (of 3) | baseline |`,
  await time('profit and loss in USD, the default twelve months', 200, () => L.profitAndLoss(ledger, seq), '5 ms'),
  await time('profit and loss in USD by month', 200, () => L.profitAndLoss(ledger, seq, { byMonth: true }), '5 ms'),
  await time(`balance sheet in USD at ${to}`, 200, () => L.balanceSheet(ledger, seq, { date: to }), '5 ms'),
  await time('profit and loss, the EUR rows only (--currency EUR)', 200, () => L.profitAndLoss(ledger, seq, { currency: 'EUR' }), '5 ms'),
];
console.log(`\nCurrencies over ${N.toLocaleString('en')} transactions in USD, EUR and GBP (in process, after 10 warm-up runs):\n`);
console.log('| what | p50 | p99 | target p50 |\n|---|---:|---:|---|');
console.log(table.join('\n'));
ledger.close();
