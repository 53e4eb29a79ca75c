// Issue 44's second target: a 1,000,000-row statement imported on PostgreSQL
// within 3x a bare COPY of the same rows, in the same run. The file is the
// import benchmark's merged one (bench/import.ts: a reference per row, dates in
// no order; the same bytes, the same name in the books folder, so either bench
// makes it for the other). The import is `ledgerdesk import --database`, a
// child process into a new account of a copy of bench_db (CREATE DATABASE ...
// TEMPLATE, made before the clock starts, dropped after), timed whole, start-up
// included, with its peak RSS from outside (/usr/bin/time: the command and its
// children; the PostgreSQL backend that writes the rows is the server's process,
// not the command's, and is not in it). The baseline is psql's \copy of the same
// file into a bare table (an identity key, date text, description text, amount
// numeric; the index (date, amount)), in the same database, timed whole as well.
// A CHECKPOINT before each (outside the clock), so that neither pays for the
// other's dirty pages. Beside them, the same file on SQLite as bench/import.ts
// measures it (the import into a copy of the SQLite books, and bench/bare-insert.ts).
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerFile } from '../src/main/paths';
import type { BenchCluster } from './postgres-cluster';
import { BOOKS_DB } from './postgres-books';
import { measured, outside, TIME, writeMerged, type Measured } from './run-measured';

export { writeMerged };

const root = join(import.meta.dirname, '..');
const IMPORT_DB = 'bench_import';
/** `ledgerdesk <args> --org bench --json` on these books (--database or --data), timed whole. */
const ledgerdesk = (books: string[], peakFile: string, ...args: string[]) => {
  const r = measured(process.execPath, [join(root, 'bin', 'ledgerdesk.mjs'), ...args, ...books, '--org', 'bench', '--json'], peakFile);
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
};

const mb = (r: Measured) => (Number.isNaN(r.rssMb) ? 'n/a' : `${Math.round(r.rssMb)} MB`);
const rowsOf = (json: Record<string, unknown>) => `${String(json.imported)} new, ${String(json.duplicates)} duplicate`;

/** The PostgreSQL import and its bare COPY (and the SQLite pair when sqliteBase is given): the table's rows. */
export function compareImports(cluster: BenchCluster, file: string, rows: number, work: string, sqliteBase: string | null): string[] {
  mkdirSync(work, { recursive: true });
  const peakFile = join(work, 'peak-rss.txt');
  const copying = performance.now();
  cluster.psql('postgres', `DROP DATABASE IF EXISTS ${IMPORT_DB}`);
  cluster.psql('postgres', `CREATE DATABASE ${IMPORT_DB} TEMPLATE ${BOOKS_DB} STRATEGY FILE_COPY`);
  console.log(`import: a copy of ${BOOKS_DB} made in ${((performance.now() - copying) / 1000).toFixed(1)} s (not timed below)`);
  const books = ['--database', cluster.urlOf(IMPORT_DB)];
  const out: string[] = [];
  try {
    ledgerdesk(books, peakFile, 'account', 'create', 'Bench merged', '--type', 'credit_card');
    cluster.psql(IMPORT_DB, 'CHECKPOINT');
    console.log(`import: ${rows.toLocaleString('en')} rows on PostgreSQL (ledgerdesk import --database)`);
    const imported = ledgerdesk(books, peakFile, 'import', file, '--account', 'Bench merged');
    cluster.psql(
      IMPORT_DB,
      'CREATE TABLE bare (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, date text NOT NULL, description text NOT NULL, amount numeric NOT NULL); CREATE INDEX bare_date_amount ON bare (date, amount); CHECKPOINT',
    );
    console.log('import: the bare COPY (psql \\copy)');
    const copy = measured(join(cluster.bin, 'psql'), [...cluster.psqlArgs(IMPORT_DB), '-c', `\\copy bare (date, description, amount) FROM '${file}' CSV HEADER`], peakFile);
    const copied = cluster.psql(IMPORT_DB, 'SELECT count(*) FROM bare');
    const ratio = `${(imported.seconds / copy.seconds).toFixed(1)}x the bare COPY (goal 3x)`;
    out.push(`| PostgreSQL: ledgerdesk import --database, new account | ${imported.seconds.toFixed(1)} s | ${mb(imported)} | ${ratio} | ${rowsOf(imported.json)} |`);
    out.push(`| PostgreSQL: bare \\copy of the same rows (baseline) | ${copy.seconds.toFixed(1)} s | ${mb(copy)} (psql) | | ${copied} rows |`);
    const floor = indexesFloor(cluster, peakFile);
    out.push(
      `| PostgreSQL: the imported rows and lines into copies of their tables, indexes and all, holding the books' rows (second baseline) | ${floor.seconds.toFixed(1)} s | ${mb(floor)} (psql) | the import is ${(imported.seconds / floor.seconds).toFixed(1)}x this | |`,
    );
  } finally {
    cluster.psql('postgres', `DROP DATABASE IF EXISTS ${IMPORT_DB}`);
  }
  if (sqliteBase) out.push(...sqliteImport(sqliteBase, file, rows, work, peakFile));
  return out;
}

