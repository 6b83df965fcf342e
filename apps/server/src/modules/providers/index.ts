import { attachResource, ossResource, smsResource, socialSourceResource } from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerAttachRoutes } from './attach-routes';
import { registerOssRoutes } from './oss-routes';
import { registerSmsRoutes } from './sms-routes';
import { registerSocialSourceRoutes } from './social-source-routes';

/** The resource area (spec section 7 "Resources"): SMS, object storage, attachments, social sign-in. */
export const resourceRouteBindings: readonly RouteBinding[] = [
  { defs: [smsResource], register: registerSmsRoutes },
  { defs: [ossResource], register: registerOssRoutes },
  { defs: [attachResource], register: registerAttachRoutes },
  { defs: [socialSourceResource], register: registerSocialSourceRoutes },
];
