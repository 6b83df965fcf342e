import type { ServerResponse } from 'node:http';
import type { LiveEvent } from '@mes/contracts';
import { mayReceive, type LiveAccess } from './live-access';

export interface LiveStreamLimits {
  /** A comment line this often keeps proxies from closing an idle stream; the session is checked too. */
  heartbeatMs: number;
  /** The browser's reconnect delay (`retry:`). */
  retryMs: number;
  /** Bytes the socket may hold unsent; beyond it the client is too slow and is disconnected. */
  maxBufferedBytes: number;
  /** Events waiting for the session check; beyond it the stream ends (never unbounded memory). */
  maxQueued: number;
}

export const DEFAULT_LIVE_LIMITS: LiveStreamLimits = {
  heartbeatMs: 20_000,
  retryMs: 3_000,
  maxBufferedBytes: 256 * 1024,
  maxQueued: 500,
};

/** What the stream asks its owner: still the same session? and, after a grant change, the new access. */
export interface LiveStreamSession {
  sid: string;
  tenantId: string;
  /** False: the session ended, or its account, roles or department changed; the stream ends. */
  stands(): Promise<boolean>;
  /** The access decided anew (grants or departments changed). */
  decide(): Promise<LiveAccess>;
}

export type EndReason = 'client' | 'session' | 'slow' | 'shutdown' | 'lost' | 'error';

/**
 * One browser's `text/event-stream`. Events are queued (bounded), and before each batch is written
 * the session is checked again, so nothing is sent after a logout or a change of the account;
 * filtering uses the access as it stands when the event is written.
 */
export class LiveStream {
  private queue: LiveEvent[] = [];
  private chain: Promise<void> = Promise.resolve();
  private draining = false;
  private recheckPending = false;
  private ended = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly raw: ServerResponse,
    readonly session: LiveStreamSession,
    private access: LiveAccess,
    private readonly limits: LiveStreamLimits,
    private readonly onEnd: (stream: LiveStream, reason: EndReason) => void,
  ) {
    raw.on('close', () => this.end('client'));
    raw.on('error', () => this.end('error'));
    this.heartbeat = setInterval(() => this.run(() => this.beat()), limits.heartbeatMs);
    this.heartbeat.unref();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** An event of the stream's tenant; written after the next session check if the access allows it. */
  offer(event: LiveEvent): void {
    if (this.ended || event.tenantId !== this.session.tenantId) return;
    if (this.queue.length >= this.limits.maxQueued) return this.end('slow');
    this.queue.push(event);
    if (!this.draining) {
      this.draining = true;
      this.run(() => this.drain());
    }
  }

  /** Something about sessions or grants changed: check the session and decide the access again. */
  recheck(): void {
    if (this.ended || this.recheckPending) return;
    this.recheckPending = true;
    this.run(async () => {
      this.recheckPending = false;
      if (!(await this.session.stands())) return this.end('session');
      this.access = await this.session.decide();
    });
  }

  end(reason: EndReason): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    clearInterval(this.heartbeat);
    if (reason === 'slow' || reason === 'error') this.raw.destroy();
    else if (!this.raw.writableEnded) this.raw.end();
    this.onEnd(this, reason);
  }

  /** Runs steps one after another, so checks, access changes and writes keep their order. */
  private run(step: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.ended) return;
      try {
        await step();
      } catch {
        this.end('error');
      }
    });
  }

  private async drain(): Promise<void> {
    this.draining = false;
    const batch = this.queue;
    this.queue = [];
    if (!batch.length) return;
    if (!(await this.session.stands())) return this.end('session');
    for (const event of batch) {
      if (this.ended) return;
      if (mayReceive(this.access, event)) this.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    }
  }

  private async beat(): Promise<void> {
    if (!(await this.session.stands())) return this.end('session');
    this.write(': ping\n\n');
  }

  private write(text: string): void {
    if (this.ended || this.raw.destroyed) return this.end('client');
    this.raw.write(text);
    if (this.raw.writableLength > this.limits.maxBufferedBytes) this.end('slow');
  }
}
