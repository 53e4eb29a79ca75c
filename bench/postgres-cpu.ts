// Where a load's CPU went, from /proc (Linux): the server processes', the
// PostgreSQL cluster's (its postmaster's children: the backends that ran the
// statements, the WAL writer, the checkpointer) and the load generator's (this
// process). On a 2-core machine they share two cores with each other and with
// whatever else runs; the sum against 2 x the window says how near the figure
// is to the machine's, not the software's, limit. Elsewhere: no figure.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux build in use). */
const TICKS = 100;

/** utime + stime and the parent of a process, or null when it is gone. */
function stat(pid: number): { seconds: number; parent: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { seconds: (Number(fields[11]) + Number(fields[12])) / TICKS, parent: Number(fields[1]) };
  } catch {
    return null;
  }
}

const cpuOf = (pids: number[]) => pids.reduce((a, pid) => a + (stat(pid)?.seconds ?? 0), 0);

function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => stat(pid)?.parent === parent);
}

export interface CpuSample {
  servers: number;
  postgres: number;
  load: number;
}

/** CPU seconds so far of the servers, the cluster (postmaster and children) and this process. */
export function sampleCpu(servers: number[], postmaster: number): CpuSample | null {
  if (!existsSync('/proc/self/stat')) return null;
  const own = process.cpuUsage();
  return { servers: cpuOf(servers), postgres: cpuOf([postmaster, ...childrenOf(postmaster)]), load: (own.user + own.system) / 1e6 };
}

/** "servers 8.1 s, PostgreSQL 9.0 s, load generator 2.2 s: 19.3 of 20 core-seconds" over a window. */
export function cpuText(before: CpuSample | null, after: CpuSample | null, seconds: number): string {
  if (!before || !after) return 'n/a';
  const d = (k: keyof CpuSample) => after[k] - before[k];
  const sum = d('servers') + d('postgres') + d('load');
  const cores = availableParallelism();
  return `servers ${d('servers').toFixed(1)} s, PostgreSQL ${d('postgres').toFixed(1)} s, load generator ${d('load').toFixed(1)} s: ${sum.toFixed(1)} of ${(cores * seconds).toFixed(0)} core-seconds`;
}
