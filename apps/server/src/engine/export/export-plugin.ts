import { bilingual } from '@mes/contracts';
import { requireAuth } from '../../platform/auth/request-auth';
import { HttpError } from '../../platform/http/errors';
import { queryOf, type ResourcePlugin } from '../kernel/plugin';
import { MAX_EXPORT_ROWS } from '../kernel/resource-service';
import { sendXlsx } from '../xlsx-export';
import { threadSource } from './export-source';

/** `export`: the list's rows (every tenant's where the list shows them) as an xlsx workbook. */
export const exportPlugin: ResourcePlugin = {
  name: 'export',
  appliesTo: (_binding, ops) => ops.has('export'),
  attach: (ctx, binding) => ({
    register(app, routes, service) {
      const { base, read, docs } = routes;
      const def = binding.def;
      const query = queryOf;
      app.get(`${base}/export`, { config: read, schema: docs.export }, async (request, reply) => {
        const auth = requireAuth(request);
        // The tenant's share of exports (429 before any row is read), held until the workbook is written.
        const release = await app.fairShares.take('export', auth.tenantId);
        try {
          const rows = await service.exportPages(query(request), auth);
          if (rows.count > MAX_EXPORT_ROWS) throw new HttpError(400, bilingual('exportTooLarge', MAX_EXPORT_ROWS));
          const source = await threadSource(ctx, service, rows.query, auth);
          return await sendXlsx(
            reply,
            ctx,
            def,
            { ...rows, source },
            auth,
            request.headers['accept-language'],
            release,
          );
        } finally {
          await release();
        }
      });
    },
  }),
};
