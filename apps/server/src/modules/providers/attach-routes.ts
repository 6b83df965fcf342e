import type { FastifyInstance } from 'fastify';
import { apiScopeCodes, attachResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type RemoveArgs } from '../../engine/resource-routes';
import { requireAuth } from '../../platform/auth/request-auth';
import { attach } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { attachmentDisposition } from './storage/file-types';
import { storageOf } from './storage/tenant-storage';

export const AttachMessages = {
  uploadOnly: { zh: '附件只能通过上传新增', en: 'Attachments can only be added by uploading' },
  fileGone: { zh: '附件文件不存在或已被删除', en: `The attachment's file does not exist or has been deleted` },
} as const;

/**
 * Attachments: the generic page, detail, submit (original name only), remove and export, plus
 * `download`. Rows are created by `oss/endpoint/put-file`; removing one removes its stored file.
 */
export function registerAttachRoutes(app: FastifyInstance, ctx: AppContext): void {
  const base = `/api${attachResource.api}`;
  const scopes = apiScopeCodes(attachResource.code);

  /**
   * Stored files are deleted only once the rows are gone for good (after the commit), so a
   * failed removal never leaves a row without its file; a file that is already gone, or a
   * provider that cannot be reached, does not block the removal (it is logged instead).
   */
  const removeFiles = async ({ tx, auth, rows, afterCommit }: RemoveArgs) => {
    for (const row of rows) {
      const key = String(row.name);
      const ossCode = String(row.ossCode);
      let provider;
      try {
        provider = await storageOf(ctx, tx, auth.tenantId, ossCode);
      } catch (err) {
        app.log.warn({ err, key, ossCode }, 'attachment removed without its stored file');
        continue;
      }
      afterCommit(() =>
        provider.remove(key).catch((err: unknown) => {
          app.log.warn({ err, key, ossCode }, 'could not remove the stored file of an attachment');
        }),
      );
    }
  };

  const service = registerResource(app, ctx, {
    def: attachResource,
    table: attach,
    hooks: {
      beforeChange: ({ adding }) => {
        if (adding) throw badRequest(AttachMessages.uploadOnly);
      },
      beforeRemove: removeFiles,
    },
  });

  // The spec names the list route `list`; the definition's is `page`. Both answer a page.
  app.get(`${base}/list`, { config: { apiScope: scopes.read } }, async (request) =>
    ok(await service.page(request.query as Record<string, unknown>, requireAuth(request))),
  );

  app.get<{ Querystring: { id?: unknown } }>(
    `${base}/download`,
    { config: { apiScope: scopes.read } },
    async (request, reply) => {
      const auth = requireAuth(request);
      // The caller's tenant (and data scope) decide whether the row exists for them at all.
      const row = await service.detail(request.query.id, auth);
      const provider = await storageOf(ctx, ctx.db, auth.tenantId, String(row.ossCode));
      const body = await provider.open(String(row.name));
      if (!body) throw notFound(AttachMessages.fileGone);
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Disposition', attachmentDisposition(String(row.originalName)))
        .header('Cache-Control', 'private, no-store')
        .send(body);
    },
  );
}
