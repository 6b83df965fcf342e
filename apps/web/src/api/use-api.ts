import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { apiQuery, invalidateRoutes, resourceRoute, type ApiParams, type ResourceRef } from './server-state';

interface ApiReadOptions<T, S> {
  /** Asked only while true (a dialog's data while it is open). */
  enabled?: boolean;
  /** The view a screen needs of the answer; the cache keeps the answer itself, shared by all. */
  select?: (data: T) => S;
  /** The screen shows the failure itself (or has a fallback): no toast. */
  silent?: boolean;
  staleTime?: number;
}

/**
 * A screen's read of an enveloped GET, cached under its route and parameters (so two screens
 * reading the same route share one answer) and reloaded when a write invalidates the route.
 */
export function useApiRead<T, S = T>(url: string, params?: ApiParams, options: ApiReadOptions<T, S> = {}) {
  const { enabled, select, silent, staleTime } = options;
  return useQuery({
    ...apiQuery<T>(url, params, { silent, staleTime }),
    enabled,
    select,
  });
}

/** A screen's read of one action of a definition (`useResourceRead(def, 'page', params)`). */
export function useResourceRead<T, S = T>(
  def: ResourceRef,
  action: string,
  params?: ApiParams,
  options: ApiReadOptions<T, S> = {},
) {
  return useApiRead<T, S>(resourceRoute(def, action), params, options);
}

/**
 * A read the user asks for at a moment (a scan, a search, a button): fetched now whatever the
 * cache holds, not retried, kept under its key for the screens reading the same route, and its
 * failure left to the caller (no toast).
 */
export function useFetchNow() {
  const client = useQueryClient();
  return useCallback(
    <T>(url: string, params?: ApiParams): Promise<T> =>
      client.fetchQuery({ ...apiQuery<T>(url, params, { silent: true }), staleTime: 0, retry: false }),
    [client],
  );
}

/**
 * What a dialog seeds its draft from: the answer once nothing is being fetched any more, so a
 * draft never starts from a stale copy that a refetch is about to replace.
 */
export const settled = <S>(query: { data: S | undefined; isFetching: boolean }): S | undefined =>
  query.isFetching ? undefined : query.data;

/**
 * Gives a form each new answer of a read once. A kept-alive tab shown again refetches, and the
 * answer settles again with the same data (the cache keeps the same object when nothing
 * changed): that must not overwrite what the user has typed since.
 */
export function useSeedOnce<S>(value: S | undefined, apply: (value: S) => void): void {
  const applied = useRef<S | undefined>(undefined);
  useEffect(() => {
    if (value === undefined || value === applied.current) return;
    applied.current = value;
    apply(value);
  });
}

/**
 * A screen's write: never retried, toasted by the HTTP client when it fails, and on success the
 * given resources (a definition, or a route of its own) are invalidated so every screen reading them
 * reloads.
 */
export function useApiWrite<V, R = unknown>(
  write: (variables: V) => Promise<R>,
  invalidates: readonly (string | ResourceRef)[],
) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: write,
    // Not awaited: the dialog closes at once, the screens reload behind it.
    onSuccess: () => {
      for (const route of invalidates) void invalidateRoutes(client, route);
    },
  });
  return mutation.mutateAsync;
}
