import type { FastifyInstance } from 'fastify';
import { clientResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { hashClientSecret } from '../../platform/auth/passwords';
import { oauthClient } from '../../platform/db/schema';

/**
 * OAuth clients; secrets stored hashed. An update without a secret keeps the stored hash
 * (validation leaves an empty secret out), and the engine never sends the secret back.
 */
export function registerClientRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: clientResource,
    table: oauthClient,
    hooks: {
      beforeChange({ values }) {
        if (typeof values.clientSecret === 'string' && values.clientSecret !== '')
          values.clientSecret = hashClientSecret(values.clientSecret);
      },
    },
  });
}
