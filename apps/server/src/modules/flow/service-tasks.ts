import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { NoticeAudience, type LocalText } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { resourceServiceOf } from '../../engine/resource-routes';
import { flowHistory, notice, role, user } from '../../platform/db/schema';
import { nextId } from '../../platform/db/ids';
import { HttpError } from '../../platform/http/errors';
import { defineJob } from '../../platform/jobs/job-definition';
import { notifyLive } from '../../platform/live/notify-live';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { liveClient, noticeEvent } from '../desk/notice-release';
import { actingUser } from '../report/report-runs';
import { configByCode, enabledConfig, PHONE, sendSms } from '../providers/sms/sms-sender';
import { settableField, smsParams, type ServiceMeta } from './bpmn-model';
import { evaluateTemplate, ExpressionError } from './expression';
import type { Variables } from './flow-engine';
import { FlowMessages, ModelMessages, plain, RunMessages } from './flow-messages';

/**
 * The service tasks that reach outside the instance (docs/workflow.md, "Service tasks"): a
 * notice, an SMS, a field of a business record. A failure never stops the instance nor turns
 * the move into an error: a process is a company's routine, and a missing phone number must not
 * hold up an approval. The task's step in the history says what happened instead — done, or
 * failed with the reason — where whoever follows the process sees it.
 */

type Tx = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0];

/** What one service task did, for its step in the history. */
export interface TaskOutcome {
  ok: boolean;
  text: LocalText;
}

/** The instance a task runs in, and who made the move that reached it. */
export interface TaskContext {
  tenantId: string;
  starter: string | null;
  /** The user whose move ran the task (none for a timer). */
  actor: string | null;
  now: Date;
  historyId: string;
  elementId: string;
}

/** A service task's refusal: recorded on its step, never thrown to the caller. */
class TaskFailure extends Error {
  constructor(readonly text: LocalText) {
    super(text.zh);
  }
}

const failed = (text: LocalText): TaskOutcome => ({ ok: false, text: RunMessages.serviceFailed(text) });

function reasonOf(error: unknown): LocalText {
  if (error instanceof TaskFailure || error instanceof ExpressionError) return error.text;
  if (error instanceof HttpError) return { zh: error.textIn('zh'), en: error.textIn('en') };
  throw error;
}

/** An SMS of a process, sent after the move commits; its outcome is written on the task's step. */
export const flowSmsJob = defineJob({
  name: 'flow.sms',
  payload: z.object({
    tenantId: z.string(),
    historyId: z.string(),
    smsCode: z.string(),
    phones: z.array(z.string()),
    params: z.record(z.string(), z.string()),
  }),
  // A provider's refusal is final, and a retry could send the message twice: the step says why.
  retry: { limit: 0, delaySeconds: 30, backoff: false },
});

const text = (template: string | undefined, variables: Variables) =>
  String(template ? (evaluateTemplate(template, variables) ?? '') : '');

const USER_ID = /^\d{1,19}$/;

export class ServiceTasks {
  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Runs one task in the move's transaction; never throws for what the task itself found wrong. */
  async run(tx: Tx, task: TaskContext, service: ServiceMeta, variables: Variables): Promise<TaskOutcome> {
    try {
      switch (service.kind) {
        case 'notice':
          return await this.notice(tx, task, service, variables);
        case 'sms':
          return await this.sms(tx, task, service, variables);
        case 'setField':
          return await this.setField(tx, task, service, variables);
        default:
          return { ok: true, text: plain('') };
      }
    } catch (error) {
      return failed(reasonOf(error));
    }
  }

  /**
   * `starter`, `assignee` or user ids (a template's value, `taskUser_42` too), each a user of the
   * tenant; anyone else refuses the task.
   */
  private async users(tx: Tx, task: TaskContext, template: string | undefined, variables: Variables) {
    const ids = new Set<string>();
    for (const part of text(template, variables).split(',')) {
      const token = part.trim().replace(/^taskUser_/, '');
      if (!token) continue;
      const id = token === 'starter' ? task.starter : token === 'assignee' ? task.actor : token;
      if (!id || !USER_ID.test(id)) throw new TaskFailure(FlowMessages.badUser(token));
      ids.add(id);
    }
    if (!ids.size) return [];
    const rows = await tenantScope(tx, task.tenantId)
      .select(user, { id: user.id, phone: user.phone, account: user.account })
      .where(inArray(user.id, [...ids]));
    const missing = [...ids].find((id) => !rows.some((r) => String(r.id) === id));
    if (missing) throw new TaskFailure(FlowMessages.badUser(missing));
    return rows.map((r) => ({ id: String(r.id), phone: r.phone ?? '', account: r.account }));
  }

