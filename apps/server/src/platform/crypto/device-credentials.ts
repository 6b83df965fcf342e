// Device secrets and client ids: made and checked by the device module, the seed and the simulator alike.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `d_` + 16 hex digits: 64 random bits, unique across tenants (a unique index backs it). */
export const newClientId = () => `d_${randomBytes(8).toString('hex')}`;

/** 32 random bytes as 64 hex digits: full entropy, so one SHA-256 is enough to store it. */
export const newSecret = () => randomBytes(32).toString('hex');

export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Compares a presented secret with the stored hash in constant time; no stored hash never matches. */
export function secretMatches(secret: string, storedHash: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(storedHash)) return false;
  const presented = createHash('sha256').update(secret, 'utf8').digest();
  return timingSafeEqual(presented, Buffer.from(storedHash, 'hex'));
}
