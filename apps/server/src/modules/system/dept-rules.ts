import { eq, inArray, or, sql } from 'drizzle-orm';
import { bilingual, invalidParamText } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import type { ChangeArgs, RemoveArgs, ResourceHooks } from '../../engine/resource-routes';
import type { AuthContext } from '../../platform/auth/request-auth';
import { splitIds } from '../../platform/auth/request-auth';
import { dept, deptLine, user } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import { isId } from '../../platform/db/ids';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { assertDeptsPickable } from './dept-picks';

/** `deptCategory` values (dictionary org_category); 4 and 5 are the MES additions. */
export const DeptCategory = { COMPANY: 1, DEPARTMENT: 2, TEAM: 3, BASE: 4, NODE: 5 } as const;
const CATEGORIES: readonly number[] = Object.values(DeptCategory);

/** Room left in `ancestors` (varchar 2000) for the ids of one more level. */
const MAX_ANCESTORS = 1980;

export const DeptMessages = {
  badCategory: { zh: '机构类型不正确', en: 'The department category is invalid' },
  parentMissing: { zh: '上级机构不存在', en: 'The parent department does not exist' },
  parentIsSelf: {
    zh: '上级机构不能是自身或其下级机构',
    en: 'The parent department cannot be the department itself or one under it',
  },
  tooDeep: { zh: '机构层级过深', en: 'The department tree is nested too deeply' },
  hasUsers: {
    zh: '该机构下存在用户,请先调整用户的所属部门',
    en: 'Users belong to this department: move them to another department first',
  },
  parentOutOfScope: { zh: '上级机构不在您的数据权限范围内', en: 'The parent department is outside your data scope' },
} as const;

type Tx = ChangeArgs['tx'];

/**
 * Dept structure changes of one tenant run one at a time: a move reads the new parent's
 * ancestors and rewrites the subtree's, and two moves at once could otherwise build a cycle.
 */
const lockTree = (tx: Tx, tenantId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`blade_dept:${tenantId}`}))`);

async function ancestorsUnder(tx: Tx, auth: AuthContext, parentId: string, movingId: string | undefined) {
  if (parentId === '0') return '0';
  const [parent] = await tenantScope(tx, auth.tenantId)
    .select(dept, { id: dept.id, ancestors: dept.ancestors })
    .where(eq(dept.id, parentId));
  if (!parent) throw badRequest(DeptMessages.parentMissing);
  if (movingId && (parent.id === movingId || splitIds(parent.ancestors).includes(movingId)))
    throw badRequest(DeptMessages.parentIsSelf);
  const ancestors = `${parent.ancestors},${parent.id}`;
  if (ancestors.length > MAX_ANCESTORS) throw badRequest(DeptMessages.tooDeep);
  return ancestors;
}

/**
 * Keeps `ancestors` (the parent's ancestors plus the parent id) right: set on add, recomputed
 * when a dept moves, and rewritten for the whole subtree below it. A parent must be a live dept
 * of the caller's tenant, within the caller's data scope (a restricted caller picks among the
 * departments they see, so the top level is not theirs to pick), and never the dept itself or
 * one of its descendants.
 */
async function beforeChange(ctx: AppContext, { tx, auth, adding, values, existing }: ChangeArgs): Promise<void> {
  if (values.deptCategory !== undefined && !CATEGORIES.includes(Number(values.deptCategory)))
    throw badRequest(DeptMessages.badCategory);
  const oldParent = existing ? String(existing.parentId) : undefined;
  const parentId = values.parentId !== undefined ? String(values.parentId) : (oldParent ?? '0');
  if (!adding && parentId === oldParent) return;
  await assertDeptsPickable(tx, ctx, auth, [parentId], DeptMessages.parentOutOfScope);
  await lockTree(tx, auth.tenantId);
  values.parentId = parentId;
  values.ancestors = await ancestorsUnder(tx, auth, parentId, existing ? String(existing.id) : undefined);
}

async function afterChange({ tx, auth, adding, values, existing, id }: ChangeArgs & { id: string }): Promise<void> {
  if (adding || !existing || values.ancestors === undefined || values.ancestors === existing.ancestors) return;
  const oldPrefix = `${String(existing.ancestors)},${id}`;
  const newPrefix = `${String(values.ancestors)},${id}`;
  // Ancestors hold only digits and commas, so a prefix comparison is exact.
  const scope = tenantScope(tx, auth.tenantId);
  await scope
    .update(dept)
    .set({ ancestors: sql`${newPrefix} || substr(${dept.ancestors}, ${oldPrefix.length + 1})` })
    .where(or(eq(dept.ancestors, oldPrefix), sql`starts_with(${dept.ancestors}, ${`${oldPrefix},`})`));
  const [tooLong] = await scope
    .select(dept, { id: dept.id })
    .where(sql`length(${dept.ancestors}) > ${MAX_ANCESTORS}`)
    .limit(1);
  if (tooLong) throw badRequest(DeptMessages.tooDeep);
}

/** A dept people still belong to cannot go; its line assignments go with it. */
async function beforeRemove({ tx, auth, rows }: RemoveArgs): Promise<void> {
  const ids = rows.map((r) => String(r.id));
  const [member] = await tenantScope(tx, auth.tenantId)
    .select(user, { id: user.id })
    .where(sql`string_to_array(${user.deptId}, ',') && ${sql.param(ids)}::text[]`)
    .limit(1);
  if (member) throw badRequest(DeptMessages.hasUsers);
}

async function afterRemove({ tx, auth, rows }: RemoveArgs): Promise<void> {
  const ids = rows.map((r) => String(r.id));
  await tenantScope(tx, auth.tenantId).delete(deptLine).where(inArray(deptLine.deptId, ids));
}

export function deptHooks(ctx: AppContext): ResourceHooks {
  return {
    // `parentId` narrows a list to the children of one dept (lazy lists).
    listParams: {
      names: ['parentId'],
      where(query) {
        const parentId = query.parentId;
        if (parentId === undefined || parentId === '') return undefined;
        if (typeof parentId !== 'string' || !isId(parentId))
          throw badRequest(invalidParamText('parentId', { zh: '应为编号', en: 'must be an id' }));
        return eq(dept.parentId, parentId);
      },
    },
    beforeChange: (args) => beforeChange(ctx, args),
    afterChange,
    beforeRemove,
    afterRemove,
  };
}

const CATEGORY_VALUES: readonly number[] = Object.values(DeptCategory);

export function categoryOf(value: unknown, name: string, required: boolean): number | undefined {
  const v = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value;
  if (v === undefined || v === null || v === '') {
    if (required) throw badRequest(bilingual('missingParam', name));
    return undefined;
  }
  const n = Number(v);
  if (!CATEGORY_VALUES.includes(n))
    throw badRequest(
      invalidParamText(name, { zh: '应为 1 到 5 的机构类型', en: 'must be a department category from 1 to 5' }),
    );
  return n;
}
