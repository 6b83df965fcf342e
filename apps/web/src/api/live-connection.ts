import { message } from 'antd';
import { LIVE_STREAM_PATH, type LiveEvent, type LiveEventType, type LocalText } from '@mes/contracts';
import { website } from '../config/website';
import { useSession } from '../session/session-store';
import { getStore } from '../storage/local-store';
import { SseParser } from './live-sse';

type Handler = (event: LiveEvent) => void;

/** Reconnect delays: doubling from the server's `retry:` up to this, each with random jitter. */
const MAX_DELAY_MS = 30_000;
const DEFAULT_DELAY_MS = 3_000;
/** A stream that stayed open this long was healthy: the next drop starts the backoff afresh. */
const HEALTHY_MS = 10_000;
const EVENT_TYPES: ReadonlySet<string> = new Set<LiveEventType>(['warning', 'device', 'cycle', 'notice']);
/**
 * A stream refused for the user's share (429: every tab of theirs, on any server, counts) waits
 * between half and all of this, or the server's `Retry-After` when longer: another tab has to close
 * first, so trying again at once would only be refused again.
 */
export const REFUSED_DELAY_MS = 60_000;
/** Shown when the refusal carries no message of the server's. */
/** Stands in for the server's refusal message when a 429 arrives without one (a proxy's, say). */
const REFUSED_TEXT: LocalText = {
  zh: '实时推送已达上限(其他标签页或窗口占用),新的提醒暂不自动显示,稍后自动重试。',
  en: 'Live updates are at their limit (held by other tabs or windows): new alerts will not appear until a retry succeeds.',
};
const REFUSED_TOAST_KEY = 'live-refused';
const language = () => (getStore<string>('language') === 'en' ? 'en' : 'zh');

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
  private readonly refusalListeners = new Set<(text: string | undefined) => void>();
  /** The server's message while the stream is refused for the user's share (429), else undefined. */
  private refusedText: string | undefined;
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

  /** Why the stream is refused now (the user's share of streams), and its changes. */
  refusal(): string | undefined {
    return this.refusedText;
  }
  onRefusal(listener: (text: string | undefined) => void): () => void {
    this.refusalListeners.add(listener);
    return () => this.refusalListeners.delete(listener);
  }

  /** Shown once per refusal (not on each retry), and taken away when a stream opens again. */
  private setRefused(text: string | undefined): void {
    if (this.refusedText === text) return;
    const first = this.refusedText === undefined;
    this.refusedText = text;
    if (text === undefined) message.destroy(REFUSED_TOAST_KEY);
    else if (first) void message.warning({ content: text, key: REFUSED_TOAST_KEY, duration: 10 });
    for (const listener of [...this.refusalListeners]) listener(text);
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
    // Signed out, locked or nobody listening: a refusal no longer concerns this tab (a new
    // token of the same user keeps it until a stream opens).
    if (!wanted) this.setRefused(undefined);
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
    let refusedFor = 0;
    try {
      const res = await fetch(`/api${LIVE_STREAM_PATH}`, {
        headers: {
          Authorization: `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`,
          [website.tokenHeader]: `bearer ${token}`,
          Accept: 'text/event-stream',
          // The server writes a refusal in the interface's language.
          'Accept-Language': language() === 'en' ? 'en' : 'zh-CN',
        },
        credentials: 'include',
        cache: 'no-store',
        signal: controller.signal,
      });
      if (res.status === 429) {
        // The user's share of streams is taken (other tabs): said once, tried again much later.
        const body = (await res.json().catch(() => undefined)) as { msg?: unknown } | undefined;
        const retryAfter = Number(res.headers.get('retry-after')) * 1000;
        refusedFor = Math.max(REFUSED_DELAY_MS, Number.isFinite(retryAfter) ? retryAfter : 0);
        if (!controller.signal.aborted && this.controller === controller)
          this.setRefused(typeof body?.msg === 'string' && body.msg ? body.msg : REFUSED_TEXT[language()]);
      }
      // A refused stream (a token just replaced, a server starting) is tried again later; a
      // session that really ended is signed out by the ordinary calls, not from here.
      if (!res.ok || !res.body) throw new Error(`live stream: ${res.status}`);
      this.setRefused(undefined);
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
    this.retryLater(token, refusedFor);
  }

  private retryLater(token: string, refusedFor = 0): void {
    const ceiling = refusedFor || Math.min(MAX_DELAY_MS, this.baseDelay * 2 ** this.attempt);
    if (!refusedFor) this.attempt++;
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
/** For tests: a connection of their own. */
export const newLiveConnection = () => new LiveConnection();
