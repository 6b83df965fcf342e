import type { AppContext } from '../../../app-context';
import { HttpError } from '../../../platform/http/errors';

export const LimitMessages = { tooMany: '请求过于频繁,请稍后再试' } as const;

/**
 * Counts calls of a public route per client address and refuses (429) beyond `max` per window:
 * anonymous callers may otherwise fill the shared store with sessions or registrations.
 */
export async function limitAttempts(
  ctx: AppContext,
  kind: string,
  client: string,
  max: number,
  windowMs: number,
): Promise<void> {
  const count = await ctx.store.increment(`limit:${kind}:${client}`, windowMs);
  if (count > max) throw new HttpError(429, LimitMessages.tooMany);
}
