import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, until } from './ports';

/**
 * A Mosquitto of the suite's own on a free port, from a generated config (the machine's broker
 * and its config are never touched): anonymous devices, a wide inflight window and queue so the
 * broker itself never drops what a slow console has not taken yet, no persistence. Killed after.
 */
export class SuiteMosquitto {
  private constructor(
    private child: ChildProcess,
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<SuiteMosquitto> {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-faults-mosquitto-'));
    const conf = path.join(dir, 'mosquitto.conf');
    fs.writeFileSync(
      conf,
      [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous true',
        'max_inflight_messages 1000',
        'max_queued_messages 100000',
        'persistence false',
        'log_dest none',
        '',
      ].join('\n'),
    );
    const broker = new SuiteMosquitto(spawn('mosquitto', ['-c', conf], { stdio: 'ignore' }), port, dir);
    await broker.listening();
    return broker;
  }

  /** Starts a new broker on the same port: without persistence it forgets every session and queued message. */
  async restart(): Promise<void> {
    await this.kill();
    this.child = spawn('mosquitto', ['-c', path.join(this.dir, 'mosquitto.conf')], { stdio: 'ignore' });
    await this.listening();
  }

  private async listening(): Promise<void> {
    const { child, port } = this;
    await until(
      () =>
        new Promise<boolean>((resolve) => {
          if (child.exitCode !== null) throw new Error('mosquitto exited at start');
          const s = net.connect(port, '127.0.0.1', () => {
            s.destroy();
            resolve(true);
          });
          s.on('error', () => resolve(false));
        }),
      10_000,
      'mosquitto to listen',
    );
  }

  private async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      await exited;
    }
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await this.kill();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
