import type { FastifyInstance } from 'fastify';
import { bilingual } from '@mes/contracts';
import { fail } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { METRICS_CONTENT_TYPE, metricsText, metricsTokenMatches } from '../../platform/metrics/metrics';

/**
 * `GET /metrics`, the Prometheus text format (docs/operations.md "Metrics"). Outside `/api`: not a
 * user's route, and not signed in with a session. It answers only `Authorization: Bearer
 * <METRICS_TOKEN>`; without the setting it is 404 like any unknown path (it is registered anyway,
 * so the web app's index.html is not served in its place).
 */
export function registerMetricsRoute(app: FastifyInstance, token: string | undefined): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const lang = requestLanguage(request);
    if (!token) return reply.code(404).send(fail(404, bilingual('notFound')[lang]));
    if (!metricsTokenMatches(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .send(fail(401, bilingual('unauthorized')[lang]));
    }
    return reply
      .header('Content-Type', METRICS_CONTENT_TYPE)
      .header('Cache-Control', 'no-store')
      .send(await metricsText());
  });
}
