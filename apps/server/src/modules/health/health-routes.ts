import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bilingual } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { isDatabaseUnavailable } from '../../platform/db/unavailable';
import { fail, ok } from '../../platform/http/envelope';
import { DATABASE_UNAVAILABLE_TEXT } from '../../platform/http/database-unavailable';
import { requestLanguage } from '../../platform/http/request-language';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  /**
   * 200 while the database answers; the server only listens once migrations and seed are done.
   * Asked anew each time, so it turns 503 while the database is unreachable and 200 again as
   * soon as it is back, without a restart.
   */
  app.get('/api/health', { config: { public: true } }, async (request, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      return ok({ status: 'UP' });
    } catch (error) {
      const text = isDatabaseUnavailable(error) ? DATABASE_UNAVAILABLE_TEXT : bilingual('notReady');
      return reply.code(503).send(fail(503, text[requestLanguage(request)]));
    }
  });
}
