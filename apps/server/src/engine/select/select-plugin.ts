import type { FastifyContextConfig } from 'fastify';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { queryOf, type ResourcePlugin } from '../kernel/plugin';
import { TENANT_FILTER } from '../kernel/resource-service';
import { options } from './options';

/** `select`: every row for a picker (`ResourceService.options`), shaped by `def.select`. */
export const selectPlugin: ResourcePlugin = {
  name: 'select',
  appliesTo: (_binding, ops) => ops.has('select'),
  attach: (_ctx, binding) => ({
    register(app, routes, service) {
      const { base, read, docs } = routes;
      const def = binding.def;
      const children = def.select?.children;
      if (children && !(service.columns[children.field] && def.fields[children.checkAs ?? children.field]))
        throw new Error(`${def.code}: select.children names a field the resource does not have`);
      const config: FastifyContextConfig = def.select?.anyUser ? { anyUser: true } : read;
      app.get(`${base}/select`, { config, schema: docs.select }, async (request) =>
        ok(await options(service, queryOf(request)[TENANT_FILTER], requireAuth(request), queryOf(request))),
      );
    },
  }),
};
