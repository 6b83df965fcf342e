import { reportFileResource, reportScheduleResource, reportTemplateResource } from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerReportRoutes } from './report-routes';

/** Report templates, files and schedules (docs/reports.md). */
export const reportRouteBindings: readonly RouteBinding[] = [
  { defs: [reportTemplateResource, reportFileResource, reportScheduleResource], register: registerReportRoutes },
];
