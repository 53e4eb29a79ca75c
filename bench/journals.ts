// `npm run bench:journals`: issue 43's targets. (1) The opening entry of a
// takeover with 10,000 open invoices (500 customers) and a few lines, set in
// one write as `opening-balances set` does, on a fresh folder each run
// (bench/.data-opening), beside the bare SQLite insert of the same documents
// and postings. (2) The trial balance and the balance sheet over an
// organization of 1,000,000 transactions (the reports bench's shape) with
// 100,000 manual journals (a tenth with a money account's line), in process,
// after warm-up: median and 99th percentile of 300 runs, beside SQLite alone
// summing the same month and day totals. Its books are made once in
// bench/.data-journals (a few minutes) and reused.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as L from '../src/main/ledger';
import { ledgerFile } from '../src/main/paths';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';
import { percentiles, timedRow } from './timing';

const me = L.deskActor();

async function openingEntry(): Promise<string[]> {
  const base = join(import.meta.dirname, '.data-opening');
  rmSync(base, { recursive: true, force: true });
  const ledger = L.openLedger(ledgerFile(base));
  const org = await L.createOrganization(ledger, { slug: 'takeover', name: 'Takeover Ltd', currency: 'GBP' });
  await L.createAccount(ledger, org.seq, me, { name: 'Current', type: 'checking' });
  await L.addCategory(ledger, org.seq, me, { code: '3000', name: 'Share capital', type: 'equity' });
  await ledger.write(async () => {
    for (let c = 0; c < 500; c++) await L.addContact(ledger, org.seq, me, { name: `Customer ${c}`, customer: true, termsDays: 30 });
  });
  const invoices = Array.from({ length: 10_000 }, (_, i) => ({
    number: `OLD-${String(i).padStart(5, '0')}`,
    contact: `Customer ${i % 500}`,
    date: new Date(Date.UTC(2026, 0, 1) + (i % 180) * 86_400_000).toISOString().slice(0, 10),
    outstanding: `${100 + (i % 900)}.${String(i % 100).padStart(2, '0')}`,
  }));
  let t = performance.now();
  await L.setOpeningBalances(ledger, org.seq, me, {
    date: '2026-07-01',
    lines: [
      { account: 'Current', amount: '25000' },
      { account: '3000', amount: '-100' },
    ],
    invoices,
    balanceToEquity: true,
  });
  const seconds = (performance.now() - t) / 1000;
  // Set again as the screen saves it: every invoice given as it is (none written again), one line changed.
  t = performance.now();
  await L.setOpeningBalances(ledger, org.seq, me, {
    date: '2026-07-01',
    lines: [
      { account: 'Current', amount: '25500' },
      { account: '3000', amount: '-100' },
    ],
    invoices,
    balanceToEquity: true,
  });
  const again = (performance.now() - t) / 1000;
  const bare = L.openLedger(':memory:');
  bare.sqlite.exec('CREATE TABLE d AS SELECT * FROM documents WHERE 0; CREATE TABLE p AS SELECT * FROM postings WHERE 0;');
  t = performance.now();
  bare.sqlite.transaction(() => {
    const insD = bare.sqlite.prepare(
      "INSERT INTO d (seq, id, org_seq, kind, state, contact_seq, number, issue_date, due_date, currency, net_minor, tax_minor, total_minor, created_at) VALUES (?, ?, 1, 'invoice', 'issued', 1, ?, ?, ?, 'GBP', 1, 0, 1, '')",
    );
    const insP = bare.sqlite.prepare("INSERT INTO p (document_seq, org_seq, kind, date, currency, amount_minor) VALUES (?, 1, ?, '2026-07-01', 'GBP', 100)");
    invoices.forEach((inv, i) => {
      insD.run(i + 1, `id-${i}`, inv.number, inv.date, inv.date);
      insP.run(i + 1, 'receivable');
      insP.run(i + 1, 'opening');
    });
  })();
  const bareSeconds = (performance.now() - t) / 1000;
  const shown = await L.showOpeningBalances(ledger, org.seq);
  ledger.close();
  return [
    `| the opening entry with ${shown.invoices.length.toLocaleString('en')} open invoices (500 customers) and 2 lines, set in one write | ${seconds.toFixed(2)} s | 5 s |`,
    `| the same entry set again (the invoices given as they are, a line changed) | ${again.toFixed(2)} s | 5 s |`,
    `| bare SQLite insert of the same documents and postings (one transaction) | ${bareSeconds.toFixed(2)} s | - |`,
  ];
}

