import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../db/unavailable';
import { threadPool } from './thread-pool';

describe('threadPool', () => {
  it("answers the thread's questions, and keeps a failure's code (a database outage stays a 503)", async () => {
    const pool = threadPool<{ ask: string }>({ name: 'thread-pool-test-worker', from: import.meta.url, idleMs: 10 });
    const asked: unknown[] = [];
    const failure = await pool
      .take()
      .render(
        { ask: 'tenant 1' },
        {
          answer: async (question) => {
            asked.push(question);
            return 'its names';
          },
        },
      )
      .catch((error: unknown) => error);
    expect(asked).toEqual(['tenant 1']);
    expect((failure as Error).message).toBe('refused after its names');
    expect(isDatabaseUnavailable(failure)).toBe(true);
  }, 30_000);
});
