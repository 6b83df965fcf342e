import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bilingual } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { isDatabaseUnavailable } from '../../platform/db/unavailable';
import { fail, ok } from '../../platform/http/envelope';
import { DATABASE_UNAVAILABLE_TEXT } from '../../platform/http/database-unavailable';
import { requestLanguage } from '../../platform/http/request-language';
import { brokerReachable } from '../../platform/metrics/metrics';

const HealthMessages = {
  brokerDown: {
    zh: 'MQTT 代理不可达,设备数据暂时无法接收',
    en: 'The MQTT broker is not reachable: device data cannot arrive',
  },
  brokerNotStarted: {
    zh: 'MQTT 尚未启动,设备数据暂时无法接收',
    en: 'MQTT has not started yet: device data cannot arrive',
  },
};

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

  /**
   * Liveness (docs/operations.md): the process is up and its event loop answers. Asks nothing of the
   * database or the broker, so an orchestrator never restarts a process for an outage elsewhere.
   */
  app.get('/api/health/live', { config: { public: true } }, async () => ok({ status: 'UP' }));

  /**
   * Readiness: the database answers and the MQTT broker is reachable (embedded: listening; external:
   * subscribed). 503 names what is missing, so a load balancer sends no traffic here meanwhile.
   */
  app.get('/api/health/ready', { config: { public: true } }, async (request, reply) => {
    const lang = requestLanguage(request);
    const problems: string[] = [];
    let database = 'UP';
    try {
      await ctx.db.execute(sql`select 1`);
    } catch (error) {
      database = 'DOWN';
      problems.push((isDatabaseUnavailable(error) ? DATABASE_UNAVAILABLE_TEXT : bilingual('notReady'))[lang]);
    }
    const reachable = brokerReachable();
    const broker = reachable === undefined ? 'STARTING' : reachable ? 'UP' : 'DOWN';
    if (!reachable)
      problems.push((reachable === undefined ? HealthMessages.brokerNotStarted : HealthMessages.brokerDown)[lang]);
    if (problems.length === 0) return ok({ status: 'UP', database, broker });
    return reply.code(503).send({ ...fail(503, problems.join('; ')), data: { status: 'DOWN', database, broker } });
  });
}
