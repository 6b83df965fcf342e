import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

/** The welcome page's and the wall screen's figures (`/blade-desk/dashboard/...`). */
export function registerWelcomeRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
