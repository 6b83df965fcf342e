import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import {
  DASHBOARD_DEVICE_MAP_PATH,
  DASHBOARD_OVERVIEW_PATH,
  type LiveEventType,
  type WelcomeDeviceMap,
  type WelcomeOverview,
} from '@mes/contracts';
import { useLiveEvents, useLiveReconnect } from '../../api/live-events';
import { apiKey, apiQuery } from '../../api/server-state';

/** The events that change the figures. */
const LIVE_TYPES: readonly LiveEventType[] = ['cycle', 'warning', 'device'];
/** A busy tenant finishes cycles every few seconds: the figures are read at most this often. */
export const LIVE_THROTTLE_MS = 5_000;
/** When no event arrives (the stream is down, or nothing happens), the figures are read anyway. */
export const FALLBACK_REFRESH_MS = 60_000;

/**
 * Reads the figures again after a live event, at most once per LIVE_THROTTLE_MS: the first event
 * starts a timer, the events during it ride on the same read. A reopened stream counts as an
 * event: what happened while it was down is not replayed, and the bell (which re-reads on
 * reconnect) must not show a newer warning count than the page beside it.
 */
function useThrottledInvalidation(urls: readonly string[]): void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const key = urls.join('|');
  const onEvent = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      for (const url of key.split('|')) void client.invalidateQueries({ queryKey: apiKey(url) });
    }, LIVE_THROTTLE_MS);
  }, [client, key]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );
  useLiveEvents(LIVE_TYPES, onEvent);
  useLiveReconnect(onEvent);
}

const OVERVIEW_URLS = [DASHBOARD_OVERVIEW_PATH] as const;
const WALL_URLS = [DASHBOARD_OVERVIEW_PATH, DASHBOARD_DEVICE_MAP_PATH] as const;

/** The welcome page's figures, kept current by live events and an interval. */
export function useOverview(refreshMs = FALLBACK_REFRESH_MS) {
  useThrottledInvalidation(OVERVIEW_URLS);
  return useQuery({
    ...apiQuery<WelcomeOverview>(DASHBOARD_OVERVIEW_PATH, undefined, { silent: true }),
    staleTime: 0,
    refetchInterval: refreshMs,
    refetchOnWindowFocus: true,
  });
}

/** The wall screen's figures and device map; the wall has no one to press refresh. */
export function useWallData(refreshMs: number) {
  useThrottledInvalidation(WALL_URLS);
  const overview = useQuery({
    ...apiQuery<WelcomeOverview>(DASHBOARD_OVERVIEW_PATH, undefined, { silent: true }),
    staleTime: 0,
    refetchInterval: refreshMs,
    refetchIntervalInBackground: true,
  });
  const map = useQuery({
    ...apiQuery<WelcomeDeviceMap>(DASHBOARD_DEVICE_MAP_PATH, undefined, { silent: true }),
    staleTime: 0,
    refetchInterval: refreshMs,
    refetchIntervalInBackground: true,
  });
  return { overview, map };
}
