import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSession } from '../session/session-store';
import { createQueryClient } from './server-state';

/**
 * The console's one query client, made when the first signed-in screen's chunk loads: TanStack
 * Query is not part of /login's first load (its 250 KB budget, docs/sign-in.md). The shell's
 * layout and the wall screen each wrap their screens in it; both share this client and its cache.
 */
const queryClient = createQueryClient();

// Cached server state belongs to one signed-in user of one tenant: drop it when that changes
// (sign-out, sign-in, another account); a refreshed token keeps it.
useSession.subscribe((now, before) => {
  const owner = (s: typeof now) => (s.token ? `${s.tenantId}|${s.userInfo.user_id ?? ''}` : '');
  if (owner(now) !== owner(before)) queryClient.clear();
});

export function ServerStateProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
