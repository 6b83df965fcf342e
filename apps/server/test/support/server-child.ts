import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from './free-ports';

export { freePort };

/**
 * The server as a real process (`src/main.ts` bundled as `npm start` builds it: support/server-bundle.ts),
 * for tests where the process itself is what is on trial: whether it stays up, what it logs.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerChild {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string | null>;
  alive(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts one with `env` on top of this process's environment, without its DATABASE_URL and
 * REDIS_URL: the test names the database, and the child keeps its revocations and codes in
 * PostgreSQL, like the in-process servers it works beside (they never use Redis).
 */
export async function startServerChild(env: Record<string, string>): Promise<ServerChild> {
  const port = await freePort();
  const { DATABASE_URL: _drop, REDIS_URL: _noRedis, ...base } = process.env;
  const child = spawn(process.execPath, [inject('serverEntry')], {
    cwd: serverDir,
    env: { ...base, LOG_LEVEL: 'warn', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => out,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits until `/api/health` answers 200; fails at once if the process exits. */
export async function untilHealthy(server: ServerChild, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!server.alive()) throw new Error(`server exited: ${server.output()}`);
    try {
      if ((await fetch(`${server.baseUrl}/api/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not healthy: ${server.output()}`);
}
