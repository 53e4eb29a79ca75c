// What a job is (issue 52): something that happens by itself, on every server
// process and the desktop app alike, run by the one runner (runner.ts) at most
// once per turn whatever the number of processes. The clock is passed in: a job
// never reads it.
import type { Ledger } from '../ledger/core/storage';

export interface Job {
  /** Unique: it names the job's lease (`job:<name>`). */
  name: string;
  /** Milliseconds between two turns. */
  every: number;
  run(ledger: Ledger, now: Date): Promise<void>;
}
