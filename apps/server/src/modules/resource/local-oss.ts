import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';

/** The spec's avatar limit (500 KB). */
export const MAX_UPLOAD_BYTES = 500 * 1024;

export const OssMessages = {
  noFile: '请选择要上传的文件',
  badType: '只能上传 JPG 或 PNG 格式的图片',
  tooLarge: '上传的文件不能超过 500KB',
  badName: '文件名不正确',
} as const;

const FILE_ROUTE = '/api/blade-resource/oss/endpoint/file';
const DAY = /^\d{8}$/;
const NAME = /^[0-9a-f]{32}\.(jpg|png)$/;
const CONTENT_TYPES = { jpg: 'image/jpeg', png: 'image/png' } as const;
type Extension = keyof typeof CONTENT_TYPES;

/**
 * The type comes from the bytes, never from the client's name or Content-Type, which it chooses
 * freely: a script renamed `.png` must not be stored and served back as an image.
 */
export function imageExtension(bytes: Buffer): Extension | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  return undefined;
}

/** A client's file name is only echoed back, but one that carries a path is refused outright. */
const hasPathOrControl = (name: string) => [...name].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20);

const dayOf = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
};

const uploadRoot = (ctx: AppContext) => path.join(ctx.dataDir, 'upload');

/**
 * The local-disk OSS provider: `put-file` stores one JPEG or PNG under
 * `DATA_DIR/upload/<yyyyMMdd>/<random>.<ext>`, `file/:day/:name` serves it back.
 */
export function registerLocalOssRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Multipart parsing is registered only around the upload route, so no other route accepts it.
  app.register(async (scoped) => {
    await scoped.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10 },
      // Keep the name as sent so that a name carrying a path is refused rather than silently cut.
      preservePath: true,
    });

    scoped.post('/api/blade-resource/oss/endpoint/put-file', { config: { anyUser: true } }, async (request) => {
      if (!request.isMultipart()) throw badRequest(OssMessages.noFile);
      const file = await request.file();
      if (!file) throw badRequest(OssMessages.noFile);
      const originalName = file.filename;
      if (!originalName || originalName.length > 255 || hasPathOrControl(originalName)) {
        file.file.resume();
        throw badRequest(OssMessages.badName);
      }
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(OssMessages.tooLarge);
        throw e;
      }
      if (bytes.length > MAX_UPLOAD_BYTES) throw badRequest(OssMessages.tooLarge);
      const ext = imageExtension(bytes);
      if (!ext) throw badRequest(OssMessages.badType);

      const day = dayOf(ctx.clock.now());
      const stored = `${randomBytes(16).toString('hex')}.${ext}`;
      const dir = path.join(uploadRoot(ctx), day);
      await fs.mkdir(dir, { recursive: true });
      // `wx`: never overwrite, even in the (astronomically unlikely) case of a repeated name.
      await fs.writeFile(path.join(dir, stored), bytes, { flag: 'wx', mode: 0o640 });
      const name = `${day}/${stored}`;
      return ok({ link: `${FILE_ROUTE}/${name}`, name, originalName });
    });
  });

  // Public on purpose: an <img src> cannot send the Blade-Auth header, so a protected route could
  // never show an avatar. What protects the files is the name: 128 random bits, not listable and
  // not guessable, handed out only to the uploader (and to whoever sees the avatar it became).
  app.get<{ Params: { day: string; name: string } }>(
    `${FILE_ROUTE}/:day/:name`,
    { config: { public: true } },
    async (request, reply) => {
      const { day, name } = request.params;
      // Both segments must match exactly, so nothing like `..` or an encoded slash reaches the path.
      const match = NAME.exec(name);
      if (!DAY.test(day) || !match) throw badRequest(OssMessages.badName);
      let bytes: Buffer;
      try {
        bytes = await fs.readFile(path.join(uploadRoot(ctx), day, name));
      } catch {
        throw notFound();
      }
      return reply
        .header('Content-Type', CONTENT_TYPES[match[1] as Extension])
        .header('Content-Disposition', 'inline')
        .header('Cache-Control', 'private, max-age=86400')
        .send(bytes);
    },
  );
}
