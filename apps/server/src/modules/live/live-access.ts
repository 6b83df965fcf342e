import { sql } from 'drizzle-orm';
import { deviceResource, NoticeAudience, warningResource, type LiveEvent, type ResourceDef } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dataScopeCondition, mayReadResource } from '../../engine/resource-access';
import type { AuthContext } from '../../platform/auth/request-auth';
import { dept } from '../../platform/db/schema';
import { tenantRows } from '../../platform/tenancy/tenant-scope';
import { noticeAudienceDepts } from '../desk/notice-audience';

/** The departments whose rows of a resource the caller sees: every one, or these. */
export type DeptReach = 'all' | ReadonlySet<string>;

/**
 * What one stream may carry, decided from the caller's session (docs/live.md "Who gets what").
 * `warnings` / `devices` are undefined when the caller may not read that resource at all.
 */
export interface LiveAccess {
  tenantId: string;
  warnings: DeptReach | undefined;
  devices: DeptReach | undefined;
  roleIds: ReadonlySet<string>;
  /** For notices to departments: the caller's own and those above them (`noticeAudienceDepts`). */
  deptIds: ReadonlySet<string>;
  /** For notices to users. */
  userId: string;
}

/**
 * The departments inside the caller's data scope of `def`. The engine's own condition
 * (`dataScopeCondition`) is applied to the tenant's departments presented under the resource's
 * column names, so every scope type means here what it means in the resource's lists. Events
 * carry no creator: an "own rows" scope reaches no department (system-made rows have none).
 */
async function deptReach(ctx: AppContext, auth: AuthContext, def: ResourceDef): Promise<DeptReach> {
  const scope = await dataScopeCondition(def, auth, ctx.grants);
  if (!scope) return 'all';
  const deptColumn = sql.identifier(def.dataScope?.deptColumn ?? 'create_dept');
  const userColumn = sql.identifier(def.dataScope?.userColumn ?? 'create_user');
  const result = await ctx.db.execute<{ id: string }>(
    sql`select x.${deptColumn}::text as id
        from (select ${dept.id} as ${deptColumn}, null::bigint as ${userColumn}
              from ${dept} where ${tenantRows(dept, auth.tenantId)}) as x
        where ${scope}`,
  );
  return new Set(result.rows.map((r) => r.id));
}

async function reachOf(ctx: AppContext, auth: AuthContext, def: ResourceDef): Promise<DeptReach | undefined> {
  return (await mayReadResource(def, auth, ctx.grants)) ? deptReach(ctx, auth, def) : undefined;
}

/** Decides what a stream of `auth` may carry; run at connect and again when grants change. */
export async function liveAccess(ctx: AppContext, auth: AuthContext): Promise<LiveAccess> {
  const [warnings, devices, deptIds] = await Promise.all([
    reachOf(ctx, auth, warningResource),
    reachOf(ctx, auth, deviceResource),
    noticeAudienceDepts(ctx.db, auth),
  ]);
  return {
    tenantId: auth.tenantId,
    userId: auth.userId,
    warnings,
    devices,
    roleIds: new Set(auth.roleIds),
    deptIds,
  };
}

const reaches = (reach: DeptReach | undefined, deptId: string | null): boolean =>
  reach !== undefined && (reach === 'all' || (deptId !== null && reach.has(String(deptId))));

/** Whether an event may go to a stream with this access. */
export function mayReceive(access: LiveAccess, event: LiveEvent): boolean {
  if (event.tenantId !== access.tenantId) return false;
  switch (event.type) {
    case 'warning':
      return reaches(access.warnings, event.deptId);
    case 'device':
    case 'cycle':
      return reaches(access.devices, event.deptId);
    case 'notice': {
      if (event.audienceType === NoticeAudience.everyone) return true;
      if (event.audienceType === NoticeAudience.users) return (event.audienceIds ?? []).includes(access.userId);
      const mine = event.audienceType === NoticeAudience.roles ? access.roleIds : access.deptIds;
      if (event.audienceType !== NoticeAudience.roles && event.audienceType !== NoticeAudience.depts) return false;
      return (event.audienceIds ?? []).some((id) => mine.has(String(id)));
    }
    default:
      return false;
  }
}
