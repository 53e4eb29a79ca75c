// `npm run sql:replay`: how much of the SQL the suites run already prepares on
// PostgreSQL, the measure of the port (issue 44). Runs the suites on SQLite with
// every distinct statement recorded (LEDGERDESK_RECORD_SQL), or reads a recording
// (--from FILE), then asks a throwaway PostgreSQL with the generated schema to
// prepare each (PREPARE, never executed) and prints what fails, grouped by error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { numbered } from '../src/main/ledger/core/postgres/driver';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { startPostgres } from '../test/support/postgres';

const root = join(import.meta.dirname, '..');
const from = process.argv.indexOf('--from');
const recording = from > 0 ? process.argv[from + 1] : join(mkdtempSync(join(tmpdir(), 'ldk-sql-')), 'statements.jsonl');
if (from < 0) {
  writeFileSync(recording, '');
  const run = spawnSync('npx', ['vitest', 'run', '--reporter=dot', '--exclude', 'test/postgres.test.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LEDGERDESK_RECORD_SQL: recording },
  });
  if (run.status !== 0) console.error(`(the suites exited ${run.status}; replaying what they ran)`);
}
const statements = [
  ...new Set(
    readFileSync(recording, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string),
  ),
];

const server = startPostgres();
try {
  await (await openPostgres(server.url)).end();
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const failures = new Map<string, string[]>();
  for (const sql of statements) {
    await client.query('BEGIN');
    try {
      await client.query(`PREPARE replayed AS ${numbered(sql).text}`);
      await client.query('DEALLOCATE replayed'); // a prepared statement outlives its transaction
    } catch (error) {
      const message = (error as Error).message.replace(/"[^"]*"/g, '"…"').replace(/\$\d+/g, '$n');
      failures.set(message, [...(failures.get(message) ?? []), sql]);
    } finally {
      await client.query('ROLLBACK');
    }
  }
  await client.end();
  const failed = [...failures.values()].reduce((n, l) => n + l.length, 0);
  console.log(`\n${statements.length} distinct statements run by the suites; ${statements.length - failed} prepare on PostgreSQL as written, ${failed} do not:\n`);
  for (const [message, sqls] of [...failures].sort((a, b) => b[1].length - a[1].length)) console.log(`${String(sqls.length).padStart(5)}  ${message}`);
  const report = join(tmpdir(), 'ldk-sql-replay.json');
  writeFileSync(report, JSON.stringify(Object.fromEntries(failures), null, 1));
  console.log(`\nEach failing statement, by error: ${report}${from < 0 ? `\nThe recording: ${recording}` : ''}`);
} finally {
  server.stop();
}
