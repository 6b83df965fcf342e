import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { LiveEvent, LiveEventType } from '@mes/contracts';
import { liveConnection } from './live-connection';

/**
 * Calls `handler` for each live event of the given types that reaches this browser
 * (docs/live.md). All components share the tab's one stream; it is open while any of them listens
 * and a user is signed in. The latest `handler` is called: it need not be memoised.
 */
export function useLiveEvents(types: readonly LiveEventType[], handler: (event: LiveEvent) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  const key = [...types].sort().join(',');
  useEffect(() => {
    const wanted = key.split(',').filter(Boolean) as LiveEventType[];
    return liveConnection.subscribe(wanted, (event) => latest.current(event));
  }, [key]);
}

/**
 * Calls `listener` whenever the stream (re)opens: what was missed while it was down must be read
 * again (the events are not replayed).
 */
export function useLiveReconnect(listener: () => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => liveConnection.onOpen(() => latest.current()), []);
}

/** Whether the tab's live stream is open now. */
export function useLiveOpen(): boolean {
  return useSyncExternalStore(
    (notify) => liveConnection.onStatus(notify),
    () => liveConnection.isOpen(),
  );
}
