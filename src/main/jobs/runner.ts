// The one runner for everything that happens by itself (issue 52;
// ARCHITECTURE.md "Reaching out"). Every tick it offers each job its turn: the
// job's lease (`job:<name>`, a row of the global leases table) is taken with one
// conditional statement only once expired, and held until the next turn (now +
// every), so on N processes over one database a job runs once per turn; a
// process that dies holding it lets it expire. `serve` and the desktop app start
// it and stop it on a graceful shutdown (the turn running is waited for). The
// clock is passed in (tests tick it themselves).
import { takeLease } from '../ledger/core/leases';
import type { Ledger } from '../ledger/core/storage';
import { PROCESS_HOLDER } from '../connectors/sync';
import type { Job } from './job';
import { JOBS } from './list';

export interface RunnerOptions {
  holder?: string;
  /** The clock; default the system's. */
  clock?: () => Date;
  /** Between two ticks; default a minute. */
  tickMs?: number;
  log?: (message: string) => void;
}

export interface Runner {
  /** Offers every job its turn now (the timer's tick; tests call it with their clock). */
  tick(): Promise<string[]>;
  /** Stops the timer and waits for the turn under way. */
  stop(): Promise<void>;
}

/** One tick: each job whose lease this process takes runs; answers the jobs that ran. */
export async function runDue(ledger: Ledger, jobs: readonly Job[], holder: string, now: Date, log: (m: string) => void = () => undefined): Promise<string[]> {
  const ran: string[] = [];
  for (const job of jobs) {
    if (!(await takeLease(ledger, `job:${job.name}`, holder, now.getTime(), now.getTime() + job.every, true))) continue;
    try {
      await job.run(ledger, now);
      ran.push(job.name);
    } catch (error) {
      // One job's failure is its own: the others still run, and the next turn tries again.
      log(`job ${job.name} failed: ${(error as Error).message}`);
    }
  }
  return ran;
}

export function startJobs(ledger: Ledger, jobs: readonly Job[] = JOBS, o: RunnerOptions = {}): Runner {
  const holder = o.holder ?? PROCESS_HOLDER;
  const clock = o.clock ?? (() => new Date());
  let running: Promise<string[]> = Promise.resolve([]);
  let stopped = false;
  const tick = (): Promise<string[]> => {
    if (stopped) return running;
    running = running
      .then(() => (stopped ? [] : runDue(ledger, jobs, holder, clock(), o.log)))
      .catch((error: Error) => {
        o.log?.(`jobs: this turn failed (${error.message}); the next tick tries again`);
        return [];
      });
    return running;
  };
  const timer = setInterval(() => void tick(), o.tickMs ?? 60_000);
  timer.unref();
  void tick();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
