import { and, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, NoticeAudience, UserStatus } from '@mes/contracts';
import type { Db } from '../../platform/db/database';
import { nextId } from '../../platform/db/ids';
import { flowModel, menu, notice, role, roleMenu, tenant, user } from '../../platform/db/schema';
import { notifyLive } from '../../platform/live/notify-live';
import { liveRows, tenantRowsLiveOrRemoved, tenantScope } from '../../platform/tenancy/tenant-scope';
import { ADMINISTRATOR_ROLE } from '../../platform/auth/request-auth';
import { SEED_MENUS } from '../../seed/seed-menus';
import { TENANT_ADMIN_ROLE_ALIAS } from '../../seed/seed-data';
import { liveClient, noticeEvent } from '../desk/notice-release';
import type { ProcessMeta } from './bpmn-model';
import { LEAVE_PROCESS_XML } from './leave-process';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The candidate groups the shipped processes hand tasks to, as roles every tenant has (issue 30:
 * a leave of more than 3 days went to `hr`, which no role of a new tenant had, and hung unseen).
 * A test checks that every `candidateGroups` of the shipped XML is named here.
 */
export const SHIPPED_PROCESS_GROUPS = [{ alias: 'hr', roleName: '人事' }] as const;

/** The candidate groups a process XML names (`flowable:candidateGroups="a,b"`, literal ones only). */
export function candidateGroupsOf(xml: string): string[] {
  const out = new Set<string>();
  for (const m of xml.matchAll(/candidateGroups="([^"]*)"/g))
    for (const g of (m[1] ?? '').split(',').map((s) => s.trim())) if (g && !g.includes('$')) out.add(g);
  return [...out];
}

export const SHIPPED_PROCESSES_XML = [LEAVE_PROCESS_XML];

/** The screens of 我的事务 (start, claim, to-do, done, sent): what a group's member needs to find its tasks. */
function workMenuIds(): string[] {
  const group = SEED_MENUS.find((m) => m.parentId === '0' && m.code === 'work');
  if (!group) return [];
  const screens = SEED_MENUS.filter((m) => m.parentId === group.id);
  const buttons = SEED_MENUS.filter((m) => screens.some((s) => s.id === m.parentId));
  return [group.id, ...screens.map((s) => s.id), ...buttons.map((b) => b.id)];
}

/**
 * Adds to `tenantId` the roles of the shipped processes' groups it lacks, each granted the
 * 我的事务 menus so a member sees the tasks waiting for the group. A role an administrator
 * renamed keeps its name (found by alias); one they removed comes back, since the process
 * cannot finish without it. Answers how many roles were added.
 */
export async function ensureProcessGroupRoles(tx: Tx, tenantId: string): Promise<number> {
  const scope = tenantScope(tx, tenantId);
  const aliases = SHIPPED_PROCESS_GROUPS.map((g) => g.alias);
  const have = new Set(
    (await scope.select(role, { alias: role.roleAlias }).where(inArray(role.roleAlias, aliases))).map((r) => r.alias),
  );
  const missing = SHIPPED_PROCESS_GROUPS.filter((g) => !have.has(g.alias));
  if (!missing.length) return 0;
  const wanted = workMenuIds();
  const menus = wanted.length
    ? await tx
        .select({ id: menu.id })
        .from(menu)
        .where(and(inArray(menu.id, wanted), eq(menu.isDeleted, 0)))
    : [];
  for (const group of missing) {
    const id = nextId();
    await scope.insert(role).values({ id, parentId: '0', roleName: group.roleName, roleAlias: group.alias, sort: 2 });
    if (menus.length) await tx.insert(roleMenu).values(menus.map((m) => ({ id: nextId(), roleId: id, menuId: m.id })));
  }
  return missing.length;
}

/** `ensureProcessGroupRoles` for every live tenant (the seed, on every start: tenants made before this release). */
export async function ensureProcessGroupRolesForAll(tx: Tx): Promise<number> {
  // tenancy: all tenants (every tenant's processes need the groups' roles)
  const tenants = await tx.select({ tenantId: tenant.tenantId }).from(tenant).where(liveRows(tenant));
  let added = 0;
  for (const t of tenants) added += await ensureProcessGroupRoles(tx, t.tenantId);
  return added;
}

export interface WaitingTaskFacts {
  taskId: string;
  taskName: string;
  processName: string;
  startUserName: string;
  candidateUsers: string[];
  groups: string[];
}

/**
 * Whether a user of the tenant can claim the task: a live, enabled candidate user, or a user
 * holding a role whose alias, or a department whose id, is one of the groups (as
 * `candidateCondition` matches them when the user lists claimable tasks).
 */
