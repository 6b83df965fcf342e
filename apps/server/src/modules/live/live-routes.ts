import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

/** `GET /api/blade-desk/live`: the caller's stream of live events (docs/live.md). */
export function registerLiveRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
