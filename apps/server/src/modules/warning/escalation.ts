import { and, asc, eq, gte, lte, notExists, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  EscalationSms,
  EscalationStatus,
  formatDateTime,
  NoticeAudience,
  UNHANDLED_WARNING_STATUSES,
  WarningLevel,
  type WarningLiveEvent,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { device, notice, role, warning, warningEscalation, warningHistory } from '../../platform/db/schema';
import { nextId } from '../../platform/db/ids';
import { badRequest, HttpError } from '../../platform/http/errors';
import { defineJob } from '../../platform/jobs/job-definition';
import { notifyLive } from '../../platform/live/notify-live';
import { liveRows, tenantScope } from '../../platform/tenancy/tenant-scope';
import { liveClient, noticeEvent } from '../desk/notice-release';
import { enabledConfig, PHONE, sendSms } from '../providers/sms/sms-sender';
import { bothLanguages, EscalationMessages } from './escalation-messages';
import { escalationRecipients } from './escalation-recipients';

/**
 * Escalation of warnings nobody answers (docs/warnings.md "Escalation"): once a minute, across
 * every server process once, each enabled step of a tenant (`mes_warning_escalation`) finds the
 * unhandled warnings of its level that started at least its minutes ago and have no entry of
 * that step in their history, and for each: a notice to the step's role's users who may see the
 * warning (escalation-recipients.ts), a live event, an SMS to those users' phones, and the
 * history entry. The history row is inserted first, under a
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
    // Only the role's users who could open this warning in the list: another department's are left out.
    const users = await escalationRecipients(ctx, tx, { tenantId: step.tenantId, roleId, warningId });
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

    // The notice: in the bell's 通知 tab of exactly those users (audience 指定用户), so a user of the
    // role outside the warning's data scope does not see it; nobody to notify, no notice.
    const audienceIds = users.map((u) => u.id).join(',');
    noticeId = audienceIds ? nextId() : undefined;
    const title = EscalationMessages.noticeTitle(facts).slice(0, 255);
    if (noticeId)
      await scope.insert(notice).values({
        id: noticeId,
        title,
        category: 1,
        // Released at once: the inbox compares release times with the wall clock (notice-routes.ts).
        releaseTime: new Date(),
        audienceType: NoticeAudience.users,
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
      // The popover's toast is the notice's `released` event, to the notified users only; the
      // warning event goes to the streams whose warnings scope covers it (live-access.ts).
      const released = noticeId
        ? [
            noticeEvent(
              { tenantId: step.tenantId, id: noticeId, title, audienceType: NoticeAudience.users, audienceIds },
              'released',
            ),
          ]
        : [];
      await notifyLive(liveClient(tx), [...released, escalatedEvent]);
    }

    let smsStatus: string = EscalationSms.off;
    let smsDetail = '';
    if (step.notifySms) {
      const phones = [...new Set(users.map((u) => u.phone).filter((p) => PHONE.test(p)))];
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
        userIds: audienceIds,
        userNames: users.map((u) => u.name).join(','),
        noticeId: noticeId ?? null,
        live: step.notifyLive,
        smsStatus,
        smsDetail: smsDetail.slice(0, 1000),
      })
      .where(eq(warningHistory.id, historyId));
    return true;
  });
  // The notices' cached totals (the 通知公告 list) follow at once, as after a notice saved by hand.
  if (done && noticeId) await ctx.totals.changed('notice', step.tenantId);
  return done;
}

type SmsOutcome = { status: string; detail: string };

/** Writes the outcome on the escalation's history entry; `onlyIfQueued`: not over one a run wrote. */
async function recordSms(
  ctx: AppContext,
  tenantId: string,
  historyId: string,
  outcome: SmsOutcome,
  onlyIfQueued = false,
) {
  await tenantScope(ctx.db, tenantId)
    .update(warningHistory)
    .set({ smsStatus: outcome.status, smsDetail: outcome.detail.slice(0, 1000) })
    .where(
      eq(warningHistory.id, historyId),
      onlyIfQueued ? eq(warningHistory.smsStatus, EscalationSms.queued) : undefined,
    );
}

/**
 * The job of `warning.escalation-sms`: sends through the tenant's enabled configuration, then
 * records the outcome. It never leaves the entry `queued`: a refusal (no configuration, the
 * provider's answer) is `failed` with its reason; any other error is `failed` with a server-error
 * reason and fails the job too (listed on the failed-jobs screen); a run whose process dies is
 * answered by `escalationSmsInterrupted`.
 */
export async function sendEscalationSms(
  ctx: AppContext,
  payload: z.infer<typeof escalationSmsJob.payload>,
  log: FastifyBaseLogger,
): Promise<{ sent: boolean }> {
  const { tenantId, historyId } = payload;
  let outcome: SmsOutcome = { status: EscalationSms.sent, detail: payload.phones.join(',') };
  try {
    const config = await enabledConfig(ctx, tenantId);
    if (!config) throw badRequest(EscalationMessages.noSmsConfig);
    const templated = payload.templateId ? { ...config, templateId: payload.templateId } : config;
    await sendSms(ctx, templated, { phones: payload.phones, params: payload.params }, log);
  } catch (error) {
    const refused = error instanceof HttpError;
    const reason = refused ? { zh: error.textIn('zh'), en: error.textIn('en') } : EscalationMessages.smsError;
    outcome = { status: EscalationSms.failed, detail: bothLanguages(reason) };
    log.warn({ tenantId, historyId, reason: reason.en, err: refused ? undefined : error }, 'escalation SMS');
    if (!refused) {
      // Best effort: the database may be what failed; the job's failure is recorded either way.
      await recordSms(ctx, tenantId, historyId, outcome).catch(() => undefined);
      throw error;
    }
  }
  await recordSms(ctx, tenantId, historyId, outcome);
  return { sent: outcome.status === EscalationSms.sent };
}

/**
 * The `failed` hook of `warning.escalation-sms` (docs/jobs.md "A crash during a job"): the process
 * running it died (kill -9, power) and no retry is left, so the entry still `queued` becomes
 * `failed` with that reason; an entry a run already finished keeps its outcome.
 */
export async function escalationSmsInterrupted(
  ctx: AppContext,
  payload: z.infer<typeof escalationSmsJob.payload>,
): Promise<void> {
  await recordSms(
    ctx,
    payload.tenantId,
    payload.historyId,
    { status: EscalationSms.failed, detail: bothLanguages(EscalationMessages.smsInterrupted) },
    true,
  );
}
