// The steps a page documents, run as written: its fenced blocks under one
// heading, taken from the page itself (so the page cannot drift from what
// works). A `sql` block is what a DBA types into psql as a superuser; an `sh`
// block what a person types in a shell. The page's example server address is
// the one thing put in place: the test's cluster stands for it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ThrowawayPostgres } from './postgres';

export interface Block {
  lang: string;
  text: string;
}

const ROOT = join(__dirname, '..', '..');

/** The lines under `heading` (a `##`/`###` line's words) in a docs page, up to the next heading (its subsections are their own). */
export function documentedSection(page: string, heading: string): string[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const start = lines.findIndex((l) => /^#{2,4} /.test(l) && l.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`${page} has no heading "${heading}"`);
  let fenced = false;
  const end = lines.findIndex((l, i) => {
    if (i <= start) return false;
    if (l.startsWith('```')) fenced = !fenced;
    return !fenced && /^#+ /.test(l);
  });
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The fenced blocks of a section (documentedSection). */
export function documentedBlocks(page: string, heading: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | null = null;
  for (const line of documentedSection(page, heading)) {
    const fence = /^```(\w*)/.exec(line);
    if (fence && !open) open = { lang: fence[1], text: '' };
    else if (fence && open) {
      blocks.push(open);
      open = null;
    } else if (open) open.text += `${line}\n`;
  }
  return blocks;
}

/** The page's example address of the server (host:port) and the cluster's, put in its place. */
export const EXAMPLE_SERVER = 'db.firm.example:5432';
export const onCluster = (text: string, cluster: ThrowawayPostgres): string => text.replaceAll(EXAMPLE_SERVER, `127.0.0.1:${cluster.port}`);

/** A `sql` block typed into psql by the cluster's superuser, statement by statement, stopping at the first error. */
export function runAsDba(block: Block, cluster: ThrowawayPostgres): string {
  if (block.lang !== 'sql') throw new Error(`expected a sql block, got ${block.lang}: ${block.text}`);
  return execFileSync(
    join(cluster.bin, 'psql'),
    ['-h', cluster.socketDir, '-p', String(cluster.port), '-U', cluster.superuser, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q', '-f', '-'],
    {
      input: block.text,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
}

/** A folder holding `ledgerdesk`, the command as installed (npm link, or the package's bin): this checkout's. */
export function ledgerdeskOnPath(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'ledgerdesk'), `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, 'bin', 'ledgerdesk.mjs')}' "$@"\n`, { mode: 0o755 });
  return dir;
}

/**
 * An `sh` block typed into bash (stopping at the first failure) in `cwd`, as a person whose home is `home` and who
 * has `ledgerdesk` on PATH (`bin`: ledgerdeskOnPath), with the cluster standing for the example server. Answers what
 * it printed; a failure throws with it.
 */
export function runInShell(block: Block, cluster: ThrowawayPostgres, env: { home: string; cwd: string; bin: string }): { stdout: string; stderr: string } {
  if (block.lang !== 'sh') throw new Error(`expected a sh block, got ${block.lang}: ${block.text}`);
  const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', onCluster(block.text, cluster)], {
    cwd: env.cwd,
    env: { PATH: `${env.bin}:${process.env.PATH}`, HOME: env.home, LANG: 'C.UTF-8' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`the documented step failed (exit ${r.status}):\n${block.text}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}
