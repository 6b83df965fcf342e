import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, DEMO_OFFER_PARAM, type RegistryEntry } from '@mes/contracts';
import { hashClientSecret, hashPassword, md5Hex } from './platform/auth/passwords';
import type { Db } from './platform/db/database';
import * as t from './platform/db/schema';
import { tenantRows } from './platform/tenancy/tenant-scope';
import {
  ADMIN_USER,
  DEPT_IDS,
  PLATFORM_TENANT,
  SEED_CLIENTS,
  SEED_DEPTS,
  SEED_PARAMS,
  SEED_POSTS,
  SEED_ROLES,
} from './seed/seed-data';
import { seedDemoDevices } from './seed/demo-devices';
import { buildSeed, SEED } from './seed/seed-menus';
import { paramSeedId } from './seed/seed-ids';
import { grantToTenantAdministrators, syncMenus } from './seed/seed-sync';
import { ensureBuiltInReportsForAll } from './modules/report/builtin-reports';
import { ensureProcessGroupRolesForAll } from './modules/flow/process-groups';

export interface SeedResult {
  /** The admin account's password when this run created the account and generated it. */
  generatedAdminPassword: string | undefined;
  createdAdmin: boolean;
}

export interface SeedOptions {
  /** The definitions whose menus, scopes and dictionaries are seeded; default the application's registry. */
  registry?: readonly RegistryEntry[];
}

/**
 * Key of the advisory lock under which processes starting together seed one after the other, whatever
 * the order of the statements inside.
 */
const SEED_LOCK = 0x5eed_0013;

/**
 * Inserts the seed rows that are missing; rows that exist are never changed, so running it on
 * every start is safe and keeps what administrators edited. Menus, buttons and API scopes a
 * release adds are granted to every tenant's administrator role (`grantToTenantAdministrators`).
 */
export async function seedDatabase(
  db: Db,
  adminPassword: string | undefined,
  options: SeedOptions = {},
): Promise<SeedResult> {
  const seed = options.registry ? buildSeed(options.registry) : SEED;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    await tx.insert(t.tenant).values(PLATFORM_TENANT).onConflictDoNothing();
    await tx
      .insert(t.oauthClient)
      .values(SEED_CLIENTS.map(({ secret, ...c }) => ({ ...c, clientSecret: hashClientSecret(secret) })))
      .onConflictDoNothing();
    await tx.insert(t.role).values(SEED_ROLES).onConflictDoNothing();
    await tx.insert(t.dept).values(SEED_DEPTS).onConflictDoNothing();
    // Posts have no unique code: one an administrator already made is kept instead of doubled.
    const postCodes = SEED_POSTS.map((p) => p.postCode);
    const madeAlready = await tx
      .select({ code: t.post.postCode })
      .from(t.post)
      .where(tenantRows(t.post, DEFAULT_TENANT_ID, inArray(t.post.postCode, postCodes)));
    const made = new Set(madeAlready.map((r) => r.code));
    const posts = SEED_POSTS.filter((p) => !made.has(p.postCode));
    if (posts.length) await tx.insert(t.post).values(posts).onConflictDoNothing();
    await tx
      .insert(t.param)
      .values(SEED_PARAMS.map((p) => ({ ...p, paramValue: p.paramValue ?? randomBytes(9).toString('base64url') })))
      .onConflictDoNothing();
    if (seed.dicts.length)
      await tx
        .insert(t.dict)
        .values([...seed.dicts])
        .onConflictDoNothing();
    await grantToTenantAdministrators(tx, seed, await syncMenus(tx, seed));
    await ensureBuiltInReportsForAll(tx);
    // Tenants made before the shipped processes' groups were seeded with them get them now.
    await ensureProcessGroupRolesForAll(tx);

    const existing = await tx.select({ id: t.user.id }).from(t.user).where(eq(t.user.id, ADMIN_USER.id));
    if (existing.length) return { generatedAdminPassword: undefined, createdAdmin: false };
    const generated = adminPassword ? undefined : randomBytes(12).toString('base64url');
    const plain = adminPassword ?? (generated as string);
    await tx.insert(t.user).values({
      ...ADMIN_USER,
      tenantId: DEFAULT_TENANT_ID,
      password: await hashPassword(md5Hex(plain)),
      createDept: DEPT_IDS.company,
    });
    // A fresh install only: demo products and devices for the simulator (docs/simulator.md), and
    // the platform administrator's one-time offer of the demo tenant (docs/demo.md).
    await seedDemoDevices(tx);
    await tx
      .insert(t.param)
      .values({
        id: paramSeedId(DEMO_OFFER_PARAM),
        paramName: '首次启动演示租户(服务器维护)',
        paramKey: DEMO_OFFER_PARAM,
        paramValue: JSON.stringify({ state: 'offered' }),
      })
      .onConflictDoNothing();
    return { generatedAdminPassword: generated, createdAdmin: true };
  });
}
