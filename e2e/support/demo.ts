import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { DemoSeedReply, DemoTenantStatus } from '@mes/contracts';
import { callApi } from './browser';
import { serverDatabase } from './database';

export const DEMO_STATE = '/api/blade-desk/demo-tenant/state';
const DEMO_SEED = '/api/blade-desk/demo-tenant/seed';

/** The demo tenant's state on this run's server, asked as the signed-in platform administrator. */
export async function demoState(page: Page): Promise<DemoTenantStatus> {
  return (await callApi<DemoTenantStatus>(page, DEMO_STATE)).data;
}

/**
 * The demo tenant of this run's server and its administrator's password, seeded through the
 * first-start card's route when the server still offers it. Specs share a server, so another spec
 * may have seeded it already: its password was shown to that spec only, so the demo
 * administrator is given the platform administrator's password hash here, in the server's own
 * database.
 */
export async function demoTenant(page: Page): Promise<{ tenantId: string; password: string }> {
  let state = await demoState(page);
  let password = '';
  if (state.state === 'offered' || state.state === 'failed') {
    const seeded = await callApi<DemoSeedReply>(page, DEMO_SEED, { confirm: true });
    expect(seeded.success, seeded.msg).toBe(true);
    password = seeded.data.password ?? '';
  }
  const until = Date.now() + 300_000;
  while (state.state !== 'done' && Date.now() < until) {
    await page.waitForTimeout(2_000);
    state = await demoState(page);
  }
  expect(state.state, JSON.stringify(state)).toBe('done');
  const tenantId = state.tenantId ?? '';
  if (password) return { tenantId, password };
  const db = await serverDatabase();
  try {
    await db.query(
      `update blade_user set password = (select password from blade_user where tenant_id = '000000' and account = 'admin' and is_deleted = 0)
        where tenant_id = $1 and account = 'admin' and is_deleted = 0`,
      [tenantId],
    );
  } finally {
    await db.end();
  }
  return { tenantId, password: inject('adminPassword') };
}
