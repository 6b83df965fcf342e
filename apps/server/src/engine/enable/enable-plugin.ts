import { bilingual } from '@mes/contracts';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { queryOf, type ResourcePlugin } from '../kernel/plugin';
import { enable } from './enable';

/** `enable`: makes one row the tenant's only enabled row (`ResourceService.enable`). */
export const enablePlugin: ResourcePlugin = {
  name: 'enable',
  appliesTo: (_binding, ops) => ops.has('enable'),
  attach: () => ({
    register(app, routes, service) {
      const { base, write, docs } = routes;
      app.post(`${base}/enable`, { config: write, schema: docs.enable }, async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        await enable(service, queryOf(request).id ?? body.id, requireAuth(request));
        return ok(true, bilingual('enabled')[requestLanguage(request)]);
      });
    },
  }),
};
