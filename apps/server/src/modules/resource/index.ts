import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { registerAttachRoutes } from './attach-routes';
import { registerOssRoutes } from './oss-routes';
import { registerSmsRoutes } from './sms-routes';
import { registerSocialSourceRoutes } from './social-source-routes';

/** The resource area (spec section 7 "Resources"): SMS, object storage, attachments, social sign-in. */
export function registerResourceArea(app: FastifyInstance, ctx: AppContext): void {
  registerSmsRoutes(app, ctx);
  registerOssRoutes(app, ctx);
  registerAttachRoutes(app, ctx);
  registerSocialSourceRoutes(app, ctx);
}
