import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { DEFAULT_TENANT_ID } from '@mes/contracts';
import { hashClientSecret, hashPassword, md5Hex } from '../platform/auth/passwords';
import type { Db } from '../platform/db/database';
import * as t from '../platform/db/schema';
import {
  ADMIN_USER,
  DEPT_IDS,
  PLATFORM_TENANT,
  ROLE_IDS,
  SEED_CLIENTS,
  SEED_DEPTS,
  SEED_DICTS,
  SEED_API_SCOPES,
  SEED_MENUS,
  SEED_PARAMS,
  SEED_POSTS,
  SEED_ROLES,
} from './seed-data';

export interface SeedResult {
  /** The admin account's password when this run created the account and generated it. */
  generatedAdminPassword: string | undefined;
  createdAdmin: boolean;
}

/**
 * Inserts the seed rows that are missing; rows that exist are never changed, so running it on
 * every start is safe and keeps what administrators edited.
 */
export async function seedDatabase(db: Db, adminPassword: string | undefined): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    await tx.insert(t.tenant).values(PLATFORM_TENANT).onConflictDoNothing();
    await tx
      .insert(t.oauthClient)
      .values(SEED_CLIENTS.map(({ secret, ...c }) => ({ ...c, clientSecret: hashClientSecret(secret) })))
      .onConflictDoNothing();
    await tx.insert(t.role).values(SEED_ROLES).onConflictDoNothing();
    await tx.insert(t.dept).values(SEED_DEPTS).onConflictDoNothing();
    await tx.insert(t.post).values(SEED_POSTS).onConflictDoNothing();
    await tx
      .insert(t.param)
      .values(SEED_PARAMS.map((p) => ({ ...p, paramValue: p.paramValue ?? randomBytes(9).toString('base64url') })))
      .onConflictDoNothing();
    await tx.insert(t.dict).values(SEED_DICTS).onConflictDoNothing();
    if (SEED_MENUS.length) {
      await tx
        .insert(t.menu)
        .values([...SEED_MENUS])
        .onConflictDoNothing();
      // The administrator role is granted every seeded menu.
      await tx
        .insert(t.roleMenu)
        .values(SEED_MENUS.map((m) => ({ id: m.id, menuId: m.id, roleId: ROLE_IDS.administrator })))
        .onConflictDoNothing();
    }
    if (SEED_API_SCOPES.length)
      await tx
        .insert(t.apiScope)
        .values([...SEED_API_SCOPES])
        .onConflictDoNothing();

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
    return { generatedAdminPassword: generated, createdAdmin: true };
  });
}
