import { QueryCache, QueryClient, queryOptions, type Query } from '@tanstack/react-query';
import type { ApiResult } from '@mes/contracts';
import { ApiError, NetworkError, request, requestData, toastRequestError, type RequestOptions } from './http';

declare module '@tanstack/react-query' {
  interface Register {
    /** `silent`: the screen shows the failure itself (or has a fallback), no toast. */
    queryMeta: { silent?: boolean };
  }
}

/** Query parameters of a GET; empty values are dropped, as the HTTP client drops them. */
export type ApiParams = Record<string, string | number | undefined | null>;

/** How often a failed read is tried again before its failure is shown. */
export const READ_RETRIES = 2;

/**
 * Lists and screen data count as fresh for half a minute: a kept-alive tab shown again within
 * that time shows what it has without asking again. Writes made in this console invalidate the
 * resource at once (every screen of it reloads), so the time only bounds how long another
 * user's change can go unseen until the screen is shown again or 刷新 is pressed.
 */
export const LIST_STALE_MS = 30_000;

/** Option lists (dictionaries, picker trees) change rarely, and edits here invalidate them. */
export const OPTIONS_STALE_MS = 5 * 60_000;

/**
 * A read is worth another try when no answer came or the server failed (5xx); a 4xx (bad
 * parameters, no permission, signed out) answers the same every time.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && error.status >= 500;
}

export const shouldRetry = (failureCount: number, error: unknown): boolean =>
  failureCount < READ_RETRIES && isRetryable(error);

/** Drops the empty parameters, so `{a: ''}` and `{}` name the same call. */
function normalParams(params: ApiParams | undefined): Record<string, string | number> | undefined {
  if (!params) return undefined;
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The cache key of a GET: the route first and its parameters second. Every read of the same
 * route and parameters shares one cache entry, whatever screen asks; invalidating a resource
 * is a match on the route's prefix (see {@link invalidateRoutes}).
 */
export type ApiKey = readonly [route: string, params?: Record<string, string | number>];

export function apiKey(url: string, params?: ApiParams): ApiKey {
  const normal = normalParams(params);
  return normal ? [url, normal] : [url];
}

export interface ApiQueryOptions {
  /** The screen shows the failure itself (or has a fallback): no toast. */
  silent?: boolean;
  staleTime?: number;
}

/**
 * A GET of an enveloped route as a query. The call itself is silent: the query cache toasts a
 * failure once, after the retries, unless `silent` (the screen shows the failure itself).
 */
export function apiQuery<T>(url: string, params?: ApiParams, options: ApiQueryOptions = {}) {
  const normal = normalParams(params);
  return queryOptions({
    queryKey: apiKey(url, params),
    queryFn: ({ signal }) => requestData<T>(url, { params: normal, signal, silent: true }),
    meta: { silent: options.silent ?? false },
    ...(options.staleTime !== undefined ? { staleTime: options.staleTime } : {}),
  });
}

/**
 * What a definition's keys need of it: its `api` (contracts' `ResourceDef` has one). A
 * definition's route is its api and an action (`page`, `detail`, `tree`, …), so its keys are
 * route keys too: one cache entry whether a screen names the definition or the route.
 */
export interface ResourceRef {
  readonly api: string;
}

/** The route of one action of a definition: `${api}/${action}`. */
export const resourceRoute = (def: ResourceRef, action: string): string => `${def.api}/${action}`;

/** The cache key of a definition's action (refine-style: definition, action, parameters). */
export const resourceKey = (def: ResourceRef, action: string, params?: ApiParams): ApiKey =>
  apiKey(resourceRoute(def, action), params);

/** A GET of a definition's action as a query (see {@link apiQuery}). */
export const resourceQuery = <T>(def: ResourceRef, action: string, params?: ApiParams, options: ApiQueryOptions = {}) =>
  apiQuery<T>(resourceRoute(def, action), params, options);

/** What a write may say besides its body (a form-encoded body, query parameters, a longer wait). */
export type WriteOptions = Pick<RequestOptions, 'form' | 'params' | 'timeoutMs' | 'silent'>;

/**
 * A GET inside a query's own function, when one query is several calls (every page of a
 * printout, a fallback route): the query keys and caches the whole, this only makes the call.
 */
export function apiGet<T>(url: string, params?: ApiParams, options: Pick<RequestOptions, 'signal' | 'silent'> = {}) {
  return requestData<T>(url, { ...options, params: normalParams(params) });
}

/**
 * A POST to an enveloped route, for a write's `mutationFn` (see `useApiWrite`): screens write
 * through this and read through queries, never through the HTTP client itself.
 */
export function apiPost<R = unknown>(url: string, data?: unknown, options: WriteOptions = {}): Promise<R> {
  return requestData<R>(url, { ...options, method: 'POST', data });
}

/** A POST whose whole reply the screen needs (the server's `msg` is what it shows). */
export function apiPostReply<R = unknown>(url: string, data?: unknown, options: WriteOptions = {}) {
  return request<ApiResult<R>>(url, { ...options, method: 'POST', data });
}

/** Whether `url` is one of the routes of `api` (the system dictionaries' `api` holds `DictPaths.entries`, not `DictPaths.bizEntries`). */
export function isUnderRoute(url: string, api: string): boolean {
  if (url === api) return true;
  if (!url.startsWith(api)) return false;
  const next = url.charAt(api.length);
  return next === '/' || next === '?';
}

const routeOf = (query: Pick<Query, 'queryKey'>): string | undefined =>
  typeof query.queryKey[0] === 'string' ? query.queryKey[0] : undefined;

/**
 * Marks every cached read of a resource's routes stale after a write (its lists, its own tree
 * as a picker, a dictionary's entries): what is on screen reloads now, hidden tabs and other
 * screens reload when they are shown again.
 */
export function invalidateRoutes(client: QueryClient, target: string | ResourceRef): Promise<void> {
  const api = typeof target === 'string' ? target : target.api;
  return client.invalidateQueries({
    predicate: (query) => {
      const route = routeOf(query);
      return route !== undefined && isUnderRoute(route, api);
    },
  });
}

/**
 * The console's query client. Reads: retried on lost connections and 5xx only, one toast per
 * failure once the retries are spent, and no refetch when the window regains focus — lists here
 * are worked on (ticked rows, open dialogs) and a focus refetch that changes the rows would drop
 * the user's selection; this console's own writes invalidate exactly what they change instead.
 * Writes are never retried (they are not idempotent); their calls toast through the HTTP client.
 */
export function createQueryClient(showError: (error: unknown) => void = toastRequestError): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silent) showError(error);
      },
    }),
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        staleTime: LIST_STALE_MS,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
