import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { invalidParamText } from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { requireAuth } from '../../../platform/auth/request-auth';
import { ok } from '../../../platform/http/envelope';
import { badRequest, forbidden, notFound } from '../../../platform/http/errors';
import { attachmentDisposition, DANGEROUS_EXTENSIONS, extensionOf, servedAs } from './file-types';
import { FILE_ROUTE } from './local-disk';
import {
  checkContent,
  checkName,
  MAX_FILE_BYTES,
  mayChooseConfig,
  maxBytesOf,
  storeUpload,
  tooLargeMessage,
  uploadKindOf,
  UploadMessages,
} from './upload';

const DAY = /^\d{8}$/;
const NAME = /^[0-9a-f]{32}(?:\.[a-z0-9]{1,16})?$/;
/** Enough leading bytes to recognise every image signature `sniffImage` knows. */
const SNIFF_BYTES = 16;

interface PutFileQuery {
  code?: unknown;
  kind?: unknown;
}

/**
 * `POST put-file` (any signed-in user; `code=` needs `oss:write`) and the public `file/:day/:name`
 * route that serves files kept on the local disk.
 */
export function registerStorageEndpoints(app: FastifyInstance, ctx: AppContext): void {
  // Multipart parsing is registered only around the upload route, so no other route accepts it.
  app.register(async (scoped) => {
    await scoped.register(multipart, {
      limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 10, parts: 20 },
      // Keep the name as sent so that a name carrying a path is refused rather than silently cut.
      preservePath: true,
    });

    scoped.post<{ Querystring: PutFileQuery }>(
      '/api/blade-resource/oss/endpoint/put-file',
      { config: { anyUser: true } },
      async (request) => {
        const auth = requireAuth(request);
        const kind = uploadKindOf(request.query.kind);
        const rawCode = request.query.code;
        if (rawCode !== undefined && typeof rawCode !== 'string')
          throw badRequest(invalidParamText('code', { zh: '应为一个资源编号', en: 'must be one resource code' }));
        const code = rawCode?.trim() || undefined;
        if (code && !(await mayChooseConfig(ctx, auth))) throw forbidden();

        if (!request.isMultipart()) throw badRequest(UploadMessages.noFile);
        const limit = maxBytesOf(kind);
        const file = await request.file({ limits: { fileSize: limit, files: 1, fields: 10, parts: 20 } });
        if (!file) throw badRequest(UploadMessages.noFile);
        const originalName = file.filename;
        try {
          checkName(originalName, kind);
        } catch (e) {
          file.file.resume();
          throw e;
        }
        let bytes: Buffer;
        try {
          bytes = await file.toBuffer();
        } catch (e) {
          if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(tooLargeMessage(kind));
          throw e;
        }
        const checked = checkContent(originalName, bytes, kind);
        return ok(await storeUpload(ctx, auth, { originalName, bytes, checked, code }, request.log));
      },
    );
  });

  // Public on purpose: an <img src> cannot send the Blade-Auth header, so a protected route could
  // never show an avatar. What protects the files is the name: 128 random bits, not listable and
  // not guessable, handed out only to the uploader (and to whoever sees the link it became).
  app.get<{ Params: { day: string; name: string } }>(
    `${FILE_ROUTE}/:day/:name`,
    { config: { public: true } },
    async (request, reply) => {
      const { day, name } = request.params;
      // Both segments must match exactly, so nothing like `..` or an encoded slash reaches the path.
      if (!DAY.test(day) || !NAME.test(name) || DANGEROUS_EXTENSIONS.has(extensionOf(name)))
        throw badRequest(UploadMessages.badName);
      const file = path.join(ctx.dataDir, 'upload', day, name);
      let first: Buffer;
      let size: number;
      try {
        const handle = await fs.open(file, 'r');
        try {
          size = (await handle.stat()).size;
          const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
          first = buffer.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      } catch {
        throw notFound();
      }
      // Images by their bytes are shown; anything else is only downloaded, never rendered.
      const served = servedAs(first);
      return reply
        .header('Content-Type', served.contentType)
        .header('Content-Disposition', served.inline ? 'inline' : attachmentDisposition(name))
        .header('Content-Length', size)
        .header('Cache-Control', 'private, max-age=86400')
        .send(createReadStream(file));
    },
  );
}
