// `npm run bench` (last part; `npm run bench:startup` alone): whole processes
// started the way a script or an agent starts them, each paired with a bare
// `node -e 0` started just before it, 11 pairs; medians of the times and of
// the pair ratios. The built command (out/cli) runs, as `npm install` leaves it.
// Uses the import benchmark's 1,000,000-row folder (bench/.data-books) and a
// 1,000-row one made here; without the big folder (no `npm run bench:import`
// yet), a 20,000-row one made here stands in for it, and the rows say so.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const BIN = join(root, 'bin', 'ledgerdesk.mjs');
const books = join(root, 'bench', '.data-books');
const standIn = !existsSync(join(books, 'ledger.db'));
const PAIRS = Number(process.env.BENCH_PAIRS ?? 11);
const env = { ...process.env, LEDGERDESK_SOURCE: '' };
if (spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--cli'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds from spawn until `done` resolves (default: the process exits). */
async function timed(args: string[], done?: (child: ReturnType<typeof spawn>) => Promise<void>): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.resume();
  child.stderr!.resume();
  await (done ? await done(child) : new Promise<void>((resolve) => child.once('exit', () => resolve())));
  return performance.now() - started;
}

/** Until the server answers its first request (then it is stopped). */
const firstAnswer = (child: ReturnType<typeof spawn>) =>
  new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const base = /^(http:\/\/127\.0\.0\.1:\d+)\/api\/v1$/m.exec(out)?.[1];
      if (!base || out.includes('\u0000asked')) return;
      out += '\u0000asked';
      request(`${base}/api/v1/ontology.jsonld`, (res) => {
        res.resume();
        res.on('end', () => {
          resolve();
          child.kill('SIGTERM');
        });
      })
        .on('error', reject)
        .end();
    });
  });

async function pairs(label: string, args: string[], done?: Parameters<typeof timed>[1]) {
  const ours: number[] = [];
  const ratios: number[] = [];
  const bare: number[] = [];
  await timed(args, done); // warm the file cache
  for (let i = 0; i < PAIRS; i++) {
    const b = await timed(['-e', '0']);
    const a = await timed(args, done);
    ours.push(a);
    bare.push(b);
    ratios.push(a / b);
  }
  return `| ${label} | ${median(ours).toFixed(0)} ms | ${median(bare).toFixed(0)} ms | ${median(ratios).toFixed(2)}x |`;
}

const small = mkdtempSync(join(tmpdir(), 'ldk-bench-small-'));
spawnSync(process.execPath, [BIN, 'demo', '--data', small, '--transactions', '1000'], { env });
const big = standIn ? mkdtempSync(join(tmpdir(), 'ldk-bench-stand-in-')) : books;
if (standIn) spawnSync(process.execPath, [BIN, 'demo', '--data', big, '--transactions', '20000', '--org', 'bench'], { env });
const bigRows = standIn ? '20,000 rows: no bench/.data-books' : '1,000,000 rows';
const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', big], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve) => {
  let out = '';
  server.stdout!.on('data', (c) => {
    out += c;
    const found = /^(http:\/\/127\.0\.0\.1:\d+)\/api\/v1$/m.exec(out)?.[1];
    if (found) resolve(found);
  });
});
const token = spawnSync(process.execPath, [BIN, 'token', 'create', '--data', big, '--org', 'bench', '--name', 'startup bench', '--scopes', 'read'], { env, encoding: 'utf8' })
  .stdout.trim()
  .split('\n')
  .at(-1)!;
const copy = mkdtempSync(join(tmpdir(), 'ldk-bench-big-'));

const rows = [
  await pairs('`ledgerdesk --help`', [BIN, '--help']),
  await pairs(`\`ledgerdesk list_transactions --limit 5\` (server running, ${bigRows})`, [BIN, 'list_transactions', '--limit', '5', '--url', url, '--token', token]),
  await pairs(`\`ledgerdesk token list\` (${bigRows})`, [BIN, 'token', 'list', '--data', big, '--org', 'bench']),
  await pairs(`\`ledgerdesk account list\` (${bigRows})`, [BIN, 'account', 'list', '--data', big, '--org', 'bench']),
  await pairs('`ledgerdesk serve` to its first answer (1,000 rows)', [BIN, 'serve', '--port', '0', '--data', small], firstAnswer),
];
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
// serve on a copy: the running benchmark server above holds the folder's pid file.
cpSync(join(big, 'ledger.db'), join(copy, 'ledger.db'));
rows.push(await pairs(`\`ledgerdesk serve\` to its first answer (${bigRows})`, [BIN, 'serve', '--port', '0', '--data', copy], firstAnswer));
rmSync(small, { recursive: true, force: true });
rmSync(copy, { recursive: true, force: true });
if (standIn) rmSync(big, { recursive: true, force: true });

console.log(`\nStart-up (whole processes, built command; medians of ${PAIRS} pairs with node -e 0 started just before):\n`);
console.log('| command | ours | node -e 0 | ratio |\n|---|---:|---:|---:|');
console.log(rows.join('\n'));
