import os from 'node:os';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import net from 'node:net';
import autocannon from 'autocannon';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export function startProcess(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

export async function waitFor(url: string, ms = 120_000, headers: Record<string, string> = {}): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer in time`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** Concurrent connections of every measurement (the issue measures at 50). */
export const CONNECTIONS = 50;

export interface Measured {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  errors: number;
  non2xx: number;
  /** CPU time the server (and, when sampled, PostgreSQL) spent per answered request. */
  cpuMsPerRequest?: { server: number; database?: number | undefined } | undefined;
  /** CPU time the load generator (this process) spent per answered request. */
  clientCpuMsPerRequest: number;
  /** What the measured process saw itself during the measurement (`server-probe.ts`). */
  probe?: ProbeReading | undefined;
}

/** A `server-probe.ts` window: event-loop delay and garbage-collection pauses, ms. */
export interface ProbeReading {
  eventLoopDelayMs: { p50: number; p99: number; max: number; mean: number };
  gc: {
    count: number;
    totalMs: number;
    maxMs: number;
    byKind: Record<string, { count: number; totalMs: number; maxMs: number }>;
  };
}

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU time (user + system, ms) a process has used, with its exited children when `children`
 * (PostgreSQL's backends leave their time to the postmaster). Linux /proc only; undefined elsewhere.
 */
export function processCpuMs(pid: number | undefined, children = false): number | undefined {
  const fields = pid === undefined ? undefined : statFields(pid);
  if (!fields) return undefined;
  // After the name: state, ppid, ... utime is field 14 of stat, i.e. index 11 here.
  const ticks = [11, 12, ...(children ? [13, 14] : [])].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** Sum of `processCpuMs` of the postmaster's live children (its backends and workers). */
function liveChildrenCpuMs(postmaster: number): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields?.[1] === String(postmaster)) total += processCpuMs(Number(entry)) ?? 0;
  }
  return total;
}

/**
 * CPU time (ms) of a PostgreSQL server: the postmaster, its live backends and the exited ones.
 *
 * A backend's time moves from "live child" to the postmaster's children's time when the
 * postmaster reaps it. A backend reaped while /proc is being walked (after the postmaster's line
 * was read, before its own) is in neither sum, and one reaped by the end of a measurement could
 * take seconds of CPU with it, which turns the measurement's delta negative (the pools' idle
 * connections close 10 s after their last query, about the end of the next measurement). So the
 * walk is repeated until the postmaster's reaped-children time is the same before and after it.
 */
export function postgresCpuMs(clusterDir: string): number | undefined {
  let postmaster: number;
  try {
    postmaster = Number.parseInt(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8'), 10);
  } catch {
    return undefined;
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const before = processCpuMs(postmaster, true);
    if (before === undefined) return undefined;
    const live = liveChildrenCpuMs(postmaster);
    if (processCpuMs(postmaster, true) === before) return before + live;
  }
  return undefined;
}

/** What a measurement samples besides the load generator's figures. */
export interface CpuSamplers {
  server: () => number | undefined;
  database?: () => number | undefined;
  /** Port of the measured process's `server-probe.ts`. */
  probePort?: number | undefined;
  /** With a probe: write a CPU profile of this measurement to this file. */
  profileFile?: string | undefined;
}

/** Asks the measured process's probe; a probe that does not answer costs its columns, not the run. */
async function probe(port: number | undefined, what: string): Promise<unknown> {
  if (!port) return undefined;
  try {
    const res = await fetch(`http://127.0.0.1:${port}${what}`);
    return await res.json();
  } catch (error) {
    console.warn(`probe on port ${port} did not answer ${what}: ${String(error)}`);
    return undefined;
  }
}

export async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  seconds: number,
  cpu?: CpuSamplers,
): Promise<Measured> {
  const probePort = cpu?.probePort;
  await probe(probePort, '/reset');
  if (cpu?.profileFile) await probe(probePort, '/profile/start');
  const before = { server: cpu?.server(), database: cpu?.database?.() };
  const clientBefore = process.cpuUsage();
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds, pipelining: 1 });
  const client = process.cpuUsage(clientBefore);
  const after = { server: cpu?.server(), database: cpu?.database?.() };
  const reading = (await probe(probePort, '/read')) as ProbeReading | undefined;
  if (cpu?.profileFile) await probe(probePort, `/profile/stop?file=${encodeURIComponent(cpu.profileFile)}`);
  const answered = r.requests.total;
  const perRequest = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || !answered ? undefined : (b - a) / answered;
  const server = perRequest(before.server, after.server);
  return {
    name,
    requestsPerSecond: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    meanMs: r.latency.average,
    errors: r.errors,
    non2xx: r.non2xx,
    cpuMsPerRequest:
      server === undefined ? undefined : { server, database: perRequest(before.database, after.database) },
    clientCpuMsPerRequest: answered ? (client.user + client.system) / 1000 / answered : 0,
    probe: reading,
  };
}

/** The machine's 1, 5 and 15 minute load averages, for the line above a table of figures. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
