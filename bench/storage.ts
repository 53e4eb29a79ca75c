// `npm run bench:storage`: what the async storage interface costs per call over
// better-sqlite3's own synchronous call, on the same prepared statement: a point
// read by primary key, a 50-row page read, and an insert inside one transaction.
// Printed per call in microseconds, the bare call beside it (same run, same file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../src/main/ledger';

const dir = mkdtempSync(join(tmpdir(), 'ldk-bench-storage-'));
const ledger = openLedger(join(dir, 'ledger.db'));
ledger.sqlite.exec('CREATE TABLE t (seq INTEGER PRIMARY KEY, date TEXT, amount INTEGER, description TEXT)');
const insert = ledger.sqlite.prepare('INSERT INTO t (date, amount, description) VALUES (?, ?, ?)');
ledger.sqlite.transaction(() => {
  for (let i = 0; i < 100_000; i++) insert.run(`2026-01-${String((i % 28) + 1).padStart(2, '0')}`, -i, `CARD PAYMENT ${i}`);
})();

const ROUNDS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function perCall(n: number, fn: (i: number) => unknown): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    for (let i = 0; i < n; i++) await fn(i);
    times.push(((performance.now() - started) * 1000) / n);
  }
  return median(times);
}

const point = 'SELECT * FROM t WHERE seq = ?';
const page = 'SELECT * FROM t WHERE seq > ? ORDER BY seq LIMIT 50';
const bare = { point: ledger.sqlite.prepare(point), page: ledger.sqlite.prepare(page) };
const rows: [string, number, (i: number) => unknown, (i: number) => unknown][] = [
  ['point read', 200_000, (i) => bare.point.get((i % 100_000) + 1), (i) => ledger.stmt(point).get((i % 100_000) + 1)],
  ['50-row page', 20_000, (i) => bare.page.all(i % 99_000), (i) => ledger.stmt(page).all(i % 99_000)],
];
console.log('| call | bare better-sqlite3 (µs) | async interface (µs) | difference (µs) |');
for (const [name, n, plain, wrapped] of rows) {
  const a = await perCall(n, plain);
  const b = await perCall(n, wrapped);
  console.log(`| ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b - a).toFixed(2)} |`);
}
const n = 100_000;
const bareInserts = await perCall(1, () =>
  ledger.sqlite.transaction(() => {
    for (let i = 0; i < n; i++) insert.run('2026-02-01', i, 'X');
  })(),
);
const asyncInserts = await perCall(1, () =>
  ledger.write(async () => {
    for (let i = 0; i < n; i++) await ledger.stmt('INSERT INTO t (date, amount, description) VALUES (?, ?, ?)').run('2026-02-01', i, 'X');
  }),
);
console.log(`| insert in a write | ${(bareInserts / n).toFixed(2)} | ${(asyncInserts / n).toFixed(2)} | ${((asyncInserts - bareInserts) / n).toFixed(2)} |`);
ledger.close();
rmSync(dir, { recursive: true, force: true });
