import { createRequire } from 'node:module';

type Warn = (message: string, error: unknown) => void;
type Method = (this: unknown, ...args: unknown[]) => Promise<unknown>;

const GUARDED = ['complete', 'fail'] as const;
let currentWarn: Warn | undefined;

/**
 * pg-boss 10's work loop (src/manager.js, `onFetch`) calls `this.complete(...)` and
 * `this.fail(...)` without awaiting them. While the database is unreachable both reject and no
 * one listens, so each job that ends during an outage is an unhandled rejection. The job itself
 * is safe: it stays active, expires and runs again (docs/jobs.md). This gives the promise a
 * listener that says what happened, and still hands the same promise to whoever awaits it.
 *
 * Done once per process, on the prototype, because the manager instance is private to PgBoss.
 */
export function guardPgBossCompletion(warn: Warn): void {
  currentWarn = warn;
  const load = createRequire(import.meta.url);
  const manager = load('pg-boss/src/manager') as { prototype: Record<string, unknown> };
  for (const name of GUARDED) {
    const original = manager.prototype[name] as Method & { guarded?: true };
    if (typeof original !== 'function') throw new Error(`pg-boss has no manager.${name}: review this guard`);
    if (original.guarded) continue;
    const guarded = function (this: unknown, ...args: unknown[]): Promise<unknown> {
      const result = original.apply(this, args);
      result.catch((error: unknown) =>
        currentWarn?.(
          `job queue: could not record a job as ${name === 'fail' ? 'failed' : 'completed'}; it runs again after it expires`,
          error,
        ),
      );
      return result;
    } as Method & { guarded?: true };
    guarded.guarded = true;
    manager.prototype[name] = guarded;
  }
}
