// `npm run bench` (second part): statement imports timed as a person runs
// them, `ledgerdesk import` as a child process, wall time and peak RSS measured
// from outside (as /usr/bin/time reports it: the largest resident size of the
// command and any process it starts), into a copy of an organization that
// already holds 1,000,000 transactions:
//   - a 1,000,000-row CSV (~50 MB) into a new account; the same file again;
//   - a 100,000-transaction OFX into the account it describes, and the same
//     transactions on one line (as some banks write it) into another;
//   - a 1,000,000-row CSV as banks and merged exports write it (a reference
//     unique to nearly every row, rows not in date order), beside a bare
//     SQLite insert of the same rows in the same run (bench/bare-insert.ts):
//     the import is judged by its ratio to that.
// The organization is the benchmark's books (a fifth split, one in twenty a
// transfer). Figures only: nothing here asserts a time.
import { copyFileSync, createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createOrganization, findOrganization, openLedger } from '../src/main/ledger';
import { ledgerFile } from '../src/main/paths';
import { dayOf, measured, outside, TIME, writeMerged } from './run-measured';
import { BENCH_SHAPE, fillDemo } from '../src/main/demo';

const root = join(import.meta.dirname, '..');
const base = join(root, 'bench', '.data-books');
const work = join(base, 'work');
const N = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const CSV_ROWS = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);
const OFX_ROWS = Number(process.env.BENCH_OFX_ROWS ?? 100_000);
const csvFile = join(base, `statement-${CSV_ROWS}.csv`);
const ofxFile = join(base, `statement-${OFX_ROWS}.ofx`);
const oneLineOfxFile = join(base, `statement-${OFX_ROWS}-one-line.ofx`);
const mergedFile = join(base, `merged-${CSV_ROWS}.csv`);

const MERCHANTS = [
  'CARD PAYMENT TO TESCO STORES',
  'AMAZON MKTPLACE PMTS',
  'DIRECT DEBIT VODAFONE',
  'FASTER PAYMENT FROM J SMITH',
  'UBER TRIP HELP.UBER.COM',
  'PRET A MANGER',
  'SHELL OIL',
  'GOOGLE CLOUD EMEA',
  'STRIPE PAYOUT',
  'TFL TRAVEL CH',
];

