/**
 * Loaded into a measured process with `--import` (the API benchmark bundles it to plain JS
 * first): a tiny HTTP endpoint on `PROBE_PORT` that tells, per measurement, what the load
 * generator cannot see from outside:
 * - `GET /reset` starts a window; `GET /read` answers the window's event-loop delay
 *   (percentiles of `monitorEventLoopDelay`, ms) and its garbage collections (count, total and
 *   longest pause, ms, by kind), so a p99 can be laid beside the pauses that would explain it;
 * - `GET /profile/start`, `GET /profile/stop?file=<path>`: a CPU profile (V8's sampler through
 *   `node:inspector`) of exactly one measurement, written as a `.cpuprofile`.
 * Its own cost is one timer of the delay monitor and one callback per collection.
 */
import fs from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

/** `NODE_PERFORMANCE_GC_*` flags of a gc entry's `detail.kind`. */
const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak' };

interface GcWindow {
  count: number;
  totalMs: number;
  maxMs: number;
  byKind: Record<string, { count: number; totalMs: number; maxMs: number }>;
}

const emptyGc = (): GcWindow => ({ count: 0, totalMs: 0, maxMs: 0, byKind: {} });
let gc = emptyGc();
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

new PerformanceObserver((list) => {
  for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
    const kind = GC_KINDS[entry.detail?.kind ?? 0] ?? 'other';
    const k = (gc.byKind[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
    k.count += 1;
    k.totalMs += entry.duration;
    k.maxMs = Math.max(k.maxMs, entry.duration);
    gc.count += 1;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

const session = new Session();
session.connect();
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
  );

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

async function answer(url: URL): Promise<unknown> {
  switch (url.pathname) {
    case '/reset':
      delay.reset();
      gc = emptyGc();
      return { ok: true };
    case '/read':
      return {
        eventLoopDelayMs: {
          p50: ms(delay.percentile(50)),
          p99: ms(delay.percentile(99)),
          max: ms(delay.max),
          mean: ms(delay.mean),
        },
        gc,
      };
    case '/profile/start':
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 200 });
      await post('Profiler.start');
      return { ok: true };
    case '/profile/stop': {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      const file = url.searchParams.get('file');
      if (file) fs.writeFileSync(file, JSON.stringify(profile));
      return { ok: true, file };
    }
    default:
      return { error: 'unknown' };
  }
}

const port = Number(process.env.PROBE_PORT);
// `--import` loads the probe into the process's worker threads too (the report PDF worker): the
// port is the main thread's.
if (port && isMainThread) {
  const probe = http.createServer((request, response) => {
    answer(new URL(request.url ?? '/', 'http://probe')).then(
      (body) => response.end(JSON.stringify(body)),
      (error: unknown) => response.end(JSON.stringify({ error: String(error) })),
    );
  });
  // A port taken meanwhile (the benchmark picks free ports before starting its processes) must
  // cost the probe's figures, not the measured process.
  probe.on('error', (error) => console.warn(`server probe: ${String(error)}`));
  probe.listen(port, '127.0.0.1');
  // The probe must not keep a process alive that would otherwise exit.
  probe.unref();
}
