import fs from 'node:fs';

/** CPU time of this process's main thread (Linux: its task's utime + stime), in ms; undefined elsewhere. */
export function mainThreadCpuMs(): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/** Latencies as a line of a test's output. */
export const figures = (xs: number[]) =>
  `n=${xs.length} p50=${quantile(xs, 0.5).toFixed(1)} p95=${quantile(xs, 0.95).toFixed(1)} p99=${quantile(xs, 0.99).toFixed(1)} max=${Math.max(...xs).toFixed(1)} ms`;
