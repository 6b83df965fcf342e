import { createHash, timingSafeEqual } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/**
 * Passwords arrive as the md5 hex of what the user typed (the BladeX wire format). At rest we keep
 * argon2id of that md5 hex, never the md5 itself.
 */
// 2 is Algorithm.Argon2id (an ambient const enum, which isolated modules cannot read).
const ARGON2 = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

export function hashPassword(md5: string): Promise<string> {
  return hash(md5.toLowerCase(), ARGON2);
}

export async function verifyPassword(stored: string, md5: string): Promise<boolean> {
  try {
    return await verify(stored, md5.toLowerCase());
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so both cases take as long. */
let dummyHash: Promise<string> | undefined;
export function verifyAgainstDummy(md5: string): Promise<boolean> {
  dummyHash ??= hashPassword(md5Hex('no such account'));
  return dummyHash.then((h) => verifyPassword(h, md5)).then(() => false);
}

/** Client secrets are random, so a fast hash is enough; only the hash is stored. */
export const hashClientSecret = (secret: string): string =>
  `sha256:${createHash('sha256').update(secret).digest('hex')}`;

export function verifyClientSecret(stored: string, secret: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(hashClientSecret(secret));
  return a.length === b.length && timingSafeEqual(a, b);
}
