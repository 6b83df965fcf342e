import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

/** Routes of the error log: storing uploaded local error logs. */
export function registerErrorLogRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