/** Rows spread over the same three years as the organization's: the new rows fall between the old ones. */
async function writeCsv(): Promise<void> {
  const out = createWriteStream(csvFile);
  out.write('Date,Description,Amount,Balance\n');
  let balance = 0;
  for (let i = 0; i < CSV_ROWS; i++) {
    const d = dayOf(i, CSV_ROWS);
    const amount = ((i * 7919) % 20000) - 15000;
    balance += amount;
    const line = `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()},${MERCHANTS[i % 10]} ${(i * 31) % 9973},${(amount / 100).toFixed(2)},${(balance / 100).toFixed(2)}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Runs node with these arguments, timed whole, with its peak RSS. */
const measuredNode = (args: string[]) => measured(process.execPath, args, join(base, 'peak-rss.txt'));

/** The bare insert of the merged file's rows: its own process, timed whole like the import. */
function bareInsert(): { seconds: number; rssMb: number } {
  return measuredNode(['--import', 'tsx', join(root, 'bench', 'bare-insert.ts'), mergedFile, join(work, 'bare.db')]);
}

/** The OFX as most banks write it, a transaction per line; or with its body on one line (another account), as some do. */
async function writeOfx(file: string, acctId: string, lineEnd: string): Promise<void> {
  const out = createWriteStream(file);
  out.write(
    `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD${lineEnd}<BANKACCTFROM><BANKID>121000248<ACCTID>${acctId}<ACCTTYPE>CHECKING</BANKACCTFROM>${lineEnd}<BANKTRANLIST><DTSTART>20230701<DTEND>20260630${lineEnd}`,
  );
  for (let i = 0; i < OFX_ROWS; i++) {
    const d = dayOf(i, OFX_ROWS).toISOString().slice(0, 10).replaceAll('-', '');
    const amount = (((i * 7919) % 20000) - 15000) / 100;
    const entry = `<STMTTRN><TRNTYPE>${amount < 0 ? 'DEBIT' : 'CREDIT'}<DTPOSTED>${d}120000[-5:EST]<TRNAMT>${amount.toFixed(2)}<FITID>${d}${String(i).padStart(7, '0')}<NAME>${MERCHANTS[i % 10]}<MEMO>REF ${(i * 31) % 9973}</STMTTRN>${lineEnd}`;
    if (!out.write(entry)) await once(out, 'drain');
  }
  out.end('</BANKTRANLIST><LEDGERBAL><BALAMT>0.00<DTASOF>20260630</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n');
  await once(out, 'finish');
}

async function prepareBase(): Promise<void> {
  const ledger = openLedger(ledgerFile(base));
  if (!(await findOrganization(ledger, 'bench'))) {
    const org = await createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd' });
    console.log(`Loading ${N.toLocaleString('en')} demo transactions into ${base} ...`);
    await fillDemo(ledger, org.seq, org.slug, N, org.currency, BENCH_SHAPE);
  }
  ledger.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  ledger.close();
}

/** One command, timed whole (start-up included), with its peak RSS. */
function ledgerdesk(...args: string[]): { seconds: number; rssMb: number; json: Record<string, unknown> } {
  const r = measuredNode([join(root, 'bin', 'ledgerdesk.mjs'), ...args, '--data', work, '--org', 'bench', '--json']);
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
}

async function main() {
  mkdirSync(base, { recursive: true });
  await prepareBase();
  if (!existsSync(csvFile)) await writeCsv();
  if (!existsSync(ofxFile)) await writeOfx(ofxFile, '99887766', '\n');
  if (!existsSync(oneLineOfxFile)) await writeOfx(oneLineOfxFile, '99887767', '');
  if (!existsSync(mergedFile)) await writeMerged(mergedFile, CSV_ROWS);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  copyFileSync(ledgerFile(base), ledgerFile(work));
  ledgerdesk('account', 'create', 'Bench CSV');
  const rows: string[] = [];
  const row = (what: string, target: string, r: ReturnType<typeof ledgerdesk>) =>
    rows.push(`| ${what} | ${r.seconds.toFixed(1)} s | ${Math.round(r.rssMb)} MB | ${target} | ${r.json.imported} new, ${r.json.duplicates} duplicate |`);
  const csvMb = (statSync(csvFile).size / 1024 / 1024).toFixed(0);
  row(`${CSV_ROWS.toLocaleString('en')}-row CSV (${csvMb} MB), new account`, '15 s, 400 MB', ledgerdesk('import', csvFile, '--account', 'Bench CSV'));
  row('the same CSV again (all duplicates)', '10 s', ledgerdesk('import', csvFile, '--account', 'Bench CSV'));
  row(`${OFX_ROWS.toLocaleString('en')}-transaction OFX, account made from the file`, '3 s', ledgerdesk('import', ofxFile));
  row(`the same OFX's transactions, its body on one line, another account`, '3 s', ledgerdesk('import', oneLineOfxFile));
  ledgerdesk('account', 'create', 'Bench merged', '--type', 'credit_card');
  const merged = ledgerdesk('import', mergedFile, '--account', 'Bench merged');
  const bare = bareInsert();
  row(
    `${CSV_ROWS.toLocaleString('en')}-row CSV, a reference per row, dates in no order`,
    `${(merged.seconds / bare.seconds).toFixed(1)}x the bare insert (goal 3x), 400 MB`,
    merged,
  );
  rows.push(`| bare SQLite insert of the same rows (baseline) | ${bare.seconds.toFixed(1)} s | ${Math.round(bare.rssMb)} MB | | |`);
  const peak = outside ? `peak RSS from outside (${TIME}: the command and any process it starts)` : `peak RSS as each process reports its own (no ${TIME} here)`;
  console.log(`\nImports into an organization holding ${N.toLocaleString('en')} transactions (ledgerdesk import, whole process; ${peak}):\n`);
  console.log('| import | wall time | peak RSS | target | rows |\n|---|---:|---:|---|---|');
  console.log(rows.join('\n'));
  rmSync(work, { recursive: true, force: true });
}

await main();
