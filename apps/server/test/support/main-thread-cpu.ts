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

/**
 * This process's main-thread CPU and whole CPU (ms) over `work` (no other request meanwhile):
 * how much of a job the main thread does itself. `main` is undefined off Linux.
 */
export async function mainThreadShareOf(
  work: () => Promise<unknown>,
): Promise<{ main: number | undefined; all: number }> {
  const cpuBefore = mainThreadCpuMs();
  const processBefore = process.cpuUsage();
  await work();
  const cpuAfter = mainThreadCpuMs();
  const processCpu = process.cpuUsage(processBefore);
  const all = (processCpu.user + processCpu.system) / 1000;
  return { main: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined, all };
}

/**
 * `probe`'s latencies (ms), one every 20 ms until `work` settles and at least `minMs` have passed:
 * how long a request waits while the work runs.
 */
export async function latenciesWhile<T>(
  work: Promise<T>,
  probe: () => Promise<unknown>,
  minMs = 0,
): Promise<{ latencies: number[]; result: T }> {
  let done = false;
  const settled = work.finally(() => (done = true));
  const latencies: number[] = [];
  const end = Date.now() + minMs;
  while (!done || Date.now() < end) {
    const started = performance.now();
    await probe();
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { latencies, result: await settled };
}
