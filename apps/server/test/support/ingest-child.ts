import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * `ingest-process.ts` as a child process, for the durability test and the ingest bench: bundled
 * to plain JS once (a restart then takes a fraction of a second), started with its settings in
 * the environment, read through the JSON status lines it prints.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** What the process reports, merged from its status lines. */
export interface IngestStatus {
  ready?: boolean;
  port?: number;
  received?: number;
  stored?: number;
  queued?: number;
  maxQueued?: number;
  pauses?: number;
  rss?: number;
  heapUsed?: number;
  duplicates?: number;
  pendingAgain?: number;
}

/** Bundles the entry into the checkout's node_modules cache (so it finds the server's dependencies); answers its path. */
export async function bundleIngestProcess(tag: string): Promise<string> {
  const outfile = path.join(root, 'node_modules', '.cache', 'mes-ingest-process', `${tag}-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'apps/server/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: [path.join(root, 'apps/server/test/support/ingest-process.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: Object.keys(pkg.dependencies).filter((name) => name !== '@mes/contracts'),
    logLevel: 'warning',
  });
  return outfile;
}

/** A running ingestion process and its last report. */
export class IngestChild {
  readonly child: ChildProcess;
  last: IngestStatus = {};
  /** Resolves once the process reports `ready`; rejects if it exits first. */
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  private readonly listeners: ((status: IngestStatus) => void)[] = [];

  constructor(entry: string, env: Record<string, string>, nodeFlags: readonly string[] = []) {
    this.child = spawn(process.execPath, [...nodeFlags, entry], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.ready = new Promise((resolve, reject) => {
      this.child.once('exit', (code) => reject(new Error(`ingest process exited (${code})`)));
      readline.createInterface({ input: this.child.stdout! }).on('line', (line) => {
        this.last = { ...this.last, ...(JSON.parse(line) as IngestStatus) };
        for (const listener of this.listeners) listener(this.last);
        if (this.last.ready) resolve();
      });
    });
    // A process that exits before it is ready is reported by `ready`'s rejection only when awaited.
    this.ready.catch(() => undefined);
  }

  onStatus(listener: (status: IngestStatus) => void): void {
    this.listeners.push(listener);
  }

  /** SIGKILL: a crash, nothing flushed. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM (commits and acknowledges what it read), SIGKILL after `graceMs`. */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    timer.unref();
    this.child.kill('SIGTERM');
    await this.exited;
    clearTimeout(timer);
  }
}
