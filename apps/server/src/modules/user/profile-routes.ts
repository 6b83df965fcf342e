import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

/** Routes of update-info, update-password and the avatar upload. */
export function registerProfileRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
