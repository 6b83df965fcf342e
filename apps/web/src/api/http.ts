import { message } from 'antd';
import type { ApiResult } from '@mes/contracts';
import { website } from '../config/website';
import { getStore } from '../storage/local-store';

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Query parameters; empty values are dropped. */
  params?: Record<string, string | number | undefined | null>;
  /** JSON body, form fields when `form` is set, or a `FormData` sent as multipart. */
  data?: unknown;
  form?: boolean;
  headers?: Record<string, string>;
  /** Leave out the bearer token (sign-in calls). */
  noToken?: boolean;
  /** Do not toast errors (the caller shows them). */
  silent?: boolean;
  /** Cancels the call (a query nobody waits for any more); the timeout still applies. */
  signal?: AbortSignal;
  /**
   * How long to wait for the answer (default `website.requestTimeoutMs`): longer for a call the
   * server answers only after heavy work (a layout save prints a trial PDF first).
   */
  timeoutMs?: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** The call never got an answer: no connection, or no reply within the timeout. */
export class NetworkError extends Error {}

let onUnauthorized: () => void = () => undefined;
/** The session registers what a 401 does (sign out and go to /login). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

let translateUnknown: () => string = () => '未知错误';
export function setUnknownErrorText(fn: () => string): void {
  translateUnknown = fn;
}

/**
 * Toasts a failed call: the server's message, or the generic text when no answer came. A 401 is
 * not toasted (the session handler signs out), nor is a cancelled call.
 */
export function toastRequestError(error: unknown): void {
  if (error instanceof ApiError) {
    if (error.status !== 401) void message.error(error.message);
  } else if (error instanceof NetworkError) {
    void message.error(translateUnknown());
  }
}

const basic = () => `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`;

/**
 * Calls `/api…` as spec section 8 says: the status is the body's `code` or the HTTP status; a 401
 * signs the user out; any other non-200 toasts `msg` / `error_description` and rejects.
 */
export async function request<T>(url: string, options: RequestOptions = {}): Promise<T> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(options.params ?? {})) {
    if (v !== undefined && v !== null && v !== '') query.set(k, String(v));
  }
  // The server writes its messages (refusals, 新增成功) in the interface's language.
  const headers: Record<string, string> = {
    Authorization: basic(),
    'Accept-Language': getStore<string>('language') === 'en' ? 'en' : 'zh-CN',
    ...options.headers,
  };
  const token = getStore<string>('token');
  if (token && !options.noToken) headers[website.tokenHeader] = `bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.data !== undefined) {
    if (options.data instanceof FormData) {
      body = options.data; // the browser sets the multipart boundary
    } else if (options.form) {
      body = new URLSearchParams(options.data as Record<string, string>);
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    } else {
      body = JSON.stringify(options.data);
      headers['Content-Type'] = 'application/json';
    }
  }
  // The timeout covers waiting for the answer's head, as before; reading the body is not cut off.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? website.requestTimeoutMs);
  let res: Response;
  try {
    const qs = query.toString();
    res = await fetch(`/api${url}${qs ? `?${qs}` : ''}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'include',
      signal: options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal,
    });
  } catch (error) {
    // The caller's own cancel stays an abort; anything else is a lost connection (not toasted
    // here, as before: queries report it once their retries are spent).
    if (options.signal?.aborted) throw error;
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
  const parsed: unknown = await res.json().catch(() => undefined);
  const envelope = parsed as (Partial<ApiResult<unknown>> & { error_description?: string }) | undefined;
  const status = typeof envelope?.code === 'number' ? envelope.code : res.status;
  if (status === 401) {
    onUnauthorized();
    throw new ApiError(401, envelope?.msg ?? '', parsed);
  }
  if (status !== 200) {
    const text = envelope?.msg || envelope?.error_description || translateUnknown();
    const failure = new ApiError(status, text, parsed);
    if (!options.silent) toastRequestError(failure);
    throw failure;
  }
  return parsed as T;
}

/** Calls an enveloped route and returns its `data`. */
export async function requestData<T>(url: string, options: RequestOptions = {}): Promise<T> {
  return (await request<ApiResult<T>>(url, options)).data;
}
