import { and, eq } from 'drizzle-orm';
import { param } from '../../src/platform/db/schema';
import type { TestApp } from './test-app';

let nextParamId = 1_900_000_000_000_000_000n;

/** Sets a platform parameter (creating it when missing), as an administrator would on the parameter screen. */
export async function setParam(t: TestApp, key: string, value: string): Promise<void> {
  const updated = await t.ctx.db
    .update(param)
    .set({ paramValue: value })
    .where(and(eq(param.paramKey, key), eq(param.isDeleted, 0)))
    .returning({ id: param.id });
  if (updated.length) return;
  nextParamId += 1n;
  await t.ctx.db.insert(param).values({ id: String(nextParamId), paramName: key, paramKey: key, paramValue: value });
}

/**
 * The local test servers (OAuth, SMS, S3) listen on 127.0.0.1, which the outbound guard refuses
 * by default: the tests allow it the way a platform administrator would (docs/outbound.md).
 */
export const allowLoopback = (t: TestApp) => setParam(t, 'security.outbound.allow', '127.0.0.1, ::1');

/** Guest registration is off by default (`account.registerUser=false`). */
export const openRegistration = (t: TestApp) => setParam(t, 'account.registerUser', 'true');
