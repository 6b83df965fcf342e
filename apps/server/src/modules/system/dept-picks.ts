import { count, inArray, sql } from 'drizzle-orm';
import { type BilingualText, deptResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dataScopeCondition } from '../../engine/resource-access';
import type { AuthContext } from '../../platform/auth/request-auth';
import type { Queryable } from '../../platform/tenancy/tenant-scope';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { dept } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';

/** The parent id of a top-level department. */
const ROOT = '0';

/**
 * Departments a caller picks (the departments of a user, the parent of a department) must be
 * ones their data scope on departments shows them, as the department pickers do; otherwise
 * `message` as a 400. A caller without a restricting scope may pick any live department of the
 * tenant (that they exist is checked where they are used) and the top level; a restricted one
 * neither the top level nor a department outside the scope.
 */
export async function assertDeptsPickable(
  db: Queryable,
  ctx: Pick<AppContext, 'grants'>,
  auth: AuthContext,
  ids: readonly string[],
  message: BilingualText,
): Promise<void> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return;
  const scope = await dataScopeCondition(deptResource, auth, ctx.grants);
  if (!scope) return;
  if (wanted.includes(ROOT)) throw badRequest(message);
  // The scope names its columns unqualified (it is written for the department table itself).
  const [row] = await tenantScope(db, auth.tenantId)
    .select(dept, { n: count() })
    .where(inArray(dept.id, wanted), sql`(${scope})`);
  if ((row?.n ?? 0) !== wanted.length) throw badRequest(message);
}
