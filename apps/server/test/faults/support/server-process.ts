import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { inject } from 'vitest';
import { freePort, until } from './ports';

export const ADMIN_PASSWORD = 'Faults#Admin123';

export interface ServerOptions {
  /** The database the server uses (in the suite: through a TcpFaultProxy). */
  databaseUrl: string;
  /** An external broker; unset runs the embedded one on `mqttPort`. */
  mqttUrl?: string;
  /** The bundled server to run; unset = the fault suite's bundle (its global setup provides it). */
  entry?: string;
  /** Settings of its own, over the suite's (the cluster test: Redis, the web build, shared secrets). */
  env?: Record<string, string>;
}

/**
 * One real console server process (the bundled src/main.ts) with a data directory of its own,
 * on fixed ports, so a restart comes back where devices and callers expect it. Its log (JSON
 * lines) goes to a file; `exits` counts exits the suite did not ask for.
 */
export class ServerProcess {
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-faults-server-'));
  readonly logFile = path.join(this.dataDir, 'server.log');
  port = 0;
  mqttPort = 0;
  child: ChildProcess | undefined;
  /** Exits nobody asked for (a crash), with the last lines of output before each. */
  readonly crashes: { code: number | null; signal: NodeJS.Signals | null; tail: string[] }[] = [];
  private expectingExit = false;
  private tail: string[] = [];

  constructor(readonly options: ServerOptions) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the crashes since `from` (an earlier `crashes.length`) printed last: their stack traces, not the JSON log. */
  crashReport(from = 0): string {
    return this.crashes
      .slice(from)
      .map(
        (c) =>
          `exit ${c.code ?? c.signal}: ${c.tail
            .filter((l) => !l.startsWith('{'))
            .slice(0, 6)
            .join(' / ')}`,
      )
      .join('\n');
  }

  /** Starts it (again, on the same ports) and waits for /api/health 200. */
  async start(timeoutMs = 120_000): Promise<void> {
    if (!this.port) this.port = await freePort();
    if (!this.mqttPort) this.mqttPort = await freePort();
    const { DATABASE_URL: _d, REDIS_URL: _r, MQTT_URL: _m, ...env } = process.env;
    const child = spawn(process.execPath, [this.options.entry ?? inject('faultsServerEntry')], {
      env: {
        ...env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(this.dataDir, 'data'),
        DATABASE_URL: this.options.databaseUrl,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'info',
        WEB_DIST: path.join(this.dataDir, 'no-web'),
        MQTT_HOST: '127.0.0.1',
        MQTT_PORT: String(this.mqttPort),
        ...(this.options.mqttUrl ? { MQTT_URL: this.options.mqttUrl } : {}),
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.expectingExit = false;
    const log = fs.createWriteStream(this.logFile, { flags: 'a' });
    const keep = (line: string) => {
      log.write(`${line}\n`);
      this.tail.push(line);
      if (this.tail.length > 20) this.tail.shift();
    };
    readline.createInterface({ input: child.stdout! }).on('line', keep);
    readline.createInterface({ input: child.stderr! }).on('line', keep);
    child.once('exit', (code, signal) => {
      if (!this.expectingExit) this.crashes.push({ code, signal, tail: [...this.tail] });
      log.end();
    });
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited during start:\n${this.tail.join('\n')}`);
        return (await this.health()) === 200;
      },
      timeoutMs,
      'the server to answer /api/health 200',
    );
  }

  /** /api/health's status, 0 when nothing answers. */
  async health(): Promise<number> {
    try {
      const res = await fetch(`${this.baseUrl}/api/health`, { signal: AbortSignal.timeout(3000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }

  /** Resident memory of the process (bytes), from /proc. */
  rss(): number {
    try {
      const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  }

  /** Sends `signal` and waits for the exit (SIGTERM: the server's own graceful stop). */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    this.expectingExit = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }

  async close(): Promise<void> {
    await this.kill('SIGKILL');
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** The log lines that match `pattern`. */
  logLines(pattern: RegExp): string[] {
    if (!fs.existsSync(this.logFile)) return [];
    return fs
      .readFileSync(this.logFile, 'utf8')
      .split('\n')
      .filter((line) => pattern.test(line));
  }
}
