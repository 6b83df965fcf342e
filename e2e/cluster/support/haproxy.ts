import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, until } from '../../../apps/server/test/faults/support/ports';

/** Debian's HAProxy (`apt-get install haproxy`); the machine's own service and its config are never touched. */
export const HAPROXY = '/usr/sbin/haproxy';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The production configuration (docs/deploy.md, compose.yaml): the test runs it, not a copy. */
export const DEPLOY_CONFIG = path.join(root, 'deploy/haproxy.cfg');

/**
 * deploy/haproxy.cfg with the test's addresses: its `bind` on a loopback port and its `server`
 * lines replaced by the test's processes; balancing, health checks, retries and timeouts as in
 * production.
 */
export function haproxyConfig(listenPort: number, backends: { name: string; port: number }[]): string {
  const lines = fs.readFileSync(DEPLOY_CONFIG, 'utf8').split('\n');
  const servers = lines.filter((l) => /^\s+server\s/.test(l));
  const binds = lines.filter((l) => /^\s+bind\s/.test(l));
  if (servers.length === 0 || binds.length !== 1)
    throw new Error(`${DEPLOY_CONFIG}: expected one bind and server lines`);
  const last = lines.lastIndexOf(servers.at(-1)!);
  return lines
    .flatMap((line, i) => {
      if (binds.includes(line)) return [`  bind 127.0.0.1:${listenPort}`];
      if (servers.includes(line))
        return i === last ? backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`) : [];
      return [line];
    })
    .join('\n');
}

/** An HAProxy of the test's own on a free port of 127.0.0.1, in the foreground (`-db`), killed after. */
export class TestHaproxy {
  private readonly lines: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly dir: string,
  ) {
    readline.createInterface({ input: child.stderr! }).on('line', (line) => {
      this.lines.push(line);
      if (this.lines.length > 50) this.lines.shift();
    });
  }

  static async start(backends: { name: string; port: number }[]): Promise<TestHaproxy> {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-cluster-haproxy-'));
    const conf = path.join(dir, 'haproxy.cfg');
    fs.writeFileSync(conf, haproxyConfig(port, backends));
    const child = spawn(HAPROXY, ['-db', '-f', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    const proxy = new TestHaproxy(child, port, dir);
    try {
      await until(
        async () => {
          if (child.exitCode !== null) throw new Error(`haproxy exited at start:\n${proxy.lines.join('\n')}`);
          return (await proxy.ready()) === 200;
        },
        20_000,
        'haproxy to answer /api/health/ready',
      );
    } catch (error) {
      await proxy.stop();
      throw error;
    }
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What the balancer answers for /api/health/ready (0: nothing answered). */
  async ready(): Promise<number> {
    try {
      const res = await fetch(`${this.url}/api/health/ready`, { signal: AbortSignal.timeout(3000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }

  /** HAProxy's own last lines (server up/down notices): printed when a test fails. */
  get log(): string {
    return this.lines.join('\n');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
