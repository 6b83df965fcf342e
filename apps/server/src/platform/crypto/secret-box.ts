import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { readOrCreateSecret } from '../data-dir';

/**
 * Encrypts secrets kept at rest (datasource passwords, later OSS/SMS keys) with AES-256-GCM:
 * a random 96-bit IV per value and the authentication tag stored beside the cipher text, so a
 * tampered value fails to open instead of decrypting to garbage.
 */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const HKDF_INFO = 'mes-console secret-box v1';
/** Environment variable that supplies the key material (at least 32 characters). */
export const ENCRYPTION_KEY_ENV = 'DATA_ENCRYPTION_KEY';
/** File in DATA_DIR that holds generated key material when the variable is unset. */
export const ENCRYPTION_KEY_FILE = 'data-key';

export class SecretBox {
  private readonly key: Buffer;

  /** `material` is high-entropy text; the AES key is derived from it with HKDF-SHA256. */
  constructor(material: string) {
    if (material.length < 32) throw new Error(`${ENCRYPTION_KEY_ENV} must be at least 32 characters`);
    this.key = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), HKDF_INFO, 32));
  }

  seal(plain: string): string {
    if (plain === '') return '';
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return `${PREFIX}${iv.toString('base64url')}.${tag.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** The plain text of a sealed value; throws when the value was altered or sealed with another key. */
  open(sealed: string): string {
    if (sealed === '') return '';
    if (!SecretBox.isSealed(sealed)) throw new Error('value is not sealed');
    const [iv, tag, body] = sealed.slice(PREFIX.length).split('.');
    if (iv === undefined || tag === undefined || body === undefined) throw new Error('malformed sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }
}

const boxes = new Map<string, SecretBox>();

/**
 * The secret box of a server: key material from DATA_ENCRYPTION_KEY, else generated once into
 * DATA_DIR/data-key (owner-readable), as the JWT secret is. Several processes sharing one
 * database must share the variable (or the file). Never a key in the code.
 */
export function secretBoxFor(dataDir: string, env: NodeJS.ProcessEnv = process.env): SecretBox {
  const fromEnv = env[ENCRYPTION_KEY_ENV]?.trim();
  const cacheKey = fromEnv ? `env:${fromEnv}` : `dir:${dataDir}`;
  let box = boxes.get(cacheKey);
  if (!box) {
    box = new SecretBox(fromEnv || readOrCreateSecret(dataDir, ENCRYPTION_KEY_FILE));
    boxes.set(cacheKey, box);
  }
  return box;
}
