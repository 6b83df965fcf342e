import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { deviceResource, noticeResource, warningResource, type LiveEventType } from '@mes/contracts';
import { useLiveEvents, useLiveReconnect } from './live-events';
import { invalidateRoutes } from './server-state';

/** Events arriving in a burst (a line of devices going offline) reload a list once. */
const COALESCE_MS = 500;

/** Which resource's reads an event makes stale. */
const ROUTES: Record<LiveEventType, readonly string[]> = {
  warning: [warningResource.api],
  device: [deviceResource.api],
  cycle: [],
  notice: [noticeResource.api],
};
const TYPES = Object.keys(ROUTES) as LiveEventType[];

/** Invalidates each route at most once per {@link COALESCE_MS}. */
function coalescer(client: QueryClient) {
  const pending = new Map<string, number>();
  return {
    mark(api: string) {
      if (pending.has(api)) return;
      pending.set(
        api,
        window.setTimeout(() => {
          pending.delete(api);
          void invalidateRoutes(client, api);
        }, COALESCE_MS),
      );
    },
    cancel() {
      for (const timer of pending.values()) window.clearTimeout(timer);
      pending.clear();
    },
  };
}

/**
 * Keeps the cached warnings, devices and notices in step with live events: a list on screen
 * reloads, hidden ones reload when shown. After a reconnect everything they show is read again,
 * since events sent meanwhile are not replayed. Mounted once, in the header.
 */
export function useLiveCacheRefresh(): void {
  const client = useQueryClient();
  const coalesce = useMemo(() => coalescer(client), [client]);
  useEffect(() => () => coalesce.cancel(), [coalesce]);
  useLiveEvents(TYPES, (event) => ROUTES[event.type].forEach((api) => coalesce.mark(api)));
  useLiveReconnect(() => TYPES.flatMap((type) => ROUTES[type]).forEach((api) => coalesce.mark(api)));
}
