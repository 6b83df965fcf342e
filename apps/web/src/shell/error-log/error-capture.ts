import type { ErrorInfo } from 'react';
import { describeReason, makeEntry } from './error-entry';
import { useErrorLog } from './error-log-store';

let installed = false;

function record(fields: { message: string; stack?: string; info: string }): void {
  try {
    useErrorLog.getState().add(makeEntry({ ...fields, url: window.location.href, time: Date.now() }));
  } catch {
    // Recording must never throw: a failure here would raise another 'error' event.
  }
}

/** Records a render error a React error boundary caught. */
export function recordReactError(error: unknown, info?: ErrorInfo): void {
  const { message, stack } = describeReason(error);
  record({ message, stack, info: `react${info?.componentStack ? `:${info.componentStack}` : ''}` });
}

/** Records uncaught errors and unhandled rejections into the local error log. */
export function installErrorCapture(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (event: ErrorEvent) => {
    const described = event.error !== undefined && event.error !== null ? describeReason(event.error) : undefined;
    const where = event.filename ? ` ${event.filename}:${event.lineno}:${event.colno}` : '';
    record({
      message: described?.message || event.message || 'Script error',
      stack: described?.stack,
      info: `window.onerror${where}`,
    });
  });
  window.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    const { message, stack } = describeReason(event.reason);
    record({ message, stack, info: 'unhandledrejection' });
  });
}
