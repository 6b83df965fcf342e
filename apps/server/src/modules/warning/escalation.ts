import { and, asc, eq, gte, lte, notExists, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  EscalationSms,
  EscalationStatus,
  formatDateTime,
  NoticeAudience,
  UNHANDLED_WARNING_STATUSES,
  UserStatus,
  WarningLevel,
  type WarningLiveEvent,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { device, notice, role, user, warning, warningEscalation, warningHistory } from '../../platform/db/schema';
import { nextId } from '../../platform/db/ids';
import { badRequest, HttpError } from '../../platform/http/errors';
import { defineJob } from '../../platform/jobs/job-definition';
import { notifyLive } from '../../platform/live/notify-live';
import { liveRows, tenantScope } from '../../platform/tenancy/tenant-scope';
import { liveClient, noticeEvent } from '../desk/notice-release';
import { enabledConfig, PHONE, sendSms } from '../resource/sms/sms-sender';
import { EscalationMessages } from './escalation-messages';

/**
 * Escalation of warnings nobody answers (docs/warnings.md "Escalation"): once a minute, across
 * every server process once, each enabled step of a tenant (`mes_warning_escalation`) finds the
 * unhandled warnings of its level that started at least its minutes ago and have no entry of
 * that step in their history, and for each: a notice to the step's role, a live event, an SMS to
 * the role's users' phones, and the history entry. The history row is inserted first, under a
 * unique (warning, step) index, so of two sweeps that see the same warning only one notifies;
 * the rest of the work is in the same transaction, so a failure leaves nothing half done.
 */

/** The sweep: every minute, not retried (the next run makes up for a failed one). */
export const warningEscalationJob = defineJob({
  name: 'warning.escalate',
  payload: z.object({}),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 5 * 60,
});
export const WARNING_ESCALATION_CRON = '* * * * *';

/**
 * The SMS of one escalation, sent after its transaction commits (a provider call never holds the
 * warning's lock). A retry could text the same people twice, and the next step texts anyway.
 */
export const escalationSmsJob = defineJob({
  name: 'warning.escalation-sms',
  payload: z.object({
    tenantId: z.string(),
    historyId: z.string(),
    templateId: z.string(),
    phones: z.array(z.string()),
    params: z.record(z.string(), z.string()),
  }),
  retry: { limit: 0, delaySeconds: 30, backoff: false },
});

/**
 * Escalations per sweep at most: a step saved over a backlog, or a line of devices failing
 * together, texts people in batches of this many a minute rather than all at once.
 */
export const ESCALATIONS_PER_SWEEP = 200;

const LEVEL_NAMES: Record<number, string> = {
  [WarningLevel.critical]: '紧急',
  [WarningLevel.major]: '重要',
  [WarningLevel.minor]: '次要',
  [WarningLevel.warning]: '提示',
};

type Step = {
  id: string;
  tenantId: string;
  level: number;
  afterMinutes: number;
  roleId: string | null;
  notifySms: boolean;
  smsTemplateId: string;
  notifyLive: boolean;
  createTime: Date;
};

const unhandled = () =>
  sql`${warning.status} in (${sql.join(
    UNHANDLED_WARNING_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )})`;

/**
 * Runs one sweep at `now`; answers how many escalations it made. A warning counts as due for a
 * step from `startTime + afterMinutes`, and only when that moment came after the step was saved:
 * a step added today escalates today's warnings, not last month's unanswered backlog.
 */
export async function escalateWarnings(ctx: AppContext, now: Date): Promise<{ escalated: number }> {
  // Every tenant's enabled steps: the sweep is for all tenants, each step then works in its own.
  const steps: Step[] = await ctx.db
    .select({
      id: warningEscalation.id,
      tenantId: warningEscalation.tenantId,
      level: warningEscalation.level,
      afterMinutes: warningEscalation.afterMinutes,
      roleId: warningEscalation.roleId,
      notifySms: warningEscalation.notifySms,
      smsTemplateId: warningEscalation.smsTemplateId,
      notifyLive: warningEscalation.notifyLive,
      createTime: warningEscalation.createTime,
    })
    .from(warningEscalation)
    // The field `status` shares its name with the audit columns' status, which muddles its type.
    .where(and(liveRows(warningEscalation), sql`${warningEscalation.status} = ${EscalationStatus.on}`))
    .orderBy(asc(warningEscalation.afterMinutes), asc(warningEscalation.id));
  let escalated = 0;
  for (const step of steps) {
    if (escalated >= ESCALATIONS_PER_SWEEP) break;
    const wait = step.afterMinutes * 60_000;
    const due = await tenantScope(ctx.db, step.tenantId)
      .select(warning, { id: warning.id })
      .where(
        unhandled(),
        eq(warning.level, step.level),
        lte(warning.startTime, new Date(now.getTime() - wait)),
        gte(warning.startTime, new Date(step.createTime.getTime() - wait)),
        notExists(
          ctx.db
            .select({ one: sql`1` })
            .from(warningHistory)
            .where(and(eq(warningHistory.warningId, warning.id), eq(warningHistory.policyId, step.id))),
        ),
      )
      .orderBy(asc(warning.startTime), asc(warning.id))
      .limit(ESCALATIONS_PER_SWEEP - escalated);
    for (const { id } of due) if (await escalateOne(ctx, step, String(id), now)) escalated += 1;
  }
  return { escalated };
}

/** One warning at one step, in one transaction; false when it was handled or escalated meanwhile. */
async function escalateOne(ctx: AppContext, step: Step, warningId: string, now: Date): Promise<boolean> {
  let noticeId: string | undefined;
  const done = await ctx.db.transaction(async (tx) => {
    const scope = tenantScope(tx, step.tenantId);
    // Locked, so a `handle` running now either comes first (and the warning is skipped) or waits.
    const [row] = await scope
      .select(warning, {
        id: warning.id,
        warningNo: warning.warningNo,
        deptId: warning.deptId,
        deviceCode: warning.deviceCode,
        level: warning.level,
        status: sql<number>`${warning.status}`.mapWith(Number),
        message: warning.message,
        startTime: warning.startTime,
      })
      .where(eq(warning.id, warningId), unhandled())
      .for('update');
    if (!row) return false;
    const historyId = nextId();
    // The claim: a second process, or a second run, meets the unique index and does nothing.
    const claimed = await scope
      .insert(warningHistory)
      .values({
        id: historyId,
        warningId,
        action: 'escalated',
        policyId: step.id,
        afterMinutes: step.afterMinutes,
        roleId: step.roleId,
        at: now,
      })
      .onConflictDoNothing()
      .returning({ id: warningHistory.id });
    if (!claimed.length) return false;

    const roleId = step.roleId ?? '';
    const [roleRow] = roleId ? await scope.select(role, { roleName: role.roleName }).where(eq(role.id, roleId)) : [];
    const users = roleId
      ? await scope
          .select(user, { id: user.id, realName: user.realName, account: user.account, phone: user.phone })
          .where(sql`${roleId}::text = any(string_to_array(${user.roleId}, ','))`, eq(user.status, UserStatus.active))
          .orderBy(asc(user.id))
      : [];
    const [deviceRow] = await scope
      .select(device, { deviceName: device.deviceName })
      .where(eq(device.deviceCode, row.deviceCode))
      .limit(1);
    const deviceText = deviceRow?.deviceName ? `${deviceRow.deviceName}(${row.deviceCode})` : row.deviceCode;
    const levelText = LEVEL_NAMES[row.level] ?? String(row.level);
    const facts = {
      warningNo: row.warningNo,
      device: deviceText,
      level: levelText,
      minutes: String(step.afterMinutes),
    };

    // The notice: in the bell's 通知 tab of the role's users, whoever of them signs in next.
    noticeId = nextId();
    const title = EscalationMessages.noticeTitle(facts).slice(0, 255);
    const audienceIds = roleId;
    await scope.insert(notice).values({
      id: noticeId,
      title,
      category: 1,
      // Released at once: the inbox compares release times with the wall clock (notice-routes.ts).
      releaseTime: new Date(),
      audienceType: NoticeAudience.roles,
      audienceIds,
      content: EscalationMessages.noticeContent({
        ...facts,
        message: row.message,
        startTime: row.startTime ? formatDateTime(row.startTime) : '',
      }),
      createTime: now,
      updateTime: now,
    });

    if (step.notifyLive) {
      const escalatedEvent: WarningLiveEvent = {
        type: 'warning',
        action: 'escalated',
        tenantId: step.tenantId,
        deptId: row.deptId === null ? null : String(row.deptId),
        warningId,
        warningNo: row.warningNo,
        deviceCode: row.deviceCode,
        level: row.level,
        status: row.status,
        message: row.message.slice(0, 500),
        at: now.toISOString(),
      };
      await notifyLive(liveClient(tx), [
        noticeEvent(
          { tenantId: step.tenantId, id: noticeId, title, audienceType: NoticeAudience.roles, audienceIds },
          'released',
        ),
        escalatedEvent,
      ]);
    }

    let smsStatus: string = EscalationSms.off;
    let smsDetail = '';
    if (step.notifySms) {
      const phones = [...new Set(users.map((u) => (u.phone ?? '').trim()).filter((p) => PHONE.test(p)))];
      if (phones.length) {
        await ctx.jobs.enqueueInTransaction(tx, escalationSmsJob, {
          tenantId: step.tenantId,
          historyId,
          templateId: step.smsTemplateId.trim(),
          phones,
          params: facts,
        });
        smsStatus = EscalationSms.queued;
        smsDetail = phones.join(',');
      } else smsStatus = EscalationSms.noPhone;
    }
    await scope
      .update(warningHistory)
      .set({
        roleName: String(roleRow?.roleName ?? '').slice(0, 255),
        userIds: users.map((u) => String(u.id)).join(','),
        userNames: users.map((u) => u.realName || u.account).join(','),
        noticeId,
        live: step.notifyLive,
        smsStatus,
        smsDetail: smsDetail.slice(0, 1000),
      })
      .where(eq(warningHistory.id, historyId));
    return true;
  });
  // The notices' cached totals (the 通知公告 list) follow at once, as after a notice saved by hand.
  if (done) await ctx.totals.changed('notice', step.tenantId);
  return done;
}

/** The job of `warning.escalation-sms`: sends through the tenant's enabled configuration, then records the outcome. */
export async function sendEscalationSms(
  ctx: AppContext,
  payload: z.infer<typeof escalationSmsJob.payload>,
  log: FastifyBaseLogger,
): Promise<{ sent: boolean }> {
  let status: string = EscalationSms.sent;
  let detail = payload.phones.join(',');
  try {
    const config = await enabledConfig(ctx, payload.tenantId);
    if (!config) throw badRequest(EscalationMessages.noSmsConfig);
    const templated = payload.templateId ? { ...config, templateId: payload.templateId } : config;
    await sendSms(ctx, templated, { phones: payload.phones, params: payload.params }, log);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    status = EscalationSms.failed;
    detail = error.textIn('zh');
    log.warn(
      { tenantId: payload.tenantId, historyId: payload.historyId, reason: error.textIn('en') },
      'escalation SMS',
    );
  }
  await tenantScope(ctx.db, payload.tenantId)
    .update(warningHistory)
    .set({ smsStatus: status, smsDetail: detail.slice(0, 1000) })
    .where(eq(warningHistory.id, payload.historyId));
  return { sent: status === EscalationSms.sent };
}
