import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Messages } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { fail, ok } from '../../platform/http/envelope';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** 200 while the database answers; the server only listens once migrations and seed are done. */
  app.get('/api/health', { config: { public: true } }, async (_request, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      return ok({ status: 'UP' });
    } catch {
      return reply.code(503).send(fail(503, Messages.notReady));
    }
  });
}
