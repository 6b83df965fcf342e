import { describe, expect, it } from 'vitest';
import { BatchWriter } from './batch-writer';

function recorder(options: { failFirst?: boolean } = {}) {
  const batches: number[][] = [];
  const warnings: string[] = [];
  let fail = options.failFirst ?? false;
  const writer = new BatchWriter<number>({
    name: 'test',
    maxBatch: 3,
    maxQueue: 5,
    insert: async (rows) => {
      if (fail) {
        fail = false;
        throw new Error('database down');
      }
      batches.push(rows);
    },
    warn: (message) => warnings.push(message),
  });
  return { writer, batches, warnings };
}

describe('BatchWriter', () => {
  it('writes queued rows in batches of at most maxBatch', async () => {
    const { writer, batches } = recorder();
    for (let i = 1; i <= 2; i++) writer.push(i);
    expect(batches).toEqual([]);
    await writer.flush();
    expect(batches).toEqual([[1, 2]]);
    expect(writer.written).toBe(2);
  });

  it('starts writing as soon as a batch is full', async () => {
    const { writer, batches } = recorder();
    [1, 2, 3].forEach((n) => writer.push(n));
    await writer.flush();
    expect(batches[0]).toEqual([1, 2, 3]);
  });

  it('drops the oldest rows beyond maxQueue and counts them', async () => {
    const { writer, batches } = recorder();
    // Pushed in one go: the flush a full batch starts runs only after this synchronous loop.
    for (let i = 1; i <= 8; i++) writer.push(i);
    await writer.flush();
    expect(batches.flat()).toEqual([4, 5, 6, 7, 8]);
    expect(writer.dropped).toBe(3);
  });

  it('drops a batch whose insert fails, with one warning, and goes on', async () => {
    const { writer, batches, warnings } = recorder({ failFirst: true });
    writer.push(1);
    await expect(writer.flush()).resolves.toBeUndefined();
    writer.push(2);
    await writer.flush();
    expect(batches).toEqual([[2]]);
    expect(writer.dropped).toBe(1);
    expect(warnings).toEqual(['test: dropped 1 log rows, insert failed']);
  });
});
