import { inArray } from 'drizzle-orm';
import { splitIds, type AuthContext } from '../../platform/auth/request-auth';
import { dept } from '../../platform/db/schema';
import { tenantScope, type Queryable } from '../../platform/tenancy/tenant-scope';

/**
 * The departments a notice may name to reach the caller: their own and every one above them (a
 * notice to a region reaches its clinics). The one rule behind the inbox (notice-routes.ts) and
 * the live stream's notice events (modules/live/live-access.ts), so both reach the same readers.
 */
export async function noticeAudienceDepts(db: Queryable, auth: AuthContext): Promise<Set<string>> {
  const own = splitIds(auth.deptId);
  const depts = new Set(own);
  if (!own.length) return depts;
  const rows = await tenantScope(db, auth.tenantId)
    .select(dept, { ancestors: dept.ancestors })
    .where(inArray(dept.id, own));
  // `0` is the root every department hangs from, not a department a notice can name.
  for (const row of rows) for (const id of splitIds(String(row.ancestors ?? ''))) if (id !== '0') depts.add(id);
  return depts;
}
