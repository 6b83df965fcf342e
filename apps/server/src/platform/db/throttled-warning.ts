export type Warn = (message: string, error?: unknown) => void;

/**
 * A warning said at most once per `intervalMs`, with how many were held back since: during an
 * outage every request and every pooled connection fails, and the log must stay readable.
 */
export function throttledWarning(warn: Warn, intervalMs = 10_000, now: () => number = Date.now): Warn {
  let last = -Infinity;
  let held = 0;
  return (message, error) => {
    const t = now();
    if (t - last < intervalMs) {
      held += 1;
      return;
    }
    last = t;
    const suffix = held > 0 ? ` (and ${held} more since the last such line)` : '';
    held = 0;
    warn(`${message}${suffix}`, error);
  };
}
