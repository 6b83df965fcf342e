import multipart from '@fastify/multipart';
import { and, asc, eq, gt, inArray, isNull, notExists, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  flowDefinitionResource,
  flowDeploymentResource,
  flowHistoryResource,
  flowInstanceResource,
  flowModelResource,
  FlowInstanceStatus,
  FlowPaths,
  FlowSuspension,
  FlowTaskStatus,
  flowTaskResource,
  formatDateTime,
  formValuesProblem,
  type FlowInstanceForm,
  type FlowStartForm,
  type FlowTaskForm,
  LEAVE_BUSINESS_TABLE,
  LEAVE_PROCESS_KEY,
  leaveDays,
  leaveProblem,
  leaveResource,
  bilingual,
  Messages,
  MessagesEn,
  operationLogResource,
  parseDateTime,
  type FlowHistoryStep,
  type LocalText,
  type Row,
} from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../app-context';
import { registerResource, type ResourceService } from '../../engine/resource-routes';
import { isAdministrator, requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import {
  flowDefinition,
  flowDeployment,
  flowHistory,
  flowInstance,
  flowModel,
  flowTask,
  leave,
  tenant,
  user,
} from '../../platform/db/schema';
import { nextId } from '../../platform/db/ids';
import { ok } from '../../platform/http/envelope';
import { badRequest, HttpError, notFound } from '../../platform/http/errors';
import { idValue, idsValue, paramsOf } from '../../platform/http/request-params';
import { coversRoute } from '../../platform/permissions/grants';
import { recordOperation } from '../../platform/audit/operation-audit';
import { rowsOfSameTenant, tenantScope } from '../../platform/tenancy/tenant-scope';
import { ModelError, readModel, type ProcessMeta } from './bpmn-model';
import { definitionForms, formValues } from './flow-forms';
import { at, FlowMessages, say } from './flow-messages';
import { candidateCondition, clientVariables, FlowError, FlowService, flowTimerJob } from './flow-service';
import { flowSmsJob } from './service-tasks';

const MAX_XML_BYTES = 1024 * 1024;
const MAX_UPLOAD_FILES = 10;
const FILE_NAME = /\.(bpmn|bpmn20\.xml)$/i;

/** `请求参数 x 不正确: why` in both languages. */
const invalidParam = (name: string, why: LocalText): LocalText => ({
  zh: Messages.invalidParam(name, why.zh),
  en: MessagesEn.invalidParam(name, why.en),
});

/** Runs a handler, turning the service's refusals into answers in the caller's language. */
async function answering<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof FlowError) throw new HttpError(error.code, say(request, error.text));
    if (error instanceof ModelError) throw new HttpError(400, say(request, FlowMessages.invalidModel(error.problems)));
    throw error;
  }
}

async function modelOf(xml: unknown): Promise<ProcessMeta> {
  if (typeof xml !== 'string' || !xml.trim()) throw badRequest(bilingual('missingParam', 'xml'));
  if (Buffer.byteLength(xml) > MAX_XML_BYTES)
    throw badRequest(invalidParam('xml', { zh: '最大 1 MB', en: 'at most 1 MB' }));
  return readModel(xml);
}

const text = (value: unknown, name: string, max: number, required = false): string => {
  if (value === undefined || value === null || value === '') {
    if (required) throw badRequest(bilingual('missingParam', name));
    return '';
  }
  if (typeof value !== 'string' && typeof value !== 'number')
    throw badRequest(invalidParam(name, { zh: '应为文本', en: 'must be text' }));
  const out = String(value).trim();
  if (out.length > max)
    throw badRequest(invalidParam(name, { zh: `最多 ${max} 个字符`, en: `at most ${max} characters` }));
  if (required && !out) throw badRequest(bilingual('missingParam', name));
  return out;
};

const categoryOf = (value: unknown): number | null => {
  if (value === undefined || value === null || value === '') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 9999)
    throw badRequest(invalidParam('category', { zh: '应为流程分类', en: 'must be a process category' }));
  return n;
};

const dateText = (value: unknown) => (value instanceof Date ? formatDateTime(value) : null);

/** `1天2小时3分钟` / `3秒`: how long a step took, as the family's timeline reads it. */
export function durationText(ms: number | null): string {
  if (ms === null || ms < 0) return '';
  const s = Math.floor(ms / 1000);
  const parts: [number, string][] = [
    [Math.floor(s / 86400), '天'],
    [Math.floor((s % 86400) / 3600), '小时'],
    [Math.floor((s % 3600) / 60), '分钟'],
  ];
  const shown = parts.filter(([n]) => n > 0).map(([n, u]) => `${n}${u}`);
  return shown.length ? shown.join('') : `${s % 60}秒`;
}

