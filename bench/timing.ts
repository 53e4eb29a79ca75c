// Timing a report in process, as every bench does it: warm-up runs first, then the median and the 99th
// percentile of the timed runs, in milliseconds. Figures only: nothing asserts a time.
export async function percentiles(fn: () => unknown, runs: number, warmUp: number): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < warmUp; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(runs / 2)], p99: samples[Math.floor(runs * 0.99)] };
}

/**
 * Two (or more) ways of doing the same thing timed in turns, run by run, so that a machine's load at any moment
 * weighs on each alike (the ratio of their medians is then the figure); each's median and 99th percentile.
 */
export async function pairedPercentiles(fns: (() => unknown)[], runs: number, warmUp: number): Promise<{ p50: number; p99: number }[]> {
  for (let i = 0; i < warmUp; i++) for (const fn of fns) await fn();
  const samples: number[][] = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of fns.entries()) {
      const t = performance.now();
      await fn();
      samples[k].push(performance.now() - t);
    }
  }
  return samples.map((s) => {
    s.sort((a, b) => a - b);
    return { p50: s[Math.floor(runs / 2)], p99: s[Math.floor(runs * 0.99)] };
  });
}

/** A row of a bench's Markdown table: what, p50, p99, the target. */
export const timedRow = (name: string, t: { p50: number; p99: number }, target: string): string => `| ${name} | ${t.p50.toFixed(2)} ms | ${t.p99.toFixed(2)} ms | ${target} |`;
