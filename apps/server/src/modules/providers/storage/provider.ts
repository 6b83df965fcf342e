import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/** Where a stored object can be reached, as the attachment row keeps it. */
export interface StoredLocation {
  /** The object's address: a route of this server (local disk) or the provider's URL. */
  link: string;
  /** The address prefix the link starts with (BladeX `domainUrl`). */
  domainUrl: string;
}

export interface PutObject {
  key: string;
  bytes: Buffer;
  /** What a browser opening the link is told; only sniffed images get an image type. */
  contentType: string;
  /** `attachment; ...` for anything that is not an image, so the provider never renders it. */
  contentDisposition?: string;
}

/**
 * One place files are kept: the server's disk or an S3-compatible bucket. Provider failures are
 * thrown as 400 errors with a message that names the problem but never a credential.
 */
export interface StorageProvider {
  /** `attach.oss_code` of the files it stores (`local` for the disk without a configuration). */
  readonly ossCode: string;
  put(object: PutObject): Promise<StoredLocation>;
  /** The object's bytes, or undefined when it is gone. */
  open(key: string): Promise<Readable | undefined>;
  /** Removes the object; one that is already gone is not an error. */
  remove(key: string): Promise<void>;
}

/** `attach.oss_code` of files on the local disk when the tenant has no configuration enabled. */
export const LOCAL_OSS_CODE = 'local';

/** Object keys the server generates: `upload/<yyyyMMdd>/<32 hex>[.<ext>]`. */
export const OBJECT_KEY = /^upload\/(\d{8})\/([0-9a-f]{32}(?:\.[a-z0-9]{1,16})?)$/;

const dayOf = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
};

/** A new object key: 128 random bits, so a key is neither guessable nor ever reused. */
export function newObjectKey(nowMs: number, extension: string): string {
  const name = randomBytes(16).toString('hex');
  return `upload/${dayOf(nowMs)}/${extension ? `${name}.${extension}` : name}`;
}
