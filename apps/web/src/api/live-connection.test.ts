import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from './test-storage';

/**
 * A live stream the server refuses for the user's share (429, docs/operations.md "Fair shares") is
 * said to the user once, in their language, and tried again much later; other failures are retried
 * quietly, as before.
 */

type Answer = { status: number; body?: unknown; open?: boolean };

/** Answers the stream's requests in turn, recording each request's headers. */
function serve(answers: Answer[]) {
  const requests: Record<string, string>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      requests.push(init.headers as Record<string, string>);
      const answer = answers.shift() ?? { status: 503 };
      if (answer.open) {
        // An open stream: its first bytes, then nothing more while the test runs.
        const body = new ReadableStream<Uint8Array>({
          start: (c) => c.enqueue(new TextEncoder().encode('retry: 3000\n: connected\n\n')),
        });
        return Promise.resolve(new Response(body, { status: 200 }));
      }
      const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
      return Promise.resolve(new Response(text, { status: answer.status }));
    }),
  );
  return requests;
}

async function setUp(lang: 'zh' | 'en') {
  vi.resetModules();
  vi.useFakeTimers();
  vi.stubGlobal('window', {
    localStorage: memoryStorage(),
    sessionStorage: memoryStorage(),
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (id: number) => clearTimeout(id),
  });
  // The delays' jitter at its top: each retry comes at the end of its window.
  vi.spyOn(Math, 'random').mockReturnValue(1);
  const { setStore } = await import('../storage/local-store');
  setStore('language', lang);
  const { message } = await import('antd');
  const shown = vi.spyOn(message, 'warning').mockImplementation(() => undefined as never);
  const cleared = vi.spyOn(message, 'destroy').mockImplementation(() => undefined);
  const { useSession } = await import('../session/session-store');
  useSession.setState({ token: 'a-token', isLock: false });
  const { newLiveConnection, REFUSED_DELAY_MS } = await import('./live-connection');
  return { connection: newLiveConnection(), shown, cleared, REFUSED_DELAY_MS };
}

const contentOf = (spy: { mock: { calls: unknown[][] } }) => (spy.mock.calls[0]?.[0] as { content: string }).content;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// The first test loads antd afresh (vi.resetModules): seconds on a busy machine.
describe('a live stream refused for the user’s share (429)', { timeout: 30_000 }, () => {
  it('shows the server’s message once, waits the long delay before each retry, and clears it when a stream opens', async () => {
    const zh = '您已打开 2 个实时推送(上限),请关闭其他标签页后重试';
    const requests = serve([
      { status: 429, body: { code: 429, success: false, msg: zh } },
      { status: 429, body: { code: 429, success: false, msg: zh } },
      { status: 200, open: true },
    ]);
    const { connection, shown, cleared, REFUSED_DELAY_MS } = await setUp('zh');
    const refusals: (string | undefined)[] = [];
    connection.onRefusal((text) => refusals.push(text));
    const stop = connection.subscribe(['warning'], () => undefined);
    await vi.advanceTimersByTimeAsync(0);

    expect(requests).toHaveLength(1);
    expect(requests[0]?.['Accept-Language']).toBe('zh-CN');
    expect(connection.refusal()).toBe(zh);
    expect(shown).toHaveBeenCalledTimes(1);
    expect(contentOf(shown)).toBe(zh);

    // Not tried again at the ordinary 1.5–3 s: the share is held by other tabs.
    await vi.advanceTimersByTimeAsync(REFUSED_DELAY_MS - 100);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(requests).toHaveLength(2);
    // Refused again: still shown, not toasted a second time.
    expect(shown).toHaveBeenCalledTimes(1);
    expect(connection.isOpen()).toBe(false);

    await vi.advanceTimersByTimeAsync(REFUSED_DELAY_MS + 100);
    expect(requests).toHaveLength(3);
    expect(connection.isOpen()).toBe(true);
    expect(connection.refusal()).toBeUndefined();
    expect(cleared).toHaveBeenCalledWith('live-refused');
    expect(refusals).toEqual([zh, undefined]);
    stop();
  });

  it('says it in English for an English interface, in its own words when the refusal has no message', async () => {
    const requests = serve([{ status: 429 }]);
    const { connection, shown } = await setUp('en');
    const stop = connection.subscribe(['notice'], () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(requests[0]?.['Accept-Language']).toBe('en');
    expect(contentOf(shown)).toMatch(/^Live updates are at their limit/);
    stop();
    // Nobody listens any more: the refusal no longer concerns this tab.
    expect(connection.refusal()).toBeUndefined();
  });

  it('retries any other failure quietly after the ordinary short delay', async () => {
    const requests = serve([{ status: 503 }, { status: 200, open: true }]);
    const { connection, shown } = await setUp('zh');
    const stop = connection.subscribe(['warning'], () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toHaveLength(1);
    // The first retry's window is the server's default 3 s (its `retry:` not heard yet).
    await vi.advanceTimersByTimeAsync(3_100);
    expect(requests).toHaveLength(2);
    expect(connection.isOpen()).toBe(true);
    expect(shown).not.toHaveBeenCalled();
    stop();
  });
});
