// The sweep of staged files past their day (issue 51): at a server's (or the
// desktop app's) start and every 15 minutes after, a bounded pass: at most
// SWEEP_ORGANIZATIONS organizations and SWEEP_FILES files a pass, the next pass
// going on from the organization where this one stopped. On a firm's server
// row-level security shows a connection one organization's staged rows, so the
// pass goes organization by organization. Any of several processes may sweep at
// the same time: a row is deleted once, whoever deletes it, and a file's bytes
// go with its row (chunks by cascade; a data folder's file by the process that
// deleted the row, the folder's one server).
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { organizationsAfter, removeExpiredStaged } from '../ledger/staging/staged';
import type { Ledger } from '../ledger/core/storage';
import { privateTemp } from './private-temp';
import { stagedDir } from './staged';
import { STAGED_TTL_MS } from './staged-limits';

export const SWEEP_ORGANIZATIONS = 200;
export const SWEEP_FILES = 500;
const EVERY_MS = 15 * 60_000;

export interface SweepPass {
  /** Staged files removed. */
  removed: number;
  /** The organization the next pass starts after (0: from the first again). */
  next: number;
}

/** One pass: files staged before `now` less a day, from the organizations after `after`. */
export async function sweepStaged(ledger: Ledger, dataDir: string, options: { now?: number; after?: number; organizations?: number; files?: number } = {}): Promise<SweepPass> {
  const now = options.now ?? Date.now();
  const before = now - STAGED_TTL_MS;
  let budget = options.files ?? SWEEP_FILES;
  const limit = options.organizations ?? SWEEP_ORGANIZATIONS;
  const seqs = await ledger.forOrg('all', () => organizationsAfter(ledger, options.after ?? 0, limit));
  let removed = 0;
  let next = 0;
  for (const seq of seqs) {
    if (budget <= 0) break;
    const ids = await ledger.forOrg(seq, () => removeExpiredStaged(ledger, seq, before, budget));
    if (ledger.engine === 'sqlite') for (const id of ids) rmSync(join(stagedDir(dataDir), id), { force: true });
    for (const id of ids) rmSync(join(privateTemp(), id), { force: true });
    removed += ids.length;
    budget -= ids.length;
    // An organization with more to sweep than this pass had left is the next pass's first.
    next = budget <= 0 ? seq - 1 : seq;
  }
  if (seqs.length < limit && budget > 0) next = 0;
  removeOldFiles(privateTemp(), before);
  if (ledger.engine === 'sqlite') for (const dir of [stagedDir(dataDir), join(dataDir, 'uploads'), join(dataDir, 'exports')]) removeOldFiles(dir, before);
  return { removed, next };
}

/** Files (and folders) in a folder last changed before `before`: what a crash left, and earlier builds' uploads and exports. */
function removeOldFiles(dir: string, before: number): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    try {
      if (statSync(path).mtimeMs < before) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile: nothing to do.
    }
  }
}

/** Sweeps at start, then every 15 minutes while the app runs; answers the stop. */
export async function scheduleStagedSweep(ledger: Ledger, dataDir: string, log: (m: string) => void): Promise<() => void> {
  let after = 0;
  const run = async () => {
    try {
      const pass = await sweepStaged(ledger, dataDir, { after });
      after = pass.next;
      if (pass.removed) log(`staged files: ${pass.removed} past their day removed`);
    } catch (error) {
      log(`sweeping staged files failed: ${(error as Error)?.message ?? String(error)}`);
    }
  };
  await run();
  const timer = setInterval(() => void run(), EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
