import { describe, expect, it } from 'vitest';
import { throttledWarning } from './throttled-warning';

describe('throttledWarning', () => {
  it('says the first at once, then at most one per interval with how many were held back', () => {
    let now = 0;
    const said: string[] = [];
    const warn = throttledWarning(
      (m) => said.push(m),
      10_000,
      () => now,
    );
    warn('lost');
    for (let i = 0; i < 5; i++) {
      now += 1_000;
      warn('lost');
    }
    expect(said).toEqual(['lost']);
    now = 10_000;
    warn('lost');
    expect(said).toEqual(['lost', 'lost (and 5 more since the last such line)']);
    now = 30_000;
    warn('lost');
    expect(said.at(-1)).toBe('lost');
  });
});