/**
 * Workflow (docs/workflow.md): models, deployments, follow-up, my work, history and the leave
 * process. Lists go through the resource engine (paging, filters, sorting, totals, tenancy);
 * every move of an instance goes through `FlowService`, in one transaction with its task change.
 */
export function registerFlowRoutes(app: FastifyInstance, ctx: AppContext): void {
  const flow = new FlowService(ctx, app.log);
  // One handler per context, whichever app built on it registered first (tests build several).
  oncePerContext(ctx, flowTimerJob.name, () => {
    ctx.jobs.register(flowTimerJob, (payload) => flow.fireTimer(payload));
    ctx.jobs.register(flowSmsJob, (payload) => flow.tasks.sendSms(payload));
  });

  // ------------------------------------------------------------------ models
  const models = registerResource(app, ctx, {
    def: flowModelResource,
    table: flowModel,
    hooks: {
      // The list runs this for every page: the shipped leave model is there before the first look.
      listParams: {
        names: [],
        async where(_query, auth) {
          await flow.ensureSeeded(auth.tenantId);
          return undefined;
        },
      },
      async beforeChange({ values, existing }) {
        if (values.xml === undefined && existing) return;
        let meta: ProcessMeta;
        try {
          meta = await modelOf(values.xml);
        } catch (error) {
          if (error instanceof ModelError) throw badRequest(FlowMessages.invalidModel(error.problems));
          throw error;
        }
        values.modelKey = meta.key;
        values.name = meta.name;
        if (!values.description && meta.description) values.description = meta.description.slice(0, 500);
        values.version = existing ? Number(existing.version ?? 0) + 1 : 1;
      },
    },
  });

  /** The tenants a deploy goes to: the caller's own, or (platform only) those named. */
  async function targetTenants(auth: AuthContext, raw: unknown): Promise<string[]> {
    const named = [
      ...new Set(
        String(raw ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (!named.length) return [auth.tenantId];
    if (named.some((id) => id !== auth.tenantId) && !isAdministrator(auth))
      throw new FlowError(400, FlowMessages.tenantsPlatformOnly);
    for (const id of named) {
      if (!/^[A-Za-z0-9_-]{1,12}$/.test(id)) throw new FlowError(400, FlowMessages.unknownTenant(id.slice(0, 12)));
      const [row] = await tenantScope(ctx.db, id).select(tenant, { id: tenant.id }).where().limit(1);
      if (!row) throw new FlowError(400, FlowMessages.unknownTenant(id));
    }
    return named;
  }

  async function deployAll(
    auth: AuthContext,
    files: { xml: string; meta: ProcessMeta; resourceName: string }[],
    category: number | null,
    tenants: string[],
    source: string,
  ) {
    const names = await flow.userNames(ctx.db, auth.tenantId, [auth.userId]);
    const actor = { userId: auth.userId, name: names.get(auth.userId) ?? auth.account };
    const deployed = await ctx.db.transaction(async (tx) => {
      const out: Row[] = [];
      for (const tenantId of tenants) {
        for (const file of files) {
          const d = await flow.deploy(tx, tenantId, actor, { ...file, category, source });
          await recordOperation(tx, {
            def: flowDefinitionResource,
            auth,
            operation: 'add',
            ids: [d.definitionId],
            changes: [
              { field: 'key', label: '流程标识', before: null, after: file.meta.key },
              { field: 'version', label: '版本', before: null, after: String(d.version) },
              { field: 'tenantId', label: '租户', before: null, after: tenantId },
            ],
            at: new Date(ctx.clock.now()),
          });
          out.push({
            tenantId,
            processDefinitionId: d.definitionId,
            deploymentId: d.deploymentId,
            key: file.meta.key,
            version: d.version,
          });
        }
      }
      return out;
    });
    for (const tenantId of tenants) await ctx.totals.changed(flowDefinitionResource.code, tenantId);
    await ctx.totals.changed(operationLogResource.code, '*');
    return deployed;
  }

  app.post(`/api${FlowPaths.modelDeploy}`, { config: { apiScope: `${flowModelResource.code}:deploy` } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const params = paramsOf(request);
      const modelId = idValue(params.modelId, 'modelId');
      const [model] = await ctx.db
        .select({ xml: flowModel.xml, modelKey: flowModel.modelKey })
        .from(flowModel)
        .where(and(await models.readScope(auth), eq(flowModel.id, modelId)));
      if (!model) throw notFound(bilingual('rowNotFound'));
      const category = categoryOf(params.category);
      const tenants = await targetTenants(auth, params.tenantIds);
      const meta = await modelOf(model.xml);
      const deployed = await deployAll(
        auth,
        [{ xml: model.xml, meta, resourceName: `${meta.key}.bpmn20.xml` }],
        category,
        tenants,
        `model:${modelId}`,
      );
      return ok(deployed, say(request, FlowMessages.deployed));
    }),
  );

  // ------------------------------------------------------------------ deployments
  const withoutEngineData = (rows: Row[]) =>
    rows.map(({ meta: _meta, xml: _xml, state: _state, fixedVariables: _fixed, ...rest }) => rest);

  const definitions = registerResource(app, ctx, {
    def: flowDefinitionResource,
    table: flowDefinition,
    hooks: {
      listParams: {
        names: ['listKind'],
        // The start list: the newest version of each key, active.
        where(query) {
          if (query.listKind !== 'start') return undefined;
          const newer = alias(flowDefinition, 'newer');
          return and(
            eq(flowDefinition.suspensionState, FlowSuspension.active),
            notExists(
              ctx.db
                .select({ one: sql`1` })
                .from(newer)
                .where(
                  rowsOfSameTenant(
                    newer,
                    flowDefinition,
                    eq(newer.key, flowDefinition.key),
                    gt(newer.version, flowDefinition.version),
                  ),
                ),
            ),
          );
        },
      },
      async decorate(rows) {
        return withoutEngineData(rows).map((r) => ({
          ...r,
          processDefinitionId: r.id,
          suspensionStateName: r.suspensionState === FlowSuspension.suspended ? '挂起' : '激活',
        }));
      },
    },
  });

  app.get(`/api${FlowPaths.resourceView}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const id = idValue(paramsOf(request).processDefinitionId, 'processDefinitionId');
      const def = await flow.definition(ctx.db, auth.tenantId, id);
      return ok({ id: def.id, key: def.key, name: def.name, version: def.version, xml: def.xml });
    }),
  );

  app.post(
    `/api${FlowPaths.managerChangeState}`,
    { config: { apiScope: `${flowDefinitionResource.code}:state` } },
    (request) =>
      answering(request, async () => {
        const auth = requireAuth(request);
        const params = paramsOf(request);
        const id = idValue(params.processId ?? params.processDefinitionId, 'processId');
        const state = params.state;
        if (state !== 'active' && state !== 'suspend') throw new FlowError(400, FlowMessages.badState);
        const next = state === 'active' ? FlowSuspension.active : FlowSuspension.suspended;
        await ctx.db.transaction(async (tx) => {
          const scope = tenantScope(tx, auth.tenantId);
          const [before] = await scope
            .select(flowDefinition, { state: flowDefinition.suspensionState })
            .where(eq(flowDefinition.id, id))
            .for('update');
          if (!before) throw new FlowError(400, FlowMessages.definitionNotFound);
          const at = new Date(ctx.clock.now());
          await scope
            .update(flowDefinition)
            .set({ suspensionState: next, updateUser: auth.userId, updateTime: at })
            .where(eq(flowDefinition.id, id));
          await recordOperation(tx, {
            def: flowDefinitionResource,
            auth,
            operation: 'update',
            ids: [id],
            changes: [{ field: 'suspensionState', label: '状态', before: String(before.state), after: String(next) }],
            at,
          });
        });
        await ctx.totals.changed(flowDefinitionResource.code, auth.tenantId);
        await ctx.totals.changed(operationLogResource.code, '*');
        return ok(true, say(request, bilingual('success')));
      }),
  );

  app.post(
    `/api${FlowPaths.managerDeleteDeployment}`,
    { config: { apiScope: `${flowDefinitionResource.code}:remove` } },
    (request) =>
      answering(request, async () => {
        const auth = requireAuth(request);
        const ids = idsValue(paramsOf(request).deploymentIds, 'deploymentIds', { required: true, max: 100 });
        await ctx.db.transaction(async (tx) => {
          const scope = tenantScope(tx, auth.tenantId);
          const defs = await scope
            .select(flowDefinition, { id: flowDefinition.id })
            .where(inArray(flowDefinition.deploymentId, ids))
            .for('update');
          const found = await scope
            .select(flowDeployment, { id: flowDeployment.id })
            .where(inArray(flowDeployment.id, ids));
          if (found.length !== ids.length) throw notFound(bilingual('rowNotFound'));
          if (defs.length) {
            const running = await scope.select(flowInstance, { id: flowInstance.id }).where(
              inArray(
                flowInstance.processDefinitionId,
                defs.map((d) => d.id),
              ),
              eq(flowInstance.flowStatus, FlowInstanceStatus.running),
            );
            if (running.length) throw new FlowError(400, FlowMessages.runningInstances(running.length));
            await scope
              .update(flowDefinition)
              .set({ isDeleted: 1, updateTime: new Date(ctx.clock.now()), updateUser: auth.userId })
              .where(inArray(flowDefinition.deploymentId, ids));
          }
          await scope
            .update(flowDeployment)
            .set({ isDeleted: 1, updateTime: new Date(ctx.clock.now()), updateUser: auth.userId })
            .where(inArray(flowDeployment.id, ids));
          await recordOperation(tx, {
            def: flowDeploymentResource,
            auth,
            operation: 'remove',
            ids,
            at: new Date(ctx.clock.now()),
          });
        });
        await ctx.totals.changed(flowDefinitionResource.code, auth.tenantId);
        await ctx.totals.changed(operationLogResource.code, '*');
        return ok(true, say(request, bilingual('removed')));
      }),
  );

  // Multipart parsing only around the upload route, so no other route accepts it.
  app.register(async (scoped) => {
    await scoped.register(multipart, {
      limits: { fileSize: MAX_XML_BYTES, files: MAX_UPLOAD_FILES, fields: 10, parts: 30 },
    });
    scoped.post(
      `/api${FlowPaths.managerDeployUpload}`,
      { config: { apiScope: `${flowDefinitionResource.code}:upload` } },
      (request) =>
        answering(request, async () => {
          const auth = requireAuth(request);
          if (!request.isMultipart()) throw new FlowError(400, FlowMessages.noFiles);
          const fields: Record<string, string> = {};
          const files: { name: string; xml: string }[] = [];
          try {
            for await (const part of request.parts()) {
              if (part.type === 'file') {
                if (!FILE_NAME.test(part.filename)) {
                  part.file.resume();
                  throw new FlowError(400, FlowMessages.badFileName(part.filename.slice(0, 100)));
                }
                files.push({ name: part.filename, xml: (await part.toBuffer()).toString('utf8') });
              } else if (typeof part.value === 'string') {
                fields[part.fieldname] = part.value;
              }
            }
          } catch (error) {
            if (error instanceof FlowError) throw error;
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
              throw badRequest(invalidParam('files', { zh: '单个文件最大 1 MB', en: 'each file at most 1 MB' }));
            if (String((error as { code?: unknown }).code ?? '').startsWith('FST_'))
              throw badRequest(bilingual('badRequest'));
            throw error;
          }
          if (!files.length) throw new FlowError(400, FlowMessages.noFiles);
          const read: { xml: string; meta: ProcessMeta; resourceName: string }[] = [];
          for (const file of files) {
            try {
              read.push({ xml: file.xml, meta: await readModel(file.xml), resourceName: file.name });
            } catch (error) {
              if (error instanceof ModelError) throw new ModelError(error.problems.map((p) => at(file.name, p)));
              throw error;
            }
          }
          const tenants = await targetTenants(auth, fields.tenantIds ?? (request.query as Row).tenantIds);
          const category = categoryOf(fields.category ?? (request.query as Row).category);
          return ok(await deployAll(auth, read, category, tenants, 'upload'), say(request, FlowMessages.deployed));
        }),
    );
  });

  // ------------------------------------------------------------------ instances
  async function withCurrentTasks(rows: Row[]): Promise<Row[]> {
    if (!rows.length) return rows;
    const tenantId = String(rows[0]?.tenantId ?? '');
    const ids = rows.map((r) => String(r.id));
    const open = await tenantScope(ctx.db, tenantId)
      .select(flowTask, {
        id: flowTask.id,
        processInstanceId: flowTask.processInstanceId,
        taskName: flowTask.taskName,
        taskDefinitionKey: flowTask.taskDefinitionKey,
        assignee: flowTask.assignee,
        assigneeName: flowTask.assigneeName,
        candidateUsers: flowTask.candidateUsers,
        candidateGroups: flowTask.candidateGroups,
      })
      .where(inArray(flowTask.processInstanceId, ids), eq(flowTask.flowStatus, FlowTaskStatus.open))
      .orderBy(asc(flowTask.id));
    return withoutEngineData(rows).map((r) => {
      const tasks = open
        .filter((t) => String(t.processInstanceId) === String(r.id))
        .map((t) => ({ ...t, taskId: String(t.id) }));
      return {
        ...r,
        processInstanceId: r.id,
        processIsFinished: r.flowStatus !== FlowInstanceStatus.running,
        currentTasks: tasks,
        taskName: tasks.map((t) => t.taskName).join(','),
        assigneeName: tasks.map((t) => t.assigneeName || t.candidateGroups || t.candidateUsers || '').join(','),
      };
    });
  }

  const instances = registerResource(app, ctx, {
    def: flowInstanceResource,
    table: flowInstance,
    hooks: {
      listParams: {
        names: ['listKind'],
        perCaller: true,
        where(query, auth) {
          if (query.listKind === 'send') return eq(flowInstance.startUser, auth.userId);
          // Follow-up shows the running instances unless the screen asks for a status.
          return query.flowStatus === undefined ? eq(flowInstance.flowStatus, FlowInstanceStatus.running) : undefined;
        },
      },
      decorate: withCurrentTasks,
    },
  });

  app.post(
    `/api${FlowPaths.followDelete}`,
    { config: { apiScope: `${flowInstanceResource.code}:remove` } },
    (request) =>
      answering(request, async () => {
        const auth = requireAuth(request);
        const params = paramsOf(request);
        const id = idValue(params.processInstanceId, 'processInstanceId');
        const reason = text(params.deleteReason ?? params.reason, 'deleteReason', 500);
        if (!reason) throw new FlowError(400, FlowMessages.reasonRequired);
        await flow.deleteInstance(auth, id, reason);
        return ok(true, say(request, bilingual('removed')));
      }),
  );

  // ------------------------------------------------------------------ my work
  const taskRecords = (rows: Row[]) =>
    rows.map((r) => ({
      ...r,
      taskId: r.id,
      createTime: r.createdAt,
      status: r.flowStatus,
      assigneeName: r.assigneeName ?? '',
      candidateUsers: r.candidateUsers ?? '',
      candidateGroups: r.candidateGroups ?? '',
      businessTable: r.businessTable ?? '',
      businessId: r.businessId ?? '',
      formKey: r.formKey ?? '',
      comment: r.comment ?? '',
    }));
  const tasks = registerResource(app, ctx, {
    def: flowTaskResource,
    table: flowTask,
    hooks: {
      listParams: {
        names: ['listKind'],
        perCaller: true,
        where(query, auth): SQL | undefined {
          switch (query.listKind) {
            case 'claim':
              return and(
                eq(flowTask.flowStatus, FlowTaskStatus.open),
                isNull(flowTask.assignee),
                candidateCondition(auth),
              );
            case 'todo':
              return and(eq(flowTask.flowStatus, FlowTaskStatus.open), eq(flowTask.assignee, auth.userId));
            case 'done':
              return and(eq(flowTask.flowStatus, FlowTaskStatus.completed), eq(flowTask.assignee, auth.userId));
            default:
              return sql`false`;
          }
        },
      },
      decorate: async (rows) => taskRecords(rows),
    },
  });

  const workList = (path: string, service: ResourceService, listKind: string) =>
    app.get(`/api${path}`, { config: { anyUser: true } }, (request) =>
      answering(request, async () => {
        const auth = requireAuth(request);
        await flow.ensureSeeded(auth.tenantId);
        const query = { ...(request.query as Row), listKind };
        return ok(await service.page(query, auth));
      }),
    );
  workList(FlowPaths.workStartList, definitions, 'start');
  workList(FlowPaths.workClaimList, tasks, 'claim');
  workList(FlowPaths.workTodoList, tasks, 'todo');
  workList(FlowPaths.workDoneList, tasks, 'done');
  workList(FlowPaths.workSendList, instances, 'send');

  app.post(`/api${FlowPaths.workClaim}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const taskId = idValue(paramsOf(request).taskId, 'taskId');
      await flow.claim(auth, taskId);
      await flow.changed(auth.tenantId);
      return ok(true, say(request, FlowMessages.claimed));
    }),
  );

  app.post(`/api${FlowPaths.workComplete}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const params = paramsOf(request);
      const taskId = idValue(params.taskId, 'taskId');
      const isPass =
        typeof params.pass === 'boolean'
          ? params.pass
          : params.pass === 'true' || params.pass === 'false'
            ? params.pass === 'true'
            : params.flag !== undefined && params.flag !== ''
              ? params.flag === 'ok'
              : true;
      const comment = text(params.comment, 'comment', 1000);
      let variables = clientVariables(params.variables);
      // A task whose model declares fields takes those, checked (required ones only when passed).
      const fields = await taskFormFields(auth, taskId);
      if (fields?.length) {
        const checked = formValuesProblem(fields, variables, isPass);
        if ('problem' in checked) throw badRequest(checked.problem);
        variables = checked.values;
      }
      const run = await flow.complete(auth, { taskId, isPass, comment, variables });
      return ok({ finished: run.finished }, say(request, FlowMessages.completed));
    }),
  );

  app.post(`/api${FlowPaths.workStart}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      await flow.ensureSeeded(auth.tenantId);
      const params = paramsOf(request);
      let variables = clientVariables(params.variables);
      const businessId = text(params.businessKey ?? params.businessId, 'businessKey', 64) || undefined;
      const def =
        params.processDefinitionId !== undefined && params.processDefinitionId !== ''
          ? await flow.definition(ctx.db, auth.tenantId, idValue(params.processDefinitionId, 'processDefinitionId'))
          : await flow.latestDefinition(
              ctx.db,
              auth.tenantId,
              text(params.processDefinitionKey, 'processDefinitionKey', 255, true),
            );
      // A definition whose start event declares fields takes those and nothing else, checked.
      const form = (await definitionForms(def)).start;
      if (form.fields.length) {
        const checked = formValuesProblem(form.fields, variables);
        if ('problem' in checked) throw badRequest(checked.problem);
        variables = checked.values;
      }
      const started = await ctx.db.transaction((tx) => flow.start(tx, auth, def, { businessId, fixed: {}, variables }));
      await flow.changed(auth.tenantId);
      return ok(
        { processInstanceId: started.instanceId, finished: started.run.finished },
        say(request, FlowMessages.started),
      );
    }),
  );

  // ------------------------------------------------------------------ history
  /** The instance's participants see it; so do holders of the follow-up screen's read scope. */
  async function mayFollow(auth: AuthContext, instanceId: string): Promise<boolean> {
    const [own] = await tenantScope(ctx.db, auth.tenantId)
      .select(flowInstance, { id: flowInstance.id })
      .where(eq(flowInstance.id, instanceId));
    if (!own) return false;
    if (isAdministrator(auth)) return true;
    const grants = await ctx.grants.apiGrants(auth.roleIds);
    if (coversRoute(grants, `${flowInstanceResource.code}:read`, `/api${flowInstanceResource.api}/list`)) return true;
    return flow.participates(auth, instanceId);
  }

  async function historyOf(tenantId: string, instanceId: string): Promise<FlowHistoryStep[]> {
    const scope = tenantScope(ctx.db, tenantId);
    const steps = await scope
      .select(flowHistory)
      .where(eq(flowHistory.processInstanceId, instanceId))
      .orderBy(asc(flowHistory.seq));
    const open = await scope
      .select(flowTask)
      .where(eq(flowTask.processInstanceId, instanceId), eq(flowTask.flowStatus, FlowTaskStatus.open))
      .orderBy(asc(flowTask.id));
    const now = ctx.clock.now();
    return [
      ...steps.map((s): FlowHistoryStep => ({
        historyActivityId: s.activityId,
        historyActivityName: s.activityName ?? '',
        historyActivityType: s.activityType,
        taskId: s.taskId === null ? null : String(s.taskId),
        assignee: s.assignee === null ? null : String(s.assignee),
        assigneeName: s.assigneeName ?? '',
        createTime: dateText(s.startTime),
        endTime: dateText(s.endTime),
        historyActivityDurationTime: durationText(s.durationMs),
        durationMs: s.durationMs,
        comment: s.comment ?? '',
        isPass: s.isPass,
        current: false,
      })),
      ...open.map((t): FlowHistoryStep => ({
        historyActivityId: t.taskDefinitionKey,
        historyActivityName: t.taskName,
        historyActivityType: 'bpmn:UserTask',
        taskId: String(t.id),
        assignee: t.assignee === null ? null : String(t.assignee),
        assigneeName: t.assigneeName || t.candidateGroups || t.candidateUsers || '',
        createTime: dateText(t.createdAt),
        endTime: null,
        historyActivityDurationTime: t.createdAt ? durationText(now - t.createdAt.getTime()) : '',
        durationMs: null,
        comment: '',
        isPass: null,
        current: true,
      })),
    ];
  }

  app.get(`/api${FlowPaths.historyFlowList}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const id = idValue(paramsOf(request).processInstanceId, 'processInstanceId');
      if (!(await mayFollow(auth, id))) throw notFound(bilingual('rowNotFound'));
      return ok(await historyOf(auth.tenantId, id));
    }),
  );

  // ------------------------------------------------------------------ forms
  /** The open task's declared fields, or undefined when it is not the caller's to see (complete-task refuses it). */
  async function taskFormFields(auth: AuthContext, taskId: string) {
    const [task] = await tenantScope(ctx.db, auth.tenantId)
      .select(flowTask, { key: flowTask.taskDefinitionKey, definitionId: flowTask.processDefinitionId })
      .where(eq(flowTask.id, taskId), eq(flowTask.flowStatus, FlowTaskStatus.open));
    if (!task?.definitionId) return undefined;
    const def = await flow.definition(ctx.db, auth.tenantId, String(task.definitionId));
    return (await definitionForms(def)).tasks[task.key]?.fields;
  }

  const instanceOf = async (tenantId: string, id: string) => {
    const [row] = await tenantScope(ctx.db, tenantId).select(flowInstance).where(eq(flowInstance.id, id));
    if (!row) throw notFound(Messages.rowNotFound);
    return row;
  };

  app.get(`/api${FlowPaths.startForm}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      await flow.ensureSeeded(auth.tenantId);
      const id = idValue(paramsOf(request).processDefinitionId, 'processDefinitionId');
      const def = await flow.definition(ctx.db, auth.tenantId, id);
      const form = (await definitionForms(def)).start;
      const answer: FlowStartForm = {
        processDefinitionId: def.id,
        key: def.key,
        name: def.name,
        version: def.version,
        // The leave's start form is built in, whatever its start event says.
        formKey: def.key === LEAVE_PROCESS_KEY ? LEAVE_PROCESS_KEY : form.formKey,
        fields: form.fields,
      };
      return ok(answer);
    }),
  );

  app.get(`/api${FlowPaths.taskForm}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const taskId = idValue(paramsOf(request).taskId, 'taskId');
      const [task] = await tenantScope(ctx.db, auth.tenantId).select(flowTask).where(eq(flowTask.id, taskId));
      const instanceId = task?.processInstanceId ? String(task.processInstanceId) : '';
      if (!task || !instanceId || !(await mayFollow(auth, instanceId))) throw notFound(Messages.rowNotFound);
      const instance = await instanceOf(auth.tenantId, instanceId);
      const def = await flow.definition(ctx.db, auth.tenantId, String(instance.processDefinitionId));
      const forms = await definitionForms(def);
      const form = forms.tasks[task.taskDefinitionKey] ?? { formKey: '', fields: [] };
      const answer: FlowTaskForm = {
        taskId: String(task.id),
        taskName: task.taskName,
        taskDefinitionKey: task.taskDefinitionKey,
        processInstanceId: instanceId,
        processDefinitionId: def.id,
        processDefinitionName: def.name,
        startUserName: instance.startUserName,
        open: task.flowStatus === FlowTaskStatus.open && String(task.assignee ?? '') === auth.userId,
        formKey: form.formKey,
        fields: form.fields,
        values: formValues(instance.state, form.fields),
        start: { ...forms.start, values: formValues(instance.state, forms.start.fields) },
        flow: await historyOf(auth.tenantId, instanceId),
      };
      return ok(answer);
    }),
  );

  app.get(`/api${FlowPaths.instanceForm}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const id = idValue(paramsOf(request).processInstanceId, 'processInstanceId');
      if (!(await mayFollow(auth, id))) throw notFound(Messages.rowNotFound);
      const instance = await instanceOf(auth.tenantId, id);
      const def = await flow.definition(ctx.db, auth.tenantId, String(instance.processDefinitionId));
      const { start } = await definitionForms(def);
      const answer: FlowInstanceForm = {
        processInstanceId: id,
        processDefinitionId: def.id,
        processDefinitionName: def.name,
        startUserName: instance.startUserName,
        startTime: dateText(instance.startTime),
        flowStatus: instance.flowStatus,
        start: { ...start, values: formValues(instance.state, start.fields) },
        flow: await historyOf(auth.tenantId, id),
      };
      return ok(answer);
    }),
  );

  // ------------------------------------------------------------------ leave
  app.post(`/api${FlowPaths.leaveStart}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      await flow.ensureSeeded(auth.tenantId);
      const params = paramsOf(request);
      // The form's own check first, so browser and server refuse the same requests with the same words.
      const problem = leaveProblem({
        startTime: typeof params.startTime === 'string' ? params.startTime : undefined,
        endTime: typeof params.endTime === 'string' ? params.endTime : undefined,
        reason: typeof params.reason === 'string' ? params.reason : undefined,
        taskUser: params.taskUser === undefined || params.taskUser === null ? undefined : String(params.taskUser),
      });
      if (problem) throw badRequest(problem);
      const startText = text(params.startTime, 'startTime', 32, true);
      const endText = text(params.endTime, 'endTime', 32, true);
      const start = parseDateTime(startText);
      const end = parseDateTime(endText);
      if (!start)
        throw badRequest(
          invalidParam('startTime', { zh: '应为 yyyy-MM-dd HH:mm:ss', en: 'must be yyyy-MM-dd HH:mm:ss' }),
        );
      if (!end)
        throw badRequest(
          invalidParam('endTime', { zh: '应为 yyyy-MM-dd HH:mm:ss', en: 'must be yyyy-MM-dd HH:mm:ss' }),
        );
      if (end <= start) throw new FlowError(400, FlowMessages.leaveTimes);
      const reason = text(params.reason, 'reason', 500, true);
      const leaveType = params.leaveType ?? params.type ?? 1;
      const type = Number(leaveType);
      if (!Number.isInteger(type) || type < 1 || type > 7)
        throw badRequest(invalidParam('leaveType', { zh: '应为请假类型', en: 'must be a leave type' }));
      const taskUser = idValue(String(params.taskUser ?? '').replace(/^taskUser_/, '') || undefined, 'taskUser');
      const names = await flow.userNames(ctx.db, auth.tenantId, [taskUser, auth.userId]);
      if (!names.has(taskUser)) throw new FlowError(400, FlowMessages.badUser('taskUser'));
      const def =
        params.processDefinitionId !== undefined && params.processDefinitionId !== ''
          ? await flow.definition(ctx.db, auth.tenantId, idValue(params.processDefinitionId, 'processDefinitionId'))
          : await flow.latestDefinition(ctx.db, auth.tenantId, LEAVE_PROCESS_KEY);
      if (def.key !== LEAVE_PROCESS_KEY) throw new FlowError(400, FlowMessages.notLeaveProcess);
      const days = leaveDays(start, end);
      const businessId = nextId();
      const now = new Date(ctx.clock.now());
      const result = await ctx.db.transaction(async (tx) => {
        const scope = tenantScope(tx, auth.tenantId);
        await scope.insert(leave).values({
          id: businessId,
          processDefinitionId: def.id,
          startTime: start,
          endTime: end,
          leaveType: type,
          reason,
          taskUser,
          days: days.toFixed(2),
          applyUser: auth.userId,
          applyUserName: (names.get(auth.userId) ?? auth.account).slice(0, 64),
          applyTime: now,
          createUser: auth.userId,
          createTime: now,
          updateTime: now,
        });
        const started = await flow.start(tx, auth, def, {
          businessTable: LEAVE_BUSINESS_TABLE,
          businessId,
          fixed: { days, taskUser, leaveType: type, reason, startTime: startText, endTime: endText },
        });
        await scope.update(leave).set({ processInstanceId: started.instanceId }).where(eq(leave.id, businessId));
        return started;
      });
      await flow.changed(auth.tenantId);
      return ok({ businessId, processInstanceId: result.instanceId }, say(request, FlowMessages.started));
    }),
  );

  app.get(`/api${FlowPaths.leaveDetail}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const businessId = idValue(paramsOf(request).businessId, 'businessId');
      const [row] = await tenantScope(ctx.db, auth.tenantId).select(leave).where(eq(leave.id, businessId));
      if (!row || !row.processInstanceId || !(await mayFollow(auth, String(row.processInstanceId))))
        throw notFound(bilingual('rowNotFound'));
      const [instance] = await tenantScope(ctx.db, auth.tenantId)
        .select(flowInstance, { flowStatus: flowInstance.flowStatus, endTime: flowInstance.endTime })
        .where(eq(flowInstance.id, String(row.processInstanceId)));
      const names = await flow.userNames(ctx.db, auth.tenantId, [String(row.taskUser)]);
      const { tenantId: _t, isDeleted: _d, ...rest } = row;
      return ok({
        ...rest,
        startTime: dateText(row.startTime),
        endTime: dateText(row.endTime),
        applyTime: dateText(row.applyTime),
        createTime: dateText(row.createTime),
        updateTime: dateText(row.updateTime),
        taskUserName: names.get(String(row.taskUser)) ?? '',
        processIsFinished: instance ? instance.flowStatus !== FlowInstanceStatus.running : true,
        processStatus: instance?.flowStatus ?? null,
        flow: await historyOf(auth.tenantId, String(row.processInstanceId)),
      });
    }),
  );

  // The leave form's approver picker: every signed-in user must be able to name an approver, and the
  // user list proper is an administrator's screen; so this answers names only, of the caller's tenant.
  app.get(`/api${FlowPaths.workUserSelect}`, { config: { anyUser: true } }, (request) =>
    answering(request, async () => {
      const auth = requireAuth(request);
      const rows = await tenantScope(ctx.db, auth.tenantId)
        .select(user, { id: user.id, account: user.account, realName: user.realName, name: user.name })
        .where()
        .orderBy(asc(user.account))
        .limit(500);
      return ok(
        rows.map((r) => ({ id: String(r.id), account: r.account, name: r.realName || r.name || r.account || '' })),
      );
    }),
  );

  // Rows written only by the routes above: no generic routes, their services unused here.
  registerResource(app, ctx, { def: flowDeploymentResource, table: flowDeployment });
  registerResource(app, ctx, { def: flowHistoryResource, table: flowHistory });
  registerResource(app, ctx, { def: leaveResource, table: leave });
}
