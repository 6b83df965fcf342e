import { desc, eq, inArray, isNull, max, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  flowInstanceResource,
  flowModelResource,
  FlowInstanceStatus,
  FlowSuspension,
  FlowTaskStatus,
  operationLogResource,
  type LocalText,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { splitIds, type AuthContext } from '../../platform/auth/request-auth';
import { flowDefinition, flowDeployment, flowHistory, flowInstance, flowTask, user } from '../../platform/db/schema';
import { nextId } from '../../platform/db/ids';
import { recordOperation } from '../../platform/audit/operation-audit';
import { HttpError } from '../../platform/http/errors';
import { defineJob } from '../../platform/jobs/job-definition';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { readModel, type ProcessMeta } from './bpmn-model';
import { evaluateTemplate, ExpressionError } from './expression';
import { EngineRunError, runEngine, type EngineAction, type EngineRun, type Variables } from './flow-engine';
import { at, FlowMessages, plain, RunMessages } from './flow-messages';
import { LEAVE_PROCESS_XML } from './leave-process';
import { ensureShippedModel, noticeUnclaimableTask, someoneCanClaim } from './process-groups';
import { ServiceTasks } from './service-tasks';

type Db = AppContext['db'];
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type DefinitionRow = typeof flowDefinition.$inferSelect;
type InstanceRow = typeof flowInstance.$inferSelect;
type TaskRow = typeof flowTask.$inferSelect;

/** A refusal in the caller's language is built by the route; the service throws the two texts. */
export class FlowError extends Error {
  constructor(
    readonly code: number,
    readonly text: LocalText,
  ) {
    super(text.zh);
  }
}
const refuse = (text: LocalText, code = 400) => new FlowError(code, text);
/** An error's words in both languages: an expression's own, or the message as it is. */
const faultText = (error: unknown): LocalText =>
  error instanceof ExpressionError ? error.text : plain((error as Error).message);
/** Call activities calling call activities: this deep at most (a model calling itself is refused at save). */
const MAX_CALL_DEPTH = 5;

/** A boundary or intermediate timer of an instance: fired once, by whichever process takes the job. */
export const flowTimerJob = defineJob({
  name: 'flow.timer',
  payload: z.object({ tenantId: z.string(), instanceId: z.string(), executionId: z.string() }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
});

export interface Actor {
  userId: string;
  name: string;
}

/** Candidate groups a caller belongs to: their role aliases and their departments. */
export const groupsOf = (auth: AuthContext) => [...auth.roleAliases, ...splitIds(auth.deptId)];

/** The tasks `auth` may claim: open, unassigned, naming them or one of their groups. */
export function candidateCondition(auth: AuthContext): SQL {
  const groups = groupsOf(auth).join(',');
  return sql`(string_to_array(coalesce(${flowTask.candidateUsers}, ''), ',') && array[${auth.userId}]::text[]
    or string_to_array(coalesce(${flowTask.candidateGroups}, ''), ',') && string_to_array(${groups}, ','))`;
}

/** `taskUser_42`, as the family's forms send a user, or `42`. */
const userIdOf = (value: unknown): string =>
  String(value ?? '')
    .trim()
    .replace(/^taskUser_/, '');
const listOf = (value: unknown): string[] =>
  String(value ?? '')
    .split(',')
    .map(userIdOf)
    .filter(Boolean);

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Variables a client sends: a flat object of JSON scalars with plain names. */
export function clientVariables(value: unknown): Variables {
  if (value === undefined || value === null || value === '') return {};
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw refuse(FlowMessages.badVariables);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse(FlowMessages.badVariables);
  const out: Variables = {};
  for (const [name, v] of Object.entries(parsed)) {
    if (!VARIABLE_NAME.test(name)) throw refuse(FlowMessages.badVariables);
    if (v !== null && !['string', 'number', 'boolean'].includes(typeof v)) throw refuse(FlowMessages.badVariables);
    if (typeof v === 'string' && v.length > 2000) throw refuse(FlowMessages.badVariables);
    out[name] = v;
  }
  return out;
}

export class FlowService {
  private readonly seeded = new Set<string>();
  readonly tasks: ServiceTasks;

  constructor(
    private readonly ctx: AppContext,
    log: FastifyBaseLogger,
  ) {
    this.tasks = new ServiceTasks(ctx, log);
  }

  private now() {
    return new Date(this.ctx.clock.now());
  }

  async userNames(db: Db | Tx, tenantId: string, ids: string[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id) => /^\d{1,19}$/.test(id)))];
    if (!wanted.length) return new Map();
    const rows = await tenantScope(db, tenantId)
      .select(user, { id: user.id, realName: user.realName, name: user.name, account: user.account })
      .where(inArray(user.id, wanted));
    return new Map(rows.map((r) => [String(r.id), r.realName || r.name || r.account || '']));
  }

  // ---------------------------------------------------------------- deploy

  /**
   * A new version of the model's process in `tenantId`: a deployment row and a definition row
   * whose version is one above the key's highest (the key's versions are serialised by a lock).
   */
  async deploy(
    tx: Tx,
    tenantId: string,
    actor: Actor,
    input: { xml: string; meta: ProcessMeta; category: number | null; source: string; resourceName: string },
  ): Promise<{ definitionId: string; deploymentId: string; version: number }> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`flow-deploy:${tenantId}:${input.meta.key}`}))`);
    const scope = tenantScope(tx, tenantId);
    const [top] = await scope
      .select(flowDefinition, { v: max(flowDefinition.version) })
      .where(eq(flowDefinition.key, input.meta.key));
    const version = (top?.v ?? 0) + 1;
    const now = this.now();
    const deploymentId = nextId();
    const definitionId = nextId();
    const audit = { createUser: actor.userId, updateUser: actor.userId, createTime: now, updateTime: now };
    await scope.insert(flowDeployment).values({
      id: deploymentId,
      name: input.meta.name,
      category: input.category,
      deploymentTime: now,
      source: input.source,
      ...audit,
    });
    await scope.insert(flowDefinition).values({
      id: definitionId,
      key: input.meta.key,
      name: input.meta.name,
      version,
      category: input.category,
      deploymentId,
      deploymentTime: now,
      resourceName: input.resourceName.slice(0, 255),
      suspensionState: FlowSuspension.active,
      description: input.meta.description.slice(0, 500) || null,
      xml: input.xml,
      meta: input.meta as unknown as Record<string, unknown>,
      ...audit,
    });
    return { definitionId, deploymentId, version };
  }

  /**
   * Every tenant has the leave process (docs/workflow.md): deployed on the tenant's first
   * workflow call, once, whichever process serves it (advisory lock, then a look). Its model is
   * listed under 模型管理 too, so it can be read, edited and redeployed: made with the
   * deployment, or once for a tenant seeded before models were (no leave model row, live or
   * removed, so one an administrator removed stays removed).
   */
  async ensureSeeded(tenantId: string): Promise<void> {
    if (this.seeded.has(tenantId)) return;
    let changed = false;
    await this.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`flow-seed:${tenantId}`}))`);
      const [seed] = await tenantScope(tx, tenantId)
        .select(flowDeployment, { id: flowDeployment.id })
        .where(eq(flowDeployment.source, 'seed'))
        .limit(1);
      const meta = await readModel(LEAVE_PROCESS_XML);
      if (!seed) {
        changed = true;
        await this.deploy(
          tx,
          tenantId,
          { userId: '0', name: '' },
          {
            xml: LEAVE_PROCESS_XML,
            meta,
            category: 1,
            source: 'seed',
            resourceName: 'leave.bpmn20.xml',
          },
        );
      }
      if (await ensureShippedModel(tx, tenantId, LEAVE_PROCESS_XML, meta, this.now())) changed = true;
    });
    this.seeded.add(tenantId);
    if (!changed) return;
    await this.ctx.totals.changed('flow_manager', tenantId);
    await this.ctx.totals.changed(flowModelResource.code, tenantId);
  }

  // ---------------------------------------------------------------- start

  async definition(db: Db | Tx, tenantId: string, id: string): Promise<DefinitionRow> {
    const [row] = await tenantScope(db, tenantId).select(flowDefinition).where(eq(flowDefinition.id, id)).limit(1);
    if (!row) throw refuse(FlowMessages.definitionNotFound);
    return row;
  }

  /** The newest version of `key` in the tenant. */
  async latestDefinition(db: Db | Tx, tenantId: string, key: string): Promise<DefinitionRow> {
    const [row] = await tenantScope(db, tenantId)
      .select(flowDefinition)
      .where(eq(flowDefinition.key, key))
      .orderBy(desc(flowDefinition.version))
      .limit(1);
    if (!row) throw refuse(FlowMessages.definitionNotFound);
    return row;
  }

  /**
   * Starts an instance of `def` in the caller's tenant, in `tx`. `fixed` are the variables the
   * server sets (starter, business values); a task can never overwrite them.
   */
  async start(
    tx: Tx,
    auth: AuthContext,
    def: DefinitionRow,
    input: { businessTable?: string; businessId?: string; fixed: Variables; variables?: Variables },
  ): Promise<{ instanceId: string; run: EngineRun }> {
    const names = await this.userNames(tx, auth.tenantId, [auth.userId]);
    const actor: Actor = { userId: auth.userId, name: names.get(auth.userId) ?? auth.account };
    const fixed: Variables = {
      ...input.fixed,
      initiator: auth.userId,
      applyUser: auth.userId,
      startUser: auth.userId,
      businessId: input.businessId ?? '',
    };
    return this.createInstance(tx, auth.tenantId, def, {
      actor,
      createDept: splitIds(auth.deptId)[0] ?? null,
      businessTable: input.businessTable ?? null,
      businessId: input.businessId ?? null,
      fixed,
      variables: { ...input.variables, ...fixed },
      parent: null,
      depth: 0,
    });
  }

  /** An instance row, then its first move (the start), in `tx`. */
  private async createInstance(
    tx: Tx,
    tenantId: string,
    def: DefinitionRow,
    input: {
      actor: Actor;
      createDept: string | null;
      businessTable: string | null;
      businessId: string | null;
      fixed: Variables;
      variables: Variables;
      parent: { instanceId: string; executionId: string } | null;
      depth: number;
    },
  ): Promise<{ instanceId: string; run: EngineRun }> {
    if (def.suspensionState === FlowSuspension.suspended) throw refuse(FlowMessages.definitionSuspended);
    const instanceId = nextId();
    const now = this.now();
    const instance = {
      id: instanceId,
      tenantId,
      processDefinitionId: def.id,
      processDefinitionKey: def.key,
      processDefinitionName: def.name,
      processDefinitionVersion: def.version,
      category: def.category,
      businessTable: input.businessTable,
      businessId: input.businessId,
      startUser: input.actor.userId,
      startUserName: input.actor.name.slice(0, 64),
      startTime: now,
      endTime: null,
      flowStatus: FlowInstanceStatus.running,
      deleteReason: null,
      parentInstanceId: input.parent?.instanceId ?? null,
      parentExecutionId: input.parent?.executionId ?? null,
      state: null,
      fixedVariables: Object.keys(input.fixed),
      createUser: input.actor.userId,
      createDept: input.createDept,
      createTime: now,
      updateUser: input.actor.userId,
      updateTime: now,
      status: 1,
      isDeleted: 0,
    } as InstanceRow;
    const { tenantId: _tenant, ...values } = instance;
    await tenantScope(tx, tenantId).insert(flowInstance).values(values);
    const run = await this.advance(
      tx,
      instance,
      def,
      { kind: 'start', variables: input.variables },
      input.actor,
      undefined,
      input.depth,
    );
    return { instanceId, run };
  }

  // ---------------------------------------------------------------- move

  /**
   * Runs `action` on the instance and writes what it did, all in `tx`: the completed task, tasks
   * that began or were cancelled, every step in the history, timers as durable jobs, notices,
   * and the engine's new state.
   */
  async advance(
    tx: Tx,
    instance: InstanceRow,
    def: DefinitionRow,
    action: EngineAction,
    actor: Actor | null,
    completion?: { task: TaskRow; isPass: boolean; comment: string },
    depth = 0,
  ): Promise<EngineRun> {
    const tenantId = instance.tenantId;
    const scope = tenantScope(tx, tenantId);
    const meta = def.meta as unknown as ProcessMeta;
    let run: EngineRun;
    try {
      run = await runEngine(def.xml, meta, instance.state, action, () => this.now());
    } catch (error) {
      if (error instanceof EngineRunError) throw refuse(FlowMessages.runFailed(error.text));
      throw error;
    }
    if (!run.found) throw refuse(FlowMessages.taskNotFound);
    const now = this.now();
    const [last] = await scope
      .select(flowHistory, { seq: max(flowHistory.seq) })
      .where(eq(flowHistory.processInstanceId, instance.id));
    let seq = last?.seq ?? 0;
    const history = (row: Partial<typeof flowHistory.$inferInsert> & { activityId: string }) => ({
      id: nextId(),
      processInstanceId: instance.id,
      activityName: meta.elements[row.activityId]?.name ?? '',
      activityType: meta.elements[row.activityId]?.type ?? '',
      seq: ++seq,
      createTime: now,
      updateTime: now,
      ...row,
    });
    const historyRows: ReturnType<typeof history>[] = [];

    // Tasks that stopped waiting: the one completed, or cancelled (an interrupting timer, the end).
    const open = await scope
      .select(flowTask)
      .where(eq(flowTask.processInstanceId, instance.id), eq(flowTask.flowStatus, FlowTaskStatus.open))
      .for('update');
    const waiting = new Set(run.waiting.map((w) => w.executionId));
    for (const task of open) {
      if (waiting.has(task.executionId)) continue;
      const done = completion?.task.id === task.id;
      await scope
        .update(flowTask)
        .set({
          flowStatus: done ? FlowTaskStatus.completed : FlowTaskStatus.cancelled,
          endTime: now,
          isPass: done ? completion.isPass : null,
          comment: done ? completion.comment || null : null,
          updateTime: now,
          updateUser: actor?.userId ?? null,
        })
        .where(eq(flowTask.id, task.id));
      historyRows.push(
        history({
          activityId: task.taskDefinitionKey,
          activityName: task.taskName,
          activityType: 'bpmn:UserTask',
          taskId: task.id,
          assignee: task.assignee,
          assigneeName: task.assigneeName,
          startTime: task.createdAt,
          endTime: now,
          durationMs: task.createdAt ? now.getTime() - task.createdAt.getTime() : null,
          comment: done ? completion.comment || null : '已取消',
          isPass: done ? completion.isPass : null,
        }),
      );
    }
    for (const step of run.steps) {
      const starting = meta.elements[step.elementId]?.type === 'bpmn:StartEvent';
      historyRows.push(
        history({
          activityId: step.elementId,
          startTime: step.at,
          endTime: step.at,
          durationMs: 0,
          assignee: starting ? (actor?.userId ?? null) : null,
          assigneeName: starting ? (actor?.name ?? null) : null,
        }),
      );
    }

    // Tasks that began waiting.
    const known = new Set(open.map((t) => t.executionId));
    const fresh = run.waiting.filter((w) => !known.has(w.executionId));
    const resolved = fresh.map((w) => {
      const spec = meta.userTasks[w.elementId] ?? { name: w.elementId };
      const read = (text: string | undefined) => (text ? evaluateTemplate(text, w.variables) : undefined);
      let assignee: string | null = null;
      let users: string[] = [];
      let groups: string[] = [];
      try {
        assignee = userIdOf(read(spec.assignee)) || null;
        users = listOf(read(spec.candidateUsers));
        groups = String(read(spec.candidateGroups) ?? '')
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean);
      } catch (error) {
        throw refuse(FlowMessages.runFailed(at(w.elementId, faultText(error))));
      }
      if (assignee && !/^\d{1,19}$/.test(assignee))
        throw refuse(FlowMessages.runFailed(RunMessages.notUserId(w.elementId, assignee)));
      if (!assignee && !users.length && !groups.length)
        throw refuse(FlowMessages.runFailed(RunMessages.nobody(w.elementId)));
      return { w, spec, assignee, users: users.filter((u) => /^\d{1,19}$/.test(u)), groups };
    });
    const names = await this.userNames(
      tx,
      tenantId,
      resolved.flatMap((r) => (r.assignee ? [r.assignee] : [])),
    );
    for (const r of resolved) {
      const taskId = nextId();
      await scope.insert(flowTask).values({
        id: taskId,
        processInstanceId: instance.id,
        processDefinitionId: def.id,
        processDefinitionKey: def.key,
        processDefinitionName: def.name,
        category: def.category,
        executionId: r.w.executionId,
        taskDefinitionKey: r.w.elementId,
        taskName: (r.spec.name || r.w.elementId).slice(0, 255),
        assignee: r.assignee,
        assigneeName: r.assignee ? (names.get(r.assignee) ?? '') : '',
        candidateUsers: r.users.join(',') || null,
        candidateGroups: r.groups.join(',') || null,
        businessTable: instance.businessTable,
        businessId: instance.businessId,
        startUser: instance.startUser,
        startUserName: instance.startUserName,
        formKey: r.spec.formKey ?? null,
        createdAt: now,
        claimTime: r.assignee ? now : null,
        flowStatus: FlowTaskStatus.open,
        createTime: now,
        updateTime: now,
      });
      // A task for groups no user belongs to would wait unseen: the administrators are told at once.
      if (!r.assignee) {
        const facts = {
          taskId,
          taskName: (r.spec.name || r.w.elementId).slice(0, 255),
          processName: def.name ?? def.key,
          startUserName: instance.startUserName ?? '',
          candidateUsers: r.users,
          groups: r.groups,
        };
        if (!(await someoneCanClaim(tx, tenantId, facts))) await noticeUnclaimableTask(tx, tenantId, facts, now);
      }
    }
    // Service tasks, each on its step in the history (done, or failed with the reason).
    const used = new Set<string>();
    for (const effect of run.effects) {
      let row = historyRows.find((h) => h.activityId === effect.elementId && !used.has(h.id));
      if (!row) historyRows.push((row = history({ activityId: effect.elementId, startTime: now, endTime: now })));
      used.add(row.id);
      const outcome = await this.tasks.run(
        tx,
        {
          tenantId,
          starter: instance.startUser === null ? null : String(instance.startUser),
          actor: actor?.userId ?? null,
          now,
          historyId: row.id,
          elementId: effect.elementId,
        },
        effect.service,
        effect.variables,
      );
      row.comment = outcome.text.zh.slice(0, 1000) || null;
      row.isPass = outcome.ok;
    }
    if (historyRows.length) await scope.insert(flowHistory).values(...historyRows);

    for (const timer of run.timers) {
      await this.ctx.jobs.enqueueInTransaction(
        tx,
        flowTimerJob,
        { tenantId, instanceId: instance.id, executionId: timer.executionId },
        { startAfter: timer.expireAt },
      );
    }

    await scope
      .update(flowInstance)
      .set({
        state: run.state as Record<string, unknown>,
        updateTime: now,
        ...(run.finished ? { flowStatus: FlowInstanceStatus.finished, endTime: now } : {}),
      })
      .where(eq(flowInstance.id, instance.id));
    await this.callActivities(tx, instance, meta, run, actor, depth);
    return run;
  }

  /**
   * Call activities, after the instance's own state is written: a call that began waiting starts
   * an instance of the newest version of the called key (the caller's variables in, the same
   * business row and starter); an instance that ended signals the call waiting for it in its
   * caller, with the variables it set out (those its caller fixed excepted).
   */
  private async callActivities(
    tx: Tx,
    instance: InstanceRow,
    meta: ProcessMeta,
    run: EngineRun,
    actor: Actor | null,
    depth: number,
  ) {
    const tenantId = instance.tenantId;
    const scope = tenantScope(tx, tenantId);
    if (run.calls.length) {
      if (depth >= MAX_CALL_DEPTH) throw refuse(FlowMessages.runFailed(RunMessages.callTooDeep(MAX_CALL_DEPTH)));
      const existing = await scope
        .select(flowInstance, { executionId: flowInstance.parentExecutionId })
        .where(eq(flowInstance.parentInstanceId, instance.id));
      const started = new Set(existing.map((e) => e.executionId));
      const fixed = (instance.fixedVariables as string[] | null) ?? [];
      for (const call of run.calls) {
        if (started.has(call.executionId)) continue;
        const key = String(evaluateTemplate(meta.calls?.[call.elementId]?.calledElement ?? '', call.variables) ?? '');
        let called: DefinitionRow;
        try {
          called = await this.latestDefinition(tx, tenantId, key);
        } catch {
          throw refuse(FlowMessages.runFailed(RunMessages.calledMissing(call.elementId, key)));
        }
        const starter: Actor = {
          userId: String(instance.startUser ?? actor?.userId ?? ''),
          name: instance.startUserName,
        };
        await this.createInstance(tx, tenantId, called, {
          actor: starter,
          createDept: instance.createDept === null ? null : String(instance.createDept),
          businessTable: instance.businessTable,
          businessId: instance.businessId,
          fixed: Object.fromEntries(fixed.map((name) => [name, call.variables[name]])),
          variables: { ...call.variables },
          parent: { instanceId: instance.id, executionId: call.executionId },
          depth: depth + 1,
        });
      }
    }
    if (run.finished && instance.parentInstanceId && instance.parentExecutionId) {
      const parent = await this.instanceForUpdate(tx, tenantId, String(instance.parentInstanceId));
      const parentDef = await this.definition(tx, tenantId, String(parent.processDefinitionId));
      const fixedByParent = new Set((parent.fixedVariables as string[] | null) ?? []);
      const out = Object.fromEntries(Object.entries(run.variables).filter(([name]) => !fixedByParent.has(name)));
      await this.advance(
        tx,
        parent,
        parentDef,
        { kind: 'signal', executionId: instance.parentExecutionId, variables: out },
        actor,
        undefined,
        Math.max(0, depth - 1),
      );
    }
  }

  async instanceForUpdate(tx: Tx, tenantId: string, id: string): Promise<InstanceRow> {
    const [row] = await tenantScope(tx, tenantId)
      .select(flowInstance)
      .where(eq(flowInstance.id, id), eq(flowInstance.flowStatus, FlowInstanceStatus.running))
      .for('update');
    if (!row) throw refuse(FlowMessages.instanceNotFound);
    return row;
  }

  // ---------------------------------------------------------------- tasks

  /** Takes an unassigned task the caller is a candidate of; of two callers racing, one wins. */
  async claim(auth: AuthContext, taskId: string): Promise<void> {
    const now = this.now();
    const names = await this.userNames(this.ctx.db, auth.tenantId, [auth.userId]);
    const scope = tenantScope(this.ctx.db, auth.tenantId);
    const taken = await scope
      .update(flowTask)
      .set({
        assignee: auth.userId,
        assigneeName: names.get(auth.userId) ?? auth.account,
        claimTime: now,
        updateTime: now,
      })
      .where(
        eq(flowTask.id, taskId),
        eq(flowTask.flowStatus, FlowTaskStatus.open),
        isNull(flowTask.assignee),
        candidateCondition(auth),
      )
      .returning({ id: flowTask.id });
    if (taken.length) return;
    const [task] = await scope
      .select(flowTask)
      .where(eq(flowTask.id, taskId), eq(flowTask.flowStatus, FlowTaskStatus.open));
    if (!task) throw refuse(FlowMessages.taskNotFound);
    if (task.assignee) throw refuse(FlowMessages.alreadyClaimed(task.assigneeName || task.assignee));
    throw refuse(FlowMessages.notCandidate, 403);
  }

  /** Completes the caller's task with a decision, a comment and variables; the instance moves on. */
  async complete(
    auth: AuthContext,
    input: { taskId: string; isPass: boolean; comment: string; variables: Variables },
  ): Promise<EngineRun> {
    const run = await this.ctx.db.transaction(async (tx) => {
      const scope = tenantScope(tx, auth.tenantId);
      const [task] = await scope
        .select(flowTask)
        .where(eq(flowTask.id, input.taskId), eq(flowTask.flowStatus, FlowTaskStatus.open))
        .for('update');
      if (!task) throw refuse(FlowMessages.taskNotFound);
      if (!task.assignee) {
        const [mine] = await scope
          .select(flowTask, { id: flowTask.id })
          .where(eq(flowTask.id, task.id), candidateCondition(auth));
        throw refuse(mine ? FlowMessages.claimFirst : FlowMessages.notAssignee, mine ? 400 : 403);
      }
      if (String(task.assignee) !== auth.userId) throw refuse(FlowMessages.notAssignee, 403);
      const instance = await this.instanceForUpdate(tx, auth.tenantId, String(task.processInstanceId));
      const def = await this.definition(tx, auth.tenantId, String(instance.processDefinitionId));
      if (def.suspensionState === FlowSuspension.suspended) throw refuse(FlowMessages.definitionSuspended);
      const fixed = new Set((instance.fixedVariables as string[] | null) ?? []);
      for (const name of Object.keys(input.variables))
        if (fixed.has(name) || name === 'pass') throw refuse(FlowMessages.fixedVariable(name));
      const names = await this.userNames(tx, auth.tenantId, [auth.userId]);
      return this.advance(
        tx,
        instance,
        def,
        { kind: 'signal', executionId: task.executionId, variables: { ...input.variables, pass: input.isPass } },
        { userId: auth.userId, name: names.get(auth.userId) ?? auth.account },
        { task, isPass: input.isPass, comment: input.comment },
      );
    });
    await this.changed(auth.tenantId);
    return run;
  }

  /** The job of `flow.timer`: fires the timer if the instance still waits on it. */
  async fireTimer(payload: z.infer<typeof flowTimerJob.payload>): Promise<{ fired: boolean }> {
    const fired = await this.ctx.db.transaction(async (tx) => {
      const [instance] = await tenantScope(tx, payload.tenantId)
        .select(flowInstance)
        .where(eq(flowInstance.id, payload.instanceId), eq(flowInstance.flowStatus, FlowInstanceStatus.running))
        .for('update');
      if (!instance) return false;
      const def = await this.definition(tx, payload.tenantId, String(instance.processDefinitionId));
      try {
        await this.advance(tx, instance, def, { kind: 'timer', executionId: payload.executionId }, null);
        return true;
      } catch (error) {
        // Moved on before the timer was due (the task was completed): nothing to fire.
        if (error instanceof FlowError && error.text === FlowMessages.taskNotFound) return false;
        throw error;
      }
    });
    if (fired) await this.changed(payload.tenantId);
    return { fired };
  }

  /** Ends a running instance with a reason: its open tasks are cancelled, the history says why. */
  async deleteInstance(auth: AuthContext, instanceId: string, reason: string): Promise<void> {
    await this.ctx.db.transaction((tx) => this.endInstance(tx, auth, instanceId, reason));
    await this.ctx.totals.changed(operationLogResource.code, '*');
    await this.changed(auth.tenantId);
  }

  /** Ends one running instance and, first, the running instances it called. */
  private async endInstance(tx: Tx, auth: AuthContext, instanceId: string, reason: string): Promise<void> {
    const instance = await this.instanceForUpdate(tx, auth.tenantId, instanceId);
    const scope = tenantScope(tx, auth.tenantId);
    const now = this.now();
    const cancelled = await scope
      .update(flowTask)
      .set({ flowStatus: FlowTaskStatus.cancelled, endTime: now, comment: reason, updateTime: now })
      .where(eq(flowTask.processInstanceId, instance.id), eq(flowTask.flowStatus, FlowTaskStatus.open))
      .returning();
    const [last] = await scope
      .select(flowHistory, { seq: max(flowHistory.seq) })
      .where(eq(flowHistory.processInstanceId, instance.id));
    let seq = last?.seq ?? 0;
    const names = await this.userNames(tx, auth.tenantId, [auth.userId]);
    const rows = [
      ...cancelled.map((t) => ({
        id: nextId(),
        processInstanceId: instance.id,
        activityId: t.taskDefinitionKey,
        activityName: t.taskName,
        activityType: 'bpmn:UserTask',
        taskId: t.id,
        assignee: t.assignee,
        assigneeName: t.assigneeName,
        startTime: t.createdAt,
        endTime: now,
        durationMs: t.createdAt ? now.getTime() - t.createdAt.getTime() : null,
        comment: reason,
        seq: ++seq,
      })),
      {
        id: nextId(),
        processInstanceId: instance.id,
        activityId: 'deleted',
        activityName: '删除流程实例',
        activityType: 'delete',
        assignee: auth.userId,
        assigneeName: names.get(auth.userId) ?? auth.account,
        startTime: now,
        endTime: now,
        durationMs: 0,
        comment: reason,
        seq: ++seq,
      },
    ];
    await scope.insert(flowHistory).values(...rows);
    await scope
      .update(flowInstance)
      .set({ flowStatus: FlowInstanceStatus.deleted, deleteReason: reason, endTime: now, updateTime: now })
      .where(eq(flowInstance.id, instance.id));
    // Instances this one called end with it.
    const children = await scope
      .select(flowInstance, { id: flowInstance.id })
      .where(eq(flowInstance.parentInstanceId, instance.id), eq(flowInstance.flowStatus, FlowInstanceStatus.running));
    for (const child of children) await this.endInstance(tx, auth, child.id, reason);
    await recordOperation(tx, {
      def: flowInstanceResource,
      auth,
      operation: 'remove',
      ids: [instance.id],
      changes: [{ field: 'deleteReason', label: '删除原因', before: null, after: reason }],
      at: now,
    });
  }

  /** Whether the caller takes part in the instance: its starter, a holder or candidate of one of its tasks. */
  async participates(auth: AuthContext, instanceId: string): Promise<boolean> {
    const scope = tenantScope(this.ctx.db, auth.tenantId);
    const [instance] = await scope
      .select(flowInstance, { startUser: flowInstance.startUser })
      .where(eq(flowInstance.id, instanceId));
    if (!instance) return false;
    if (String(instance.startUser) === auth.userId) return true;
    const [task] = await scope
      .select(flowTask, { id: flowTask.id })
      .where(
        eq(flowTask.processInstanceId, instanceId),
        sql`(${flowTask.assignee} = ${auth.userId} or (${flowTask.assignee} is null and ${candidateCondition(auth)}))`,
      )
      .limit(1);
    return Boolean(task);
  }

  async changed(tenantId: string) {
    for (const code of ['flow_task', 'flow_follow', 'flow_history', 'notice'])
      await this.ctx.totals.changed(code, tenantId);
  }
}

export const asHttpError = (error: unknown, say: (t: LocalText) => string): unknown =>
  error instanceof FlowError ? new HttpError(error.code, say(error.text)) : error;
