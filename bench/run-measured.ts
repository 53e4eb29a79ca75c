// What bench/import.ts and bench/postgres-import.ts share: the merged bank file
// (a reference per row, dates in no order) and a command timed whole with its
// peak RSS measured from outside.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/** Day i of `rows` spread over three years from 2023-07-01. */
export const dayOf = (i: number, rows: number) => new Date(Date.UTC(2023, 6, 1) + Math.floor((i * 1096) / rows) * 86_400_000);

const STORES = ['CONTOSO', 'FABRIKAM', 'NORTHWIND', 'TAILSPIN', 'WINGTIP', 'LITWARE', 'ADVENTURE WORKS', 'PROSEWARE'];

/** As banks and merged exports write it: CARD PURCHASE CONTOSO 1234 REF 998877, a reference per row, dates in no order. */
export async function writeMerged(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('Date,Description,Amount\n');
  for (let i = 0; i < rows; i++) {
    const d = dayOf((i * 7919) % rows, rows); // 7,919 is prime: a permutation of the rows' days
    const amount = -(((i * 104729) % 30000) + 100);
    const line = `${d.toISOString().slice(0, 10)},CARD PURCHASE ${STORES[i % 8]} ${1000 + (i % 9000)} REF ${String(1_000_000 + i)},${(amount / 100).toFixed(2)}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** GNU time (Debian's `time` package): the peak RSS the kernel reports for the command and its children. */
export const TIME = '/usr/bin/time';
export const outside = existsSync(TIME);

export interface Measured {
  seconds: number;
  rssMb: number;
  stdout: string;
}

/**
 * A command timed whole, with its peak RSS as /usr/bin/time reports it (the wait4 figure: the largest of the
 * process and its children), or, for node where /usr/bin/time is missing, as the process reports its own.
 */
export function measured(command: string, args: string[], peakFile: string): Measured {
  const node = command === process.execPath;
  const [run, argv] = outside ? [TIME, ['-f', '%M', '-o', peakFile, command, ...args]] : [command, node ? ['--import', join(root, 'bench', 'peak-rss.mjs'), ...args] : args];
  const started = performance.now();
  const r = spawnSync(run, argv, { encoding: 'utf8', cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const kb = outside ? readFileSync(peakFile, 'utf8').trim().split('\n').pop() : /peak-rss-kb (\d+)/.exec(r.stderr)?.[1];
  return { seconds, rssMb: Number(kb ?? NaN) / 1024, stdout: r.stdout };
}
