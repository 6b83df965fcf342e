import { createHash } from 'node:crypto';

const MD5_HEX = /^[0-9a-f]{32}$/i;

/**
 * Passwords travel as the md5 hex of the typed text from our web app; a client of the BladeX
 * family sends the text itself. Both end as the md5 hex that argon2 stores, so a 32-hex-digit
 * value is taken as already hashed (a typed password of exactly that shape is the rare loss).
 */
export function wirePasswordToMd5(value: string): string {
  return MD5_HEX.test(value) ? value.toLowerCase() : md5Hex(value);
}
const md5Hex = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
