import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';

/** Routes of GET /api/blade-system/menu/top-menu (the caller's top menus). */
export function registerTopMenuRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