  /** A released notice to the roles (aliases), departments (ids) or users named; else to everyone. */
  private async notice(tx: Tx, task: TaskContext, service: ServiceMeta, variables: Variables): Promise<TaskOutcome> {
    const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const split = (s: string) =>
      s
        .split(',')
        .map((p) => p.trim().replace(/^taskUser_/, ''))
        .filter(Boolean);
    const aliases = split(text(service.roles, variables));
    const depts = split(text(service.depts, variables));
    const users = await this.users(tx, task, service.users, variables);
    let audienceType: number = NoticeAudience.everyone;
    let audienceIds = '';
    if (users.length) {
      audienceType = NoticeAudience.users;
      audienceIds = users.map((u) => u.id).join(',');
    } else if (aliases.length) {
      const roles = await tenantScope(tx, task.tenantId)
        .select(role, { id: role.id })
        .where(inArray(role.roleAlias, aliases));
      audienceType = NoticeAudience.roles;
      audienceIds = roles.map((r) => String(r.id)).join(',');
    } else if (depts.length) {
      audienceType = NoticeAudience.depts;
      audienceIds = depts.join(',');
    }
    const id = nextId();
    const title = text(service.title, variables).slice(0, 255) || RunMessages.noticeTitle.zh;
    await tenantScope(tx, task.tenantId)
      .insert(notice)
      .values({
        id,
        title,
        category: 1,
        releaseTime: task.now,
        audienceType,
        audienceIds,
        content: `<p>${escape(text(service.content, variables))}</p>`,
        createUser: task.actor,
        createTime: task.now,
        updateTime: task.now,
      });
    // The readers' inboxes refresh when the move commits, as for a notice released by hand.
    await notifyLive(liveClient(tx), [
      noticeEvent({ tenantId: task.tenantId, id, title, audienceType, audienceIds }, 'released'),
    ]);
    return { ok: true, text: RunMessages.noticeSent };
  }

  /**
   * Resolves the numbers and parameters now (a missing phone is this step's failure) and sends
   * through a job once the move commits: a move that rolls back sends nothing, and no provider
   * call holds the instance's lock.
   */
  private async sms(tx: Tx, task: TaskContext, service: ServiceMeta, variables: Variables): Promise<TaskOutcome> {
    const phones = new Set<string>();
    const direct = text(service.phone, variables)
      .split(/[,，\s]+/)
      .filter(Boolean);
    for (const phone of direct) {
      if (!PHONE.test(phone)) throw new TaskFailure(RunMessages.badPhone(phone.slice(0, 32)));
      phones.add(phone);
    }
    for (const u of await this.users(tx, task, service.users, variables)) {
      if (!PHONE.test(u.phone)) throw new TaskFailure(RunMessages.noPhone(u.account));
      phones.add(u.phone);
    }
    if (!phones.size) throw new TaskFailure(RunMessages.noPhone(text(service.users, variables)));
    const params: Record<string, string> = {};
    for (const [name, variable] of smsParams(service.params) ?? []) {
      const value = evaluateTemplate(`\${${variable}}`, variables);
      params[name] = value === undefined || value === null ? '' : String(value);
    }
    await this.ctx.jobs.enqueueInTransaction(tx, flowSmsJob, {
      tenantId: task.tenantId,
      historyId: task.historyId,
      smsCode: text(service.smsCode, variables).trim(),
      phones: [...phones],
      params,
    });
    return { ok: true, text: RunMessages.smsQueued };
  }

  /** The job of `flow.sms`: sends, then writes the outcome on the task's step. */
  async sendSms(payload: z.infer<typeof flowSmsJob.payload>): Promise<{ sent: boolean }> {
    let outcome: TaskOutcome;
    try {
      const config = payload.smsCode
        ? await configByCode(this.ctx, payload.tenantId, payload.smsCode)
        : await enabledConfig(this.ctx, payload.tenantId);
      if (!config) throw new TaskFailure(RunMessages.noSmsConfig);
      await sendSms(this.ctx, config, { phones: payload.phones, params: payload.params }, this.log);
      outcome = { ok: true, text: RunMessages.smsSent(payload.phones.join(',')) };
    } catch (error) {
      outcome = failed(reasonOf(error));
      this.log.warn({ tenantId: payload.tenantId, historyId: payload.historyId, reason: outcome.text.en }, 'flow SMS');
    }
    await tenantScope(this.ctx.db, payload.tenantId)
      .update(flowHistory)
      .set({ comment: outcome.text.zh.slice(0, 1000), isPass: outcome.ok, updateTime: new Date(this.ctx.clock.now()) })
      .where(eq(flowHistory.id, payload.historyId));
    await this.ctx.totals.changed('flow_history', payload.tenantId);
    return { sent: outcome.ok };
  }

  /**
   * One field of one business record, through the resource's own submit in a savepoint of the
   * move: its validation, references, tenant, the acting user's data scope and the operation log
   * all apply, and a refusal undoes only this change. The acting user is whoever made the move
   * (the starter when a timer did).
   */
  private async setField(tx: Tx, task: TaskContext, service: ServiceMeta, variables: Variables): Promise<TaskOutcome> {
    const code = service.resource ?? '';
    const resource = resourceServiceOf(this.ctx, code);
    if (!resource) throw new TaskFailure(ModelMessages.unknownResource(task.elementId, code, ''));
    // A field named by an expression is known only now.
    const field = text(service.field, variables).trim();
    if (!settableField(resource.binding.def, field))
      throw new TaskFailure(ModelMessages.unknownField(task.elementId, code, field.slice(0, 64)));
    const recordId = text(service.recordId, variables).trim();
    if (!USER_ID.test(recordId)) throw new TaskFailure(RunMessages.badRecordId(recordId.slice(0, 32)));
    const actingId = task.actor ?? task.starter;
    const auth = actingId ? await actingUser(this.ctx, task.tenantId, actingId) : undefined;
    if (!auth) throw new TaskFailure(FlowMessages.badUser(actingId ?? ''));
    const value = service.value === undefined ? null : evaluateTemplate(service.value, variables);
    await resource.submit({ id: recordId, [field]: value ?? null }, auth, tx);
    return { ok: true, text: RunMessages.fieldSet(code, recordId, field) };
  }
}
