import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { OBJECT_KEY, type PutObject, type StorageProvider, type StoredLocation } from './provider';

/** The public route that serves local files: `<FILE_ROUTE>/<yyyyMMdd>/<name>`. */
export const FILE_ROUTE = '/api/blade-resource/oss/endpoint/file';

/**
 * Files under `DATA_DIR/upload/<yyyyMMdd>/<random>.<ext>`. Only keys the server generated are
 * accepted, so no stored name (or a tampered attachment row) can point outside that folder.
 */
export class LocalDiskStorage implements StorageProvider {
  constructor(
    private readonly dataDir: string,
    readonly ossCode: string,
  ) {}

  private pathOf(key: string): string {
    const m = OBJECT_KEY.exec(key);
    if (!m) throw new Error(`not an object key: ${key}`);
    return path.join(this.dataDir, 'upload', m[1] as string, m[2] as string);
  }

  async put(object: PutObject): Promise<StoredLocation> {
    const file = this.pathOf(object.key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // `wx`: never overwrite, even in the (astronomically unlikely) case of a repeated name.
    await fs.writeFile(file, object.bytes, { flag: 'wx', mode: 0o640 });
    return { link: `${FILE_ROUTE}/${object.key.slice('upload/'.length)}`, domainUrl: FILE_ROUTE };
  }

  async open(key: string): Promise<Readable | undefined> {
    const file = this.pathOf(key);
    try {
      await fs.access(file);
    } catch {
      return undefined;
    }
    return createReadStream(file);
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}
