import { describe, expect, it } from 'vitest';
import { slots } from './slots';

describe('slots', () => {
  it('lets `size` hold at once, the next in order as each gives back, and counts a second give-back once', async () => {
    const s = slots(2);
    const a = await s.take();
    const b = await s.take();
    const order: string[] = [];
    const c = s.take().then((give) => (order.push('c'), give));
    const d = s.take().then((give) => (order.push('d'), give));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]);
    a();
    a();
    const giveC = await c;
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['c']);
    b();
    const giveD = await d;
    expect(order).toEqual(['c', 'd']);
    giveC();
    giveD();
    // Both free again: two more come at once.
    await Promise.all([s.take(), s.take()]);
  });
});
