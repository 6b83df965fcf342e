import { and, eq } from 'drizzle-orm';
import { isSubmittable, ReviewStatus, type ResourceDef } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { badRequest, notFound } from '../../platform/http/errors';
import type { Queryable } from '../../platform/tenancy/tenant-scope';
import type { AuthContext } from '../../platform/auth/request-auth';
import { rowScope, type AnyResourceTable } from '../resource-access';
import type { ChangeArgs, ResourceHooks } from '../resource-hooks';
import type { RecordChain } from './record-chain';
import { removalRefusal } from './record-retention-rules';

/**
 * The submit bodies that are corrections, with the id of the version each replaces. Only
 * `<api>/correct` (its own API scope) puts a body here: nothing a client sends to `submit` can
 * make an add a correction.
 */
export const corrections = new WeakMap<object, string>();

export const RecordMessages = {
  noUpdate: '记录不能修改,如需更改请使用「更正」生成新版本',
  superseded: '该记录已被更正,请更正或审核其最新版本',
  reviewed: '记录已审核,不能再次审核',
  ownRecord: '审核人不能是记录的操作人',
  noPartition: '记录缺少所属设备,不能入链',
} as const;

/** The name a record shows for the person who wrote or reviewed it. */
export const personOf = (auth: AuthContext) => (auth.claims.user_name || auth.account).slice(0, 64);

/**
 * The lifecycle of a record definition around the module's own hooks: records are only added
 * (an update is refused; a correction is an add that supersedes the version it names), get their
 * operator and their place in the chain before the insert and their hash after it, and are never
 * removed by a person (retention-rules.ts says why, naming the rule).
 */
export function recordHooks(
  ctx: AppContext,
  def: ResourceDef,
  table: AnyResourceTable,
  chain: RecordChain,
  own: ResourceHooks | undefined,
): ResourceHooks {
  const rules = def.records;
  if (!rules) throw new Error(`records: ${def.code} declares no records`);
  return {
    ...own,
    async beforeChange(args) {
      if (!args.adding) throw badRequest(RecordMessages.noUpdate);
      args.values.operatorId = args.auth.userId;
      args.values.operatorName = personOf(args.auth);
      const corrects = corrections.get(args.body);
      if (corrects !== undefined) await supersede(args, corrects, def, table, chain);
      await own?.beforeChange?.(args);
      const partition = args.values[rules.chainBy];
      if (typeof partition !== 'string' || !partition) throw badRequest(RecordMessages.noPartition);
      Object.assign(args.values, await chain.prepare(args.tx, args.auth.tenantId, partition));
    },
    async afterChange(args) {
      await chain.seal(args.tx, args.auth.tenantId, args.id);
      await own?.afterChange?.(args);
    },
    async beforeRemove(args) {
      const now = new Date(ctx.clock.now());
      const [row] = args.rows;
      if (row) throw badRequest(await removalRefusal(ctx.db, rules, row, now));
    },
  };
}

/**
 * A correction: the named version must be the caller's tenant's latest; the new row takes the next
 * version number, the same origin, and what the form does not carry (number, source, cycle); the
 * old row is marked superseded (its state hash sealed again) and stays, content hash and all.
 */
async function supersede(
  args: ChangeArgs,
  corrects: string,
  def: ResourceDef,
  table: AnyResourceTable,
  chain: RecordChain,
) {
  const tx: Queryable = args.tx;
  const scope = rowScope(def, table, args.auth);
  const [old] = await tx
    .select()
    .from(table)
    .where(and(scope, eq(table.id, corrects)))
    .for('update');
  if (!old) throw notFound('要更正的记录不存在或无权访问');
  const stored = old as Record<string, unknown>;
  if (stored.superseded === true) throw badRequest(RecordMessages.superseded);
  for (const [name, field] of Object.entries(def.fields))
    if (!isSubmittable(field, true) && args.values[name] === undefined && stored[name] !== undefined)
      args.values[name] = stored[name] as never;
  args.values.recordVersion = Number(stored.recordVersion) + 1;
  args.values.originId = (stored.originId as string | null) ?? corrects;
  args.values.reviewStatus = ReviewStatus.pending;
  args.values.reviewerId = null;
  args.values.reviewerName = '';
  args.values.reviewTime = null;
  args.values.superseded = false;
  await tx
    .update(table)
    .set({ superseded: true })
    .where(and(scope, eq(table.id, corrects)));
  await chain.restate(tx, args.auth.tenantId, [corrects]);
}