/**
 * What the tables' own indexes cost, whatever the code: the imported rows and their lines copied by the server
 * (INSERT ... SELECT, one statement each, in one psql call timed whole) into copies of \`transactions\` and \`lines\`
 * with every index (the trigram one included) and check, already holding the books' other rows (filled before
 * the clock starts), but no trigger, foreign key or row-level security.
 */
function indexesFloor(cluster: BenchCluster, peakFile: string): Measured {
  const merged = "(SELECT seq FROM accounts WHERE name = 'Bench merged')";
  cluster.psql(
    IMPORT_DB,
    `CREATE TABLE floor_transactions (LIKE transactions INCLUDING ALL); CREATE TABLE floor_lines (LIKE lines INCLUDING ALL);
     INSERT INTO floor_transactions SELECT * FROM transactions WHERE account_seq <> ${merged};
     INSERT INTO floor_lines SELECT l.* FROM lines l JOIN transactions t ON t.seq = l.transaction_seq WHERE t.account_seq <> ${merged};`.replaceAll(/\s+/g, ' '),
  );
  for (const table of ['floor_transactions', 'floor_lines']) cluster.psql(IMPORT_DB, `VACUUM (ANALYZE) ${table}`);
  cluster.psql(IMPORT_DB, 'CHECKPOINT');
  console.log("import: the indexes' floor (INSERT ... SELECT into indexed copies of the tables)");
  return measured(
    join(cluster.bin, 'psql'),
    [
      ...cluster.psqlArgs(IMPORT_DB),
      '-c',
      `INSERT INTO floor_transactions SELECT * FROM transactions WHERE account_seq = ${merged}; INSERT INTO floor_lines SELECT l.* FROM lines l JOIN transactions t ON t.seq = l.transaction_seq WHERE t.account_seq = ${merged}`,
    ],
    peakFile,
  );
}

/** The same file on SQLite, as bench/import.ts's last row: into a copy of the SQLite books, beside bench/bare-insert.ts. */
function sqliteImport(base: string, file: string, rows: number, work: string, peakFile: string): string[] {
  const folder = join(work, 'sqlite');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  copyFileSync(ledgerFile(base), ledgerFile(folder));
  const books = ['--data', folder];
  try {
    ledgerdesk(books, peakFile, 'account', 'create', 'Bench merged', '--type', 'credit_card');
    console.log(`import: ${rows.toLocaleString('en')} rows on SQLite (ledgerdesk import --data)`);
    const imported = ledgerdesk(books, peakFile, 'import', file, '--account', 'Bench merged');
    console.log('import: the bare SQLite insert (bench/bare-insert.ts)');
    const bare = measured(process.execPath, ['--import', 'tsx', join(root, 'bench', 'bare-insert.ts'), file, join(folder, 'bare.db')], peakFile);
    return [
      `| SQLite: ledgerdesk import --data, new account | ${imported.seconds.toFixed(1)} s | ${mb(imported)} | ${(imported.seconds / bare.seconds).toFixed(1)}x the bare insert | ${rowsOf(imported.json)} |`,
      `| SQLite: bare insert of the same rows (bench/bare-insert.ts) | ${bare.seconds.toFixed(1)} s | ${mb(bare)} | | |`,
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export const peakNote = outside
  ? `peak RSS from outside (${TIME}: the command and any process it starts; not the PostgreSQL server's own processes)`
  : `peak RSS as each process reports its own (no ${TIME} here)`;
