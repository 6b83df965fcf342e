import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { bilingual, checkField, isEmptyValue, regionResource } from '@mes/contracts';
import type { ChangeArgs, RemoveArgs, ResourceHooks, Row } from '../../engine/resource-routes';
import type { Db } from '../../platform/db/database';
import { region } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';

/** The parent code of top-level regions (provinces, or the country at level 0). */
export const ROOT_CODE = '00';
export const REGION_CODE = /^\d{1,12}$/;

/** The code and name columns each level fills (1 province ... 5 village); level 0 has none. */
const LEVEL_FIELDS = [
  undefined,
  ['provinceCode', 'provinceName'],
  ['cityCode', 'cityName'],
  ['districtCode', 'districtName'],
  ['townCode', 'townName'],
  ['villageCode', 'villageName'],
] as const;
const CHAIN_FIELDS = LEVEL_FIELDS.flatMap((f) => (f ? [...f] : []));

export const RegionMessages = {
  badLevel: { zh: '区划层级应在 0 到 5 之间', en: 'The region level must be from 0 to 5' },
  levelFixed: { zh: '区划层级不可修改', en: 'The region level cannot be changed' },
  parentMissing: { zh: '上级区划不存在', en: 'The parent region does not exist' },
  childLevel: (level: number) => ({
    zh: `下级区划的层级应为 ${level}`,
    en: `A child region must be at level ${level}`,
  }),
  selfParent: { zh: '上级区划不能是自身', en: 'A region cannot be its own parent' },
} as const;

export const isRootCode = (code: string) => code === '' || code === '0' || code === ROOT_CODE;

/**
 * The family's clients send the level as `level` (our field is `regionLevel`). Their form holds
 * the whole detail last shown, our `regionLevel` included, and adding a child changes only
 * `level`: so `level`, when sent, decides (under the rule of `regionLevel`).
 */
function takeFamilyLevel(values: ChangeArgs['values'], body: Record<string, unknown>): void {
  if (isEmptyValue(body.level)) return;
  const message = checkField(regionResource.fields.regionLevel, body.level, 'zh');
  if (message) throw badRequest(message);
  values.regionLevel = Number(String(body.level).trim());
}

/**
 * What the family's region screen reads besides the row: `level` (its name of the level) and
 * `parentName`, the parent region's name ('' for a top-level region without a stored parent).
 */
async function decorate(db: Db, rows: Row[]): Promise<Row[]> {
  const parentCodes = [...new Set(rows.map((r) => String(r.parentCode ?? '')).filter(Boolean))];
  const parents = parentCodes.length
    ? await db
        .select({ code: region.code, name: region.name })
        .from(region)
        .where(and(inArray(region.code, parentCodes), eq(region.isDeleted, 0)))
    : [];
  const names = new Map(parents.map((p) => [p.code, p.name]));
  return rows.map((r) => ({ ...r, level: r.regionLevel, parentName: names.get(String(r.parentCode ?? '')) ?? '' }));
}

/**
 * Fills `ancestors` and the province ... village code and name columns from the parent chain:
 * a region copies its parent's columns and adds its own at its level, which must be one below
 * the parent's. A renamed region renames itself in its descendants' columns too.
 */
async function beforeChange({ tx, adding, values, existing, body }: ChangeArgs): Promise<void> {
  takeFamilyLevel(values, body);
  if (!adding) {
    if (values.regionLevel !== undefined && existing && Number(values.regionLevel) !== Number(existing.regionLevel))
      throw badRequest(RegionMessages.levelFixed);
    const own = existing ? LEVEL_FIELDS[Number(existing.regionLevel)] : undefined;
    if (own && values.name !== undefined) values[own[1]] = values.name;
    return;
  }
  const code = String(values.code);
  const level = values.regionLevel === undefined ? 1 : Number(values.regionLevel);
  if (!Number.isInteger(level) || level < 0 || level > 5) throw badRequest(RegionMessages.badLevel);
  const parentCode = values.parentCode === undefined ? ROOT_CODE : String(values.parentCode);
  const chain: Record<string, string> = Object.fromEntries(CHAIN_FIELDS.map((f) => [f, '']));
  let ancestors = ROOT_CODE;
  if (isRootCode(parentCode)) {
    values.parentCode = ROOT_CODE;
  } else {
    if (parentCode === code) throw badRequest(RegionMessages.selfParent);
    const [parent] = await tx
      .select()
      .from(region)
      .where(and(eq(region.code, parentCode), eq(region.isDeleted, 0)))
      .limit(1);
    if (!parent) throw badRequest(RegionMessages.parentMissing);
    if (level !== parent.regionLevel + 1) throw badRequest(RegionMessages.childLevel(parent.regionLevel + 1));
    ancestors = parent.ancestors ? `${parent.ancestors},${parent.code}` : parent.code;
    for (const f of CHAIN_FIELDS) chain[f] = String((parent as Row)[f] ?? '');
  }
  const own = LEVEL_FIELDS[level];
  if (own) {
    chain[own[0]] = code;
    chain[own[1]] = String(values.name);
  }
  Object.assign(values, chain, { ancestors, regionLevel: level });
}

async function afterChange({ tx, adding, values, existing }: ChangeArgs & { id: string }): Promise<void> {
  if (adding || !existing || values.name === undefined || values.name === existing.name) return;
  const own = LEVEL_FIELDS[Number(existing.regionLevel)];
  if (!own) return;
  const columns = region as unknown as Record<string, PgColumn>;
  await tx
    .update(region)
    .set({ [own[1]]: String(values.name) })
    .where(eq(columns[own[0]] as PgColumn, String(existing.code)));
}

/** Regions go leaves first: one with live children (not removed with it) stays. */
async function beforeRemove({ tx, rows }: RemoveArgs): Promise<void> {
  const codes = rows.map((r) => String(r.code));
  const [child] = await tx
    .select({ code: region.code })
    .from(region)
    .where(and(inArray(region.parentCode, codes), notInArray(region.code, codes), eq(region.isDeleted, 0)))
    .limit(1);
  if (child) throw badRequest(bilingual('hasChildren'));
}

export const regionHooks = (db: Db): ResourceHooks => ({
  beforeChange,
  afterChange,
  beforeRemove,
  decorate: (rows) => decorate(db, rows),
  decorateReads: ['parentCode', 'regionLevel'],
});
