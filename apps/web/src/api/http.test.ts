import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { website } from '../config/website';
import { NetworkError, requestData } from './http';
import { memoryStorage } from './test-storage';

/** A server that answers `afterMs` after the call, unless the call is aborted first. */
function answerAfter(afterMs: number) {
  vi.stubGlobal('window', { localStorage: memoryStorage(), sessionStorage: memoryStorage() });
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          const timer = setTimeout(
            () => resolve(new Response(JSON.stringify({ code: 200, success: true, data: 'kept', msg: '' }))),
            afterMs,
          );
          init.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    ),
  );
}

describe('request timeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('gives up on an answer slower than the usual timeout', async () => {
    answerAfter(website.requestTimeoutMs + 5_000);
    const call = requestData('/slow', { method: 'POST', silent: true });
    const outcome = expect(call).rejects.toBeInstanceOf(NetworkError);
    await vi.advanceTimersByTimeAsync(website.requestTimeoutMs + 5_000);
    await outcome;
  });

  it('waits as long as the call asks (a layout save that prints first)', async () => {
    answerAfter(website.requestTimeoutMs + 5_000);
    const call = requestData<string>('/slow', { method: 'POST', silent: true, timeoutMs: 60_000 });
    await vi.advanceTimersByTimeAsync(website.requestTimeoutMs + 5_000);
    await expect(call).resolves.toBe('kept');
  });
});
