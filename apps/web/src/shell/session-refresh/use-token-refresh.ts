import { useEffect } from 'react';
import { refreshSession } from '../../api/auth';
import { website } from '../../config/website';
import { useSession } from '../../session/session-store';
import { TokenRefresher } from './token-refresher';

// One per page, shared by every mounted layout, so concurrent checks join one refresh.
const refresher = new TokenRefresher({
  now: () => Date.now(),
  read: () => useSession.getState(),
  refresh: refreshSession,
  store: (result) => useSession.getState().setTokens(result),
  thresholdSeconds: website.tokenTime,
});

/** Every 10 s, refreshes the token once it reaches the refresh age; never two refreshes at once. */
export function useTokenRefresh(): void {
  useEffect(() => {
    // Also at mount: a page reopened after a long pause may hold an old token already.
    void refresher.check();
    const timer = window.setInterval(() => void refresher.check(), website.refreshCheckMs);
    return () => window.clearInterval(timer);
  }, []);
}
