import { describe, expect, it } from 'vitest';
import type { TokenResponse } from '@mes/contracts';
import { shouldRefresh, TokenRefresher, type SessionTokens } from './token-refresher';

const THRESHOLD = 3000;
const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);

const tokens = (n: number) => ({ access_token: `access-${n}`, refresh_token: `refresh-${n}` }) as TokenResponse;

/** A refresher over a fake session and clock, with a refresh the test resolves by hand. */
function setup(session: SessionTokens = { refreshToken: 'refresh-0', tenantId: '000000', tokenTime: T0 }) {
  let now = T0;
  const calls: Array<{ refreshToken: string; tenantId: string }> = [];
  const pending: Array<{ resolve(r: TokenResponse): void; reject(e: unknown): void }> = [];
  const stored: TokenResponse[] = [];
  const state = { ...session };
  const refresher = new TokenRefresher({
    now: () => now,
    read: () => state,
    refresh: (refreshToken, tenantId) => {
      calls.push({ refreshToken, tenantId });
      return new Promise<TokenResponse>((resolve, reject) => pending.push({ resolve, reject }));
    },
    store: (result) => {
      stored.push(result);
      state.refreshToken = result.refresh_token;
      state.tokenTime = now;
    },
    thresholdSeconds: THRESHOLD,
  });
  return {
    refresher,
    calls,
    pending,
    stored,
    state,
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
  };
}

describe('shouldRefresh', () => {
  const session = { refreshToken: 'r', tenantId: '000000', tokenTime: T0 };
  it('refreshes only at or after the threshold', () => {
    expect(shouldRefresh(session, T0 + 2999_999, THRESHOLD, false)).toBe(false);
    expect(shouldRefresh(session, T0 + 3000_000, THRESHOLD, false)).toBe(true);
    expect(shouldRefresh(session, T0 + 4000_000, THRESHOLD, false)).toBe(true);
  });
  it('never while a refresh runs or without a refresh token', () => {
    expect(shouldRefresh(session, T0 + 4000_000, THRESHOLD, true)).toBe(false);
    expect(shouldRefresh({ ...session, refreshToken: '' }, T0 + 4000_000, THRESHOLD, false)).toBe(false);
  });
  it('treats an unknown token time as old', () => {
    expect(shouldRefresh({ ...session, tokenTime: 0 }, T0, THRESHOLD, false)).toBe(true);
  });
});

describe('TokenRefresher', () => {
  it('does nothing before the threshold, refreshes once it is reached', async () => {
    const s = setup();
    s.advance(2990);
    await s.refresher.check();
    expect(s.calls).toHaveLength(0);
    s.advance(10);
    const done = s.refresher.check();
    expect(s.calls).toEqual([{ refreshToken: 'refresh-0', tenantId: '000000' }]);
    s.pending[0]?.resolve(tokens(1));
    await done;
    expect(s.stored).toEqual([tokens(1)]);
    expect(s.refresher.running).toBe(false);
  });

  it('two simultaneous checks share one refresh', async () => {
    const s = setup();
    s.advance(THRESHOLD);
    const first = s.refresher.check();
    const second = s.refresher.check();
    expect(second).toBe(first);
    expect(s.calls).toHaveLength(1);
    expect(s.refresher.running).toBe(true);
    s.pending[0]?.resolve(tokens(1));
    await Promise.all([first, second]);
    expect(s.stored).toHaveLength(1);
  });

  it('checks during a slow refresh start no second one; the new token starts a new age', async () => {
    const s = setup();
    s.advance(THRESHOLD);
    const running = s.refresher.check();
    for (let i = 0; i < 5; i++) {
      s.advance(10);
      void s.refresher.check();
    }
    expect(s.calls).toHaveLength(1);
    s.pending[0]?.resolve(tokens(1));
    await running;
    await s.refresher.check();
    expect(s.calls).toHaveLength(1);
    s.advance(THRESHOLD);
    void s.refresher.check();
    expect(s.calls).toEqual([
      { refreshToken: 'refresh-0', tenantId: '000000' },
      { refreshToken: 'refresh-1', tenantId: '000000' },
    ]);
  });

  it('a failed refresh does not reject and the next check tries again', async () => {
    const s = setup();
    s.advance(THRESHOLD);
    const failed = s.refresher.check();
    s.pending[0]?.reject(new Error('network down'));
    await expect(failed).resolves.toBeUndefined();
    expect(s.stored).toHaveLength(0);
    expect(s.refresher.running).toBe(false);
    s.advance(10);
    void s.refresher.check();
    expect(s.calls).toHaveLength(2);
  });

  it('drops the result when the session changed while the refresh ran', async () => {
    const s = setup();
    s.advance(THRESHOLD);
    const running = s.refresher.check();
    s.state.refreshToken = ''; // signed out meanwhile
    s.pending[0]?.resolve(tokens(1));
    await running;
    expect(s.stored).toHaveLength(0);
  });

  it('never refreshes without a refresh token', async () => {
    const s = setup({ refreshToken: '', tenantId: '000000', tokenTime: 0 });
    s.advance(THRESHOLD * 2);
    await s.refresher.check();
    expect(s.calls).toHaveLength(0);
  });
});
