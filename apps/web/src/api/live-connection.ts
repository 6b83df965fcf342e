import { LIVE_STREAM_PATH, type LiveEvent, type LiveEventType } from '@mes/contracts';
import { website } from '../config/website';
import { useSession } from '../session/session-store';
import { SseParser } from './live-sse';

type Handler = (event: LiveEvent) => void;

/** Reconnect delays: doubling from the server's `retry:` up to this, each with random jitter. */
const MAX_DELAY_MS = 30_000;
const DEFAULT_DELAY_MS = 3_000;
/** A stream that stayed open this long was healthy: the next drop starts the backoff afresh. */
const HEALTHY_MS = 10_000;
const EVENT_TYPES: ReadonlySet<string> = new Set<LiveEventType>(['warning', 'device', 'cycle', 'notice']);

/**
 * The browser tab's one stream of live events (docs/live.md). It is open while someone listens,
 * a user is signed in and the screen is not locked; a new token (refresh, another sign-in) opens
 * it again under that token, sign-out or lock closes it. Lost streams come back after a growing,
 * jittered delay, so a restarted server is not hit by every browser at the same instant.
 */
class LiveConnection {
  private readonly handlers = new Map<LiveEventType, Set<Handler>>();
  private readonly openListeners = new Set<() => void>();
  private readonly statusListeners = new Set<(open: boolean) => void>();
  private open = false;
  private listeners = 0;
  private controller: AbortController | undefined;
  private token = '';
  private retryTimer: number | undefined;
  private attempt = 0;
  private baseDelay = DEFAULT_DELAY_MS;
  private watching = false;
  /** Whether a stream opened before in this tab (the first open has missed nothing). */
  private openedBefore = false;

  subscribe(types: readonly LiveEventType[], handler: Handler): () => void {
    for (const type of types) {
      let set = this.handlers.get(type);
      if (!set) this.handlers.set(type, (set = new Set()));
      set.add(handler);
    }
    this.listeners++;
    this.watchSession();
    this.update();
    return () => {
      for (const type of types) this.handlers.get(type)?.delete(handler);
      this.listeners--;
      this.update();
    };
  }

  /** Called each time a stream opens: events may have been missed while it was down. */
  onOpen(listener: () => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  /** Whether a stream is open now, and its changes (shown on the bell for tests and support). */
  isOpen(): boolean {
    return this.open;
  }
  onStatus(listener: (open: boolean) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private setOpen(open: boolean): void {
    if (this.open === open) return;
    this.open = open;
    for (const listener of [...this.statusListeners]) listener(open);
  }

  private watchSession(): void {
    if (this.watching) return;
    this.watching = true;
    useSession.subscribe(() => this.update());
  }

  /** Opens, reopens or closes the stream to match the session and the listeners. */
  private update(): void {
    const { token, isLock } = useSession.getState();
    const wanted = this.listeners > 0 && token !== '' && !isLock ? token : '';
    if (wanted === this.token && (wanted === '' || this.controller || this.retryTimer !== undefined)) return;
    this.stop();
    this.token = wanted;
    this.attempt = 0;
    if (wanted) void this.run(wanted);
  }

  private stop(): void {
    this.setOpen(false);
    this.controller?.abort();
    this.controller = undefined;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private async run(token: string): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const opened = Date.now();
    try {
      const res = await fetch(`/api${LIVE_STREAM_PATH}`, {
        headers: {
          Authorization: `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`,
          [website.tokenHeader]: `bearer ${token}`,
          Accept: 'text/event-stream',
        },
        credentials: 'include',
        cache: 'no-store',
        signal: controller.signal,
      });
      // A refused stream (a token just replaced, a server starting) is tried again later; a
      // session that really ended is signed out by the ordinary calls, not from here.
      if (!res.ok || !res.body) throw new Error(`live stream: ${res.status}`);
      if (this.openedBefore) for (const listener of [...this.openListeners]) listener();
      this.openedBefore = true;
      this.setOpen(true);
      const parser = new SseParser(
        (message) => this.dispatch(message.event, message.data),
        (ms) => (this.baseDelay = Math.max(500, ms)),
      );
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(value);
      }
    } catch {
      // dropped, refused or aborted: decided below
    }
    if (controller.signal.aborted || this.controller !== controller) return;
    this.controller = undefined;
    this.setOpen(false);
    if (Date.now() - opened > HEALTHY_MS) this.attempt = 0;
    this.retryLater(token);
  }

  private retryLater(token: string): void {
    const ceiling = Math.min(MAX_DELAY_MS, this.baseDelay * 2 ** this.attempt);
    this.attempt++;
    // Between half and all of the ceiling: browsers dropped together come back spread out.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = undefined;
      if (this.token === token) void this.run(token);
    }, delay);
  }

  private dispatch(type: string, data: string): void {
    if (!EVENT_TYPES.has(type)) return;
    let event: LiveEvent;
    try {
      event = JSON.parse(data) as LiveEvent;
    } catch {
      return;
    }
    for (const handler of [...(this.handlers.get(type as LiveEventType) ?? [])]) {
      try {
        handler(event);
      } catch (error) {
        console.error('live event handler failed', error);
      }
    }
  }
}

/** The tab's connection; created on first use. */
export const liveConnection = new LiveConnection();
