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

  it('leaves rows that arrive during a full batch’s insert for the next full batch or the flush', async () => {
    const inserts: number[][] = [];
    let release: () => void = () => undefined;
    const writer = new BatchWriter<number>({
      name: 'test',
      maxBatch: 3,
      maxQueue: 100,
      insert: (rows) => {
        inserts.push(rows);
        return new Promise<void>((resolve) => (release = resolve));
      },
      warn: () => undefined,
    });
    [1, 2, 3].forEach((n) => writer.push(n));
    await Promise.resolve();
    expect(inserts).toEqual([[1, 2, 3]]);
    // A row arriving while the first batch is written: not a statement of its own.
    writer.push(4);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(inserts).toEqual([[1, 2, 3]]);
    expect(writer.queued).toBe(1);
    const flushed = writer.flush();
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    await flushed;
    expect(inserts).toEqual([[1, 2, 3], [4]]);
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