export async function someoneCanClaim(tx: Tx, tenantId: string, task: WaitingTaskFacts): Promise<boolean> {
  const scope = tenantScope(tx, tenantId);
  const roleIds = task.groups.length
    ? (await scope.select(role, { id: role.id }).where(inArray(role.roleAlias, task.groups))).map((r) => String(r.id))
    : [];
  // Joined and split in SQL: one text parameter each, as `candidateCondition` passes its groups.
  const ids = task.candidateUsers.join(',');
  const holders = [...roleIds, ...task.groups.filter((g) => /^\d{1,19}$/.test(g))].join(',');
  const [row] = await scope
    .select(user, { id: user.id })
    .where(
      sql`${user.status} = ${UserStatus.active} and (${user.id}::text = any(string_to_array(${ids}, ','))
        or string_to_array(coalesce(${user.roleId}, ''), ',') && string_to_array(${holders}, ',')
        or string_to_array(coalesce(${user.deptId}, ''), ',') && string_to_array(${holders}, ','))`,
    )
    .limit(1);
  return Boolean(row);
}

/** The notice's text: what waits, for whom, and what to do (grant the role or reassign). */
export function unclaimableNoticeText(task: WaitingTaskFacts): { title: string; content: string } {
  const who = [...task.groups.map((g) => `角色/机构 ${g}`), ...task.candidateUsers.map((u) => `用户 ${u}`)].join('、');
  return {
    title: `待办无人可签收:${task.processName} · ${task.taskName}`.slice(0, 255),
    content:
      `<p>${escapeHtml(task.startUserName || '')} 发起的「${escapeHtml(task.processName)}」已到「${escapeHtml(task.taskName)}」,` +
      `候选为 ${escapeHtml(who)},但本租户没有可签收它的用户。</p>` +
      `<p>请在 角色管理 / 用户管理 中把该角色授予至少一名用户(或在 流程管理 中改派),任务才能继续。</p>` +
      `<p>Task "${escapeHtml(task.taskName)}" of "${escapeHtml(task.processName)}" waits for ${escapeHtml(task.groups.join(', ') || task.candidateUsers.join(', '))}, ` +
      `but no user of this tenant can claim it: grant that role to a user (Roles / Users) or reassign the task.</p>`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Tells the tenant's administrators (roles `admin` and, on the platform, `administrator`) that a
 * task no user can claim is waiting: a notice to their roles, released now, announced live so
 * the bell shows it at once. Written in the transaction that made the task.
 */
export async function noticeUnclaimableTask(
  tx: Tx,
  tenantId: string,
  task: WaitingTaskFacts,
  now: Date,
): Promise<void> {
  const scope = tenantScope(tx, tenantId);
  const aliases =
    tenantId === DEFAULT_TENANT_ID ? [ADMINISTRATOR_ROLE, TENANT_ADMIN_ROLE_ALIAS] : [TENANT_ADMIN_ROLE_ALIAS];
  const admins = await scope.select(role, { id: role.id }).where(inArray(role.roleAlias, aliases));
  const audience = admins.map((r) => String(r.id));
  const text = unclaimableNoticeText(task);
  const id = nextId();
  const values = {
    id,
    title: text.title,
    category: 1,
    releaseTime: now,
    audienceType: audience.length ? NoticeAudience.roles : NoticeAudience.everyone,
    audienceIds: audience.join(','),
    content: text.content,
    createTime: now,
    updateTime: now,
  };
  await scope.insert(notice).values(values);
  await notifyLive(liveClient(tx), [
    noticeEvent(
      { tenantId, id, title: text.title, audienceType: values.audienceType, audienceIds: values.audienceIds },
      'released',
    ),
  ]);
}

/**
 * The model row of a shipped process (模型管理), made once: unless the tenant has a model of the
 * process's key, live or removed, so one an administrator removed stays removed. Answers
 * whether it made one.
 */
export async function ensureShippedModel(
  tx: Tx,
  tenantId: string,
  xml: string,
  meta: ProcessMeta,
  now: Date,
): Promise<boolean> {
  const [model] = await tx
    .select({ id: flowModel.id })
    .from(flowModel)
    .where(tenantRowsLiveOrRemoved(flowModel, tenantId, eq(flowModel.modelKey, meta.key)))
    .limit(1);
  if (model) return false;
  await tenantScope(tx, tenantId)
    .insert(flowModel)
    .values({
      id: nextId(),
      modelKey: meta.key,
      name: meta.name,
      description: meta.description.slice(0, 500) || null,
      version: 1,
      xml,
      createTime: now,
      updateTime: now,
    });
  return true;
}
