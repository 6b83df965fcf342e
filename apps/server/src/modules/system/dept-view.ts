import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Row } from '../../crud/resource-routes';
import type { Db } from '../../platform/db/database';
import { dept, dict } from '../../platform/db/schema';

/**
 * Adds the BladeX DeptVO view fields `parentName` and `deptCategoryName` to rows being sent:
 * two queries per page, whatever its size.
 */
export async function decorateDepts(db: Db, rows: Row[]): Promise<Row[]> {
  if (!rows.length) return rows;
  const parentIds = [...new Set(rows.map((r) => String(r.parentId)).filter((id) => id !== '0'))];
  const tenants = [...new Set(rows.map((r) => String(r.tenantId)))];
  const [parents, labels] = await Promise.all([
    parentIds.length
      ? db
          .select({ tenantId: dept.tenantId, id: dept.id, name: dept.deptName })
          .from(dept)
          .where(and(inArray(dept.tenantId, tenants), inArray(dept.id, parentIds), eq(dept.isDeleted, 0)))
      : [],
    db
      .select({ key: dict.dictKey, value: dict.dictValue })
      .from(dict)
      .where(and(eq(dict.code, 'org_category'), ne(dict.parentId, '0'), eq(dict.isDeleted, 0))),
  ]);
  const parentName = new Map(parents.map((p) => [`${p.tenantId}:${p.id}`, p.name]));
  const categoryName = new Map(labels.map((l) => [l.key, l.value]));
  return rows.map((r) => ({
    ...r,
    parentName: parentName.get(`${String(r.tenantId)}:${String(r.parentId)}`) ?? '',
    deptCategoryName: categoryName.get(String(r.deptCategory)) ?? '',
  }));
}
