import type { FastifyInstance } from 'fastify';
import { warningEscalationResource } from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../app-context';
import type { ChangeArgs } from '../../engine/resource-routes';
import { registerResource } from '../../engine/resource-routes';
import { warningEscalation } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import { enabledConfig } from '../providers/sms/sms-sender';
import {
  escalateWarnings,
  escalationSmsInterrupted,
  escalationSmsJob,
  sendEscalationSms,
  WARNING_ESCALATION_CRON,
  warningEscalationJob,
} from './escalation';
import { EscalationMessages } from './escalation-messages';

/**
 * The escalation steps (`/report/warning-escalation`, 统计报表 → 告警升级): the generic screen and
 * routes, with the checks a step needs beyond its fields — an SMS step needs a configuration
 * to send through — and the sweep's jobs (docs/warnings.md "Escalation").
 */
export function registerEscalationRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: warningEscalationResource,
    table: warningEscalation,
    hooks: {
      async beforeChange({ auth, values, existing }: ChangeArgs) {
        // An update sends what changed; the step is what is stored overlaid by it.
        const step = { ...existing, ...values };
        const sms = step.notifySms === true;
        const template = typeof step.smsTemplateId === 'string' ? step.smsTemplateId.trim() : '';
        if (template && !sms) throw badRequest(EscalationMessages.templateWithoutSms);
        if (sms && !(await enabledConfig(ctx, auth.tenantId))) throw badRequest(EscalationMessages.smsNeedsConfig);
      },
    },
  });
  oncePerContext(ctx, warningEscalationJob.name, () => {
    ctx.jobs.register(warningEscalationJob, () => escalateWarnings(ctx, new Date(ctx.clock.now())));
    ctx.jobs.schedule(warningEscalationJob, WARNING_ESCALATION_CRON, {});
    ctx.jobs.register(escalationSmsJob, (payload) => sendEscalationSms(ctx, payload, app.log), {
      failed: (payload) => escalationSmsInterrupted(ctx, payload),
    });
  });
}
