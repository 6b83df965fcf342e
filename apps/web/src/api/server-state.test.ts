import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { message } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from './http';
import {
  apiKey,
  apiQuery,
  createQueryClient,
  invalidateRoutes,
  isRetryable,
  isUnderRoute,
  READ_RETRIES,
} from './server-state';
import { memoryStorage } from './test-storage';

/** Answers every call with `reply()` and records the URLs asked for. */
function serve(reply: () => { status: number; body: unknown }) {
  const calls: string[] = [];
  vi.stubGlobal('window', { localStorage: memoryStorage(), sessionStorage: memoryStorage() });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      calls.push(url);
      const { status, body } = reply();
      return Promise.resolve(new Response(JSON.stringify(body), { status }));
    }),
  );
  return calls;
}

/** A client whose retries do not wait, counting what it would toast. */
function testClient(): { client: QueryClient; toasts: unknown[] } {
  const toasts: unknown[] = [];
  const client = createQueryClient((e) => toasts.push(e));
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retryDelay: 0 } });
  return { client, toasts };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('retries of reads', () => {
  it('retries lost connections and server failures, never a 4xx', () => {
    expect(isRetryable(new NetworkError('Failed to fetch'))).toBe(true);
    expect(isRetryable(new ApiError(500, '服务器异常', null))).toBe(true);
    expect(isRetryable(new ApiError(503, '', null))).toBe(true);
    expect(isRetryable(new ApiError(400, '参数错误', null))).toBe(false);
    expect(isRetryable(new ApiError(401, '', null))).toBe(false);
    expect(isRetryable(new ApiError(403, '', null))).toBe(false);
    expect(isRetryable(new Error('a bug'))).toBe(false);
  });

  it('a read failing with 500 is asked 1 + READ_RETRIES times and toasted once, with the server message', async () => {
    const calls = serve(() => ({ status: 500, body: { code: 500, success: false, msg: '服务器开小差' } }));
    // The attempts themselves do not toast (the HTTP client's own toast stays quiet).
    const perAttempt = vi.spyOn(message, 'error').mockImplementation(() => undefined as never);
    const { client, toasts } = testClient();
    await expect(client.fetchQuery(apiQuery('/blade-system/post/list'))).rejects.toThrow('服务器开小差');
    expect(calls).toHaveLength(1 + READ_RETRIES);
    expect(perAttempt).not.toHaveBeenCalled();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ status: 500, message: '服务器开小差' });
  });

  it('a 400 is asked once and toasted once; a silent read is not toasted', async () => {
    const calls = serve(() => ({ status: 400, body: { code: 400, success: false, msg: '参数错误' } }));
    const { client, toasts } = testClient();
    await expect(client.fetchQuery(apiQuery('/blade-system/post/list'))).rejects.toThrow('参数错误');
    expect(calls).toHaveLength(1);
    expect(toasts).toHaveLength(1);
    await expect(client.fetchQuery(apiQuery('/blade-system/role/tree', undefined, { silent: true }))).rejects.toThrow();
    expect(toasts).toHaveLength(1);
  });
});

describe('shared cache', () => {
  let calls: string[];
  beforeEach(() => {
    calls = serve(() => ({
      status: 200,
      body: { code: 200, success: true, data: [{ dictKey: '1', dictValue: '男' }] },
    }));
  });

  it('empty parameters do not make another key', () => {
    expect(apiKey('/blade-system/dict/dictionary', { code: 'sex', parentId: '', x: undefined })).toEqual(
      apiKey('/blade-system/dict/dictionary', { code: 'sex' }),
    );
    expect(apiKey('/blade-user/info', {})).toEqual(['/blade-user/info']);
  });

  it('two screens reading one dictionary at once cause one call', async () => {
    const { client } = testClient();
    const first = new QueryObserver(client, apiQuery('/blade-system/dict/dictionary', { code: 'sex' }));
    const second = new QueryObserver(client, apiQuery('/blade-system/dict/dictionary', { code: 'sex' }));
    const stop = [first.subscribe(() => undefined), second.subscribe(() => undefined)];
    await vi.waitFor(() => expect(second.getCurrentResult().isSuccess).toBe(true));
    expect(first.getCurrentResult().data).toEqual([{ dictKey: '1', dictValue: '男' }]);
    expect(calls).toEqual(['/api/blade-system/dict/dictionary?code=sex']);
    stop.forEach((s) => s());
  });

  it('a write to a resource reloads its routes only', async () => {
    const { client } = testClient();
    const dict = new QueryObserver(client, apiQuery('/blade-system/dict/dictionary', { code: 'sex' }));
    const stopDict = dict.subscribe(() => undefined);
    await client.fetchQuery(apiQuery('/blade-system/dict-biz/dictionary', { code: 'sex' }));
    await vi.waitFor(() => expect(dict.getCurrentResult().isSuccess).toBe(true));
    expect(calls).toHaveLength(2);

    await invalidateRoutes(client, '/blade-system/dict');
    // The dictionary on screen is read again; the business dictionary of the same code is not.
    expect(calls).toHaveLength(3);
    expect(calls[2]).toBe('/api/blade-system/dict/dictionary?code=sex');
    expect(client.getQueryState(apiKey('/blade-system/dict-biz/dictionary', { code: 'sex' }))?.isInvalidated).toBe(
      false,
    );
    stopDict();
  });

  it('routes belong to a resource on whole path segments', () => {
    expect(isUnderRoute('/blade-system/dict/dictionary', '/blade-system/dict')).toBe(true);
    expect(isUnderRoute('/blade-system/dict', '/blade-system/dict')).toBe(true);
    expect(isUnderRoute('/blade-system/dict?code=x', '/blade-system/dict')).toBe(true);
    expect(isUnderRoute('/blade-system/dict-biz/dictionary', '/blade-system/dict')).toBe(false);
    expect(isUnderRoute('/blade-user', '/blade-user/info')).toBe(false);
  });
});
