import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID, DEMO_OFFER_PARAM } from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { applyMigrations, connectDatabase, type Database } from '../src/platform/db/database';
import { param, post } from '../src/platform/db/schema';
import { SEED_PARAMS, SEED_POSTS } from '../src/seed/seed-data';
import { derivedSeedId, isDerivedSeedId, paramSeedId, postSeedId } from '../src/seed/seed-ids';
import { seedDatabase } from '../src/seed-database';
import { LEGACY_PARAM_IDS } from '../src/seed/legacy-ids';
import { createTestDatabase } from './support/test-database';

/**
 * Posts and parameters took their ids from list positions until they were keyed by code. An
 * install seeded by that release (its rows written here as it wrote them) must upgrade with no
 * row doubled, re-keyed or lost.
 */
const OLD_POSTS = [
  ['ceo', '首席执行官', 1],
  ['coo', '首席运营官', 1],
  ['cfo', '首席财务官', 1],
  ['cto', '首席技术官', 1],
  ['cio', '首席信息官', 1],
  ['pm', '技术经理', 2],
  ['hrm', '人力经理', 2],
  ['staff', '普通员工', 3],
] as const;
const OLD_PARAMS = [
  ['是否开启注册功能', 'account.registerUser', 'true'],
  ['账号初始密码', 'account.initPassword', '123456'],
  ['账号错误锁定次数', 'account.failCount', '5'],
  ['租户默认管理密码', 'tenant.default.password', 'old-secret'],
  ['租户默认账号额度', 'tenant.default.accountNumber', '100'],
  ['租户默认菜单集合', 'tenant.default.menuCode', 'desk,system,authority,resource,report,monitor'],
  ['日志保留天数', 'log.retentionDays', '90'],
] as const;
const oldPostId = (i: number) => String(1000000000000000401n + BigInt(i));
const oldParamId = (i: number) => String(1000000000000000501n + BigInt(i));

let database: Database;
let drop: () => Promise<void>;
const db = () => database.db;
const handMadeStaff = nextId();
const handMadeCaptcha = nextId();

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  database = connectDatabase(created.url, 3);
  await applyMigrations(database);
  await db()
    .insert(post)
    .values(
      OLD_POSTS.map(([postCode, postName, category], i) => ({
        id: oldPostId(i),
        postCode,
        postName,
        category,
        sort: i + 1,
      })),
    );
  await db()
    .insert(param)
    .values(
      OLD_PARAMS.map(([paramName, paramKey, paramValue], i) => ({
        id: oldParamId(i),
        paramName,
        paramKey,
        paramValue,
      })),
    );
  // What administrators did meanwhile: renamed a post, removed one, changed a value, and made by
  // hand a post (after removing the seeded one for good) and a parameter a later release seeds.
  await db().update(post).set({ postName: 'CEO' }).where(eq(post.postCode, 'ceo'));
  await db().update(post).set({ isDeleted: 1 }).where(eq(post.postCode, 'pm'));
  await db().delete(post).where(eq(post.postCode, 'staff'));
  await db().insert(post).values({ id: handMadeStaff, postCode: 'staff', postName: '员工', category: 3 });
  await db().update(param).set({ paramValue: 'Changed#1' }).where(eq(param.paramKey, 'account.initPassword'));
  await db()
    .insert(param)
    .values({ id: handMadeCaptcha, paramName: '验证码', paramKey: 'account.captchaMode', paramValue: 'true' });
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

describe('seeded posts and parameters', () => {
  it('take ids from their codes, the same ones the positional release gave', () => {
    expect(SEED_POSTS.map((p) => p.id)).toEqual(SEED_POSTS.map((_, i) => oldPostId(i)));
    // The parameters the positional release seeded keep its ids; later ones get derived ids.
    const positional = SEED_PARAMS.filter((p) => p.paramKey in LEGACY_PARAM_IDS);
    expect(positional.map((p) => p.id)).toEqual(positional.map((_, i) => oldParamId(i)));
    for (const later of SEED_PARAMS.filter((p) => !(p.paramKey in LEGACY_PARAM_IDS))) {
      expect(later.id).toBe(derivedSeedId('param', later.paramKey));
    }
    // A code the positional releases never seeded gets a derived id, wherever it is listed.
    expect(postSeedId('qa')).toBe(derivedSeedId('post', 'qa'));
    expect(isDerivedSeedId(postSeedId('qa'))).toBe(true);
    expect(paramSeedId('report.font')).toBe(derivedSeedId('param', 'report.font'));
    expect(postSeedId('ceo')).toBe(oldPostId(0));
  });

  it('upgrade an install seeded by position: nothing doubled, re-keyed or restored, edits kept', async () => {
    await seedDatabase(db(), 'Admin#12345', { registry: [] });
    await seedDatabase(db(), undefined, { registry: [] });

    const posts = await db()
      .select({ id: post.id, code: post.postCode, name: post.postName, isDeleted: post.isDeleted })
      .from(post)
      .where(eq(post.tenantId, DEFAULT_TENANT_ID));
    const live = posts.filter((p) => p.isDeleted === 0);
    expect(live.map((p) => p.code).sort()).toEqual(['ceo', 'cfo', 'cio', 'coo', 'cto', 'hrm', 'staff']);
    expect(posts).toHaveLength(OLD_POSTS.length);
    expect(posts.find((p) => p.code === 'ceo')).toMatchObject({ id: oldPostId(0), name: 'CEO' });
    expect(posts.find((p) => p.code === 'pm')).toMatchObject({ id: oldPostId(5), isDeleted: 1 });
    expect(live.filter((p) => p.code === 'staff')).toEqual([expect.objectContaining({ id: handMadeStaff })]);

    const params = await db()
      .select({ id: param.id, key: param.paramKey, value: param.paramValue })
      .from(param)
      .where(eq(param.isDeleted, 0));
    // This fixture has no admin account, so the seed that creates it also offers the demo tenant
    // (a fresh install's one-time card, docs/demo.md); an install with its admin never gets one.
    expect(params.map((p) => p.key).sort()).toEqual([...SEED_PARAMS.map((p) => p.paramKey), DEMO_OFFER_PARAM].sort());
    for (const [i, [, key]] of OLD_PARAMS.entries())
      expect(params.find((p) => p.key === key)?.id, key).toBe(oldParamId(i));
    expect(params.find((p) => p.key === 'account.initPassword')?.value).toBe('Changed#1');
    expect(params.find((p) => p.key === 'tenant.default.password')?.value).toBe('old-secret');
    expect(params.find((p) => p.key === 'account.captchaMode')).toMatchObject({ id: handMadeCaptcha, value: 'true' });
    // Keys the old release lacked arrive under the ids every other install already has for them.
    const [ports] = await db()
      .select({ id: param.id })
      .from(param)
      .where(and(eq(param.paramKey, 'datasource.allowedPorts'), eq(param.isDeleted, 0)));
    expect(ports?.id).toBe(paramSeedId('datasource.allowedPorts'));
  });
});