/** 100,000 journals over the demo's three years: two categories each, one in ten with the bank account's line. */
async function addJournals(ledger: L.Ledger, orgSeq: number, count: number): Promise<void> {
  if (!(await L.chartRows(ledger, orgSeq)).some((c) => c.code === '2300')) await L.addCategory(ledger, orgSeq, me, { code: '2300', name: 'Accruals', type: 'liability' });
  const started = Date.UTC(2023, 6, 1);
  await ledger.write(async () => {
    for (let i = 0; i < count; i++) {
      const date = new Date(started + (i % 1095) * 86_400_000).toISOString().slice(0, 10);
      const amount = (10 + (i % 500)).toFixed(2);
      const other = i % 10 === 0 ? 'Operating account' : i % 3 === 0 ? '5300' : '2300';
      await L.addJournal(ledger, orgSeq, me, {
        date,
        narration: `Accrual ${i}`,
        lines: [
          { account: '5200', amount },
          { account: other, amount: `-${amount}` },
        ],
      });
    }
  });
}

async function trialBalance(): Promise<string[]> {
  const base = join(import.meta.dirname, '.data-journals');
  const ledger = L.openLedger(ledgerFile(base));
  let org = await L.findOrganization(ledger, 'bench');
  if (!org) {
    org = await L.createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd' });
    console.log(`Loading 1,000,000 demo transactions into ${base} ...`);
    await fillDemo(ledger, org.seq, org.slug, 1_000_000, org.currency, BENCH_SHAPE);
  }
  const seq = org.seq;
  const have = ledger.sqlite.prepare("SELECT count(*) FROM journals WHERE org_seq = ? AND kind = 'journal'").pluck().get(seq) as number;
  if (have < 100_000) {
    console.log(`Entering ${(100_000 - have).toLocaleString('en')} journals ...`);
    const t = performance.now();
    await addJournals(ledger, seq, 100_000 - have);
    console.log(`  ${((performance.now() - t) / 1000).toFixed(1)} s (each as \`journal add\` enters it: checked, numbered, audited)`);
  }
  const rows = ledger.sqlite.prepare('SELECT coalesce(sum(n), 0) FROM transaction_status_counts WHERE org_seq = ?').pluck().get(seq) as number;
  const journals = ledger.sqlite.prepare("SELECT count(*) FROM journals WHERE org_seq = ? AND kind = 'journal'").pluck().get(seq) as number;
  // SQLite alone: the month totals of the whole months and the day totals of the days at the ends, summed per kind and category.
  const bare = ledger.sqlite.prepare(
    `SELECT kind, category_seq, sum(s) FROM (
       SELECT kind, category_seq, sum_minor AS s FROM line_month_totals WHERE org_seq = ? AND month BETWEEN '2025-07' AND '2026-02'
       UNION ALL SELECT kind, category_seq, sum_minor FROM line_day_totals WHERE org_seq = ? AND date BETWEEN '2026-03-01' AND '2026-03-17') GROUP BY kind, category_seq`,
  );
  const time = async (name: string, fn: () => unknown, target: string) => timedRow(name, await percentiles(fn, 300, 50), target);
  const table = [
    await time('trial balance, 2025-07-01 to 2026-03-17', () => L.trialBalance(ledger, seq, { from: '2025-07-01', to: '2026-03-17' }), '5 ms'),
    await time('balance sheet at 2026-03-17', () => L.balanceSheet(ledger, seq, { date: '2026-03-17' }), '5 ms'),
    await time('bare SQLite: the period’s month and day totals summed per account (baseline)', () => bare.all(seq, seq), ''),
  ];
  ledger.close();
  return [
    `Over ${rows.toLocaleString('en')} transactions and ${journals.toLocaleString('en')} journals (in process, 300 runs after 50 warm-up):`,
    '',
    '| report | p50 | p99 | target p50 |',
    '|---|---:|---:|---|',
    ...table,
  ];
}

const opening = await openingEntry();
console.log(`\nJournals and opening balances (${new Date().toISOString().slice(0, 10)})\n`);
console.log('| what | figure | target |\n|---|---|---|');
console.log(opening.join('\n'));
console.log(`\n${(await trialBalance()).join('\n')}`);
