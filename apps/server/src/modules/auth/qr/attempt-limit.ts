import type { AppContext } from '../../../app-context';
import { bilingual } from '@mes/contracts';
import { HttpError } from '../../../platform/http/errors';

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
  if (count > max) throw new HttpError(429, bilingual('tooManyRequests'));
}
