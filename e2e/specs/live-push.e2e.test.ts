import { createHash } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WarningLiveEvent } from '@mes/contracts';
import { notifyLive } from '../../apps/server/src/platform/live/notify-live';
import { callApi, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { bellFollowsServer, unreadOnServer } from '../support/bell';
import { serverDatabase } from '../support/database';

const browser = useBrowser();

let db: pg.Client;

beforeAll(async () => {
  db = await serverDatabase();
});
afterAll(async () => {
  await db.end();
});

/**
 * Stores an active, unhandled warning and publishes its event in the same transaction, as the
 * alarm engine does (docs/live.md): the browser hears of it once it is committed. A variant driven
 * by the device simulator through the alarm rules can follow once the alarm engine is in.
 */
async function raiseWarning(message: string): Promise<WarningLiveEvent> {
  const id = `9${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(0, 19);
  const event: WarningLiveEvent = {
    type: 'warning',
    action: 'raised',
    tenantId: '000000',
    deptId: null,
    warningId: id,
    warningNo: `E2E${id.slice(-10)}`,
    deviceCode: 'e2e-live',
    level: 1,
    status: 1,
    message,
    at: new Date().toISOString(),
  };
  await db.query('begin');
  try {
    await db.query(
      `insert into mes_warning (id, tenant_id, warning_no, device_code, level, status, message, start_time, last_time)
       values ($1, '000000', $2, $3, 1, 1, $4, now(), now())`,
      [id, event.warningNo, event.deviceCode, message],
    );
    await notifyLive(db, [event]);
    // What every writer of warnings outside the resource routes does: list totals are cached until
    // `rows:warning:<tenant>` is announced on the change feed (engine/page-totals.ts).
    await db.query(`select pg_notify('mes_data_changed', 'rows:warning:000000')`);
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
  return event;
}

describe('live push', () => {
  it('shows a new warning in the header popover and its badge without a reload, and opens it', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const bell = page.getByTestId('notice');
    await poll(() => bell.getAttribute('data-live')).toBe('open');
    // Gone after any reload or navigation of the document.
    await page.evaluate(() => ((window as unknown as { __live: boolean }).__live = true));

    await bell.click();
    const tabs = page.getByTestId('notice-tabs');
    await tabs.getByRole('tab', { name: /告警/ }).click();
    // Once its lists loaded, the bell says what the server has.
    const before = (await unreadOnServer(page)).unread;
    await poll(async () => Number(await bell.getAttribute('data-unread'))).toBe(before);

    const message = `e2e 温度过高 ${Date.now()}`;
    const event = await raiseWarning(message);
    await poll(() => page.getByTestId('warning-list').textContent()).toContain(message);
    // The badge and the tab follow the server without a reload (other specs' leftovers count too).
    await bellFollowsServer(page);
    expect(await page.evaluate(() => (window as unknown as { __live?: boolean }).__live)).toBe(true);
    await screenshot(page, 'live-push-warning');

    await page.getByTestId('warning-item').filter({ hasText: message }).click();
    await page.waitForURL(`**/report/warning/${event.warningId}`);
    await context.close();
  });

  it('hides the warnings tab from a user whose roles do not reach the warnings, in English too', async () => {
    const admin = await newPage(browser());
    const user = await newPage(browser());
    const stamp = Date.now().toString(36);
    try {
      await signIn(admin.page);
      const info = await callApi<{ deptId: string }>(admin.page, '/api/blade-auth/oauth/user-info');
      // A role with no menus and no API scopes: it may sign in and read its notices only.
      const role = await callApi<string>(admin.page, '/api/blade-system/role/submit', {
        roleName: `只读${stamp}`,
        roleAlias: `live_${stamp}`,
        sort: 99,
      });
      expect(role.success, role.msg).toBe(true);
      const roles = await callApi<{ id: string; roleAlias: string }[]>(admin.page, '/api/blade-system/role/list');
      const roleId = roles.data.find((r) => r.roleAlias === `live_${stamp}`)?.id;
      expect(roleId).toBeTruthy();
      const account = `lv${stamp}`.slice(0, 12);
      const md5 = (text: string) => createHash('md5').update(text).digest('hex');
      const created = await callApi<string>(admin.page, '/api/blade-user/submit', {
        account,
        password: md5('Live#1234'),
        name: account,
        realName: account,
        userType: 1,
        roleId,
        deptId: info.data.deptId.split(',')[0],
      });
      expect(created.success, created.msg).toBe(true);

      await user.page.goto('/login');
      await user.page.getByTestId('login-username').fill(account);
      await user.page.getByTestId('login-password').fill('Live#1234');
      await user.page.getByTestId('login-submit').click();
      await user.page.waitForURL('**/wel/index');
      const bell = user.page.getByTestId('notice');
      await poll(() => bell.getAttribute('data-live')).toBe('open');
      await bell.click();
      const tabs = user.page.getByTestId('notice-tabs');
      await poll(() => tabs.getByRole('tab').allTextContents()).toEqual(['通知']);
      await bell.click();
      await poll(() => tabs.isVisible()).toBe(false);
      await user.page.getByTestId('language').hover();
      await user.page.getByRole('menuitem', { name: 'English' }).click();
      await bell.click();
      await poll(() => tabs.getByRole('tab').allTextContents()).toEqual(['Notices']);
      await poll(() => user.page.getByTestId('notice-list-empty').textContent()).toContain('No notices');
    } finally {
      await user.context.close();
      await admin.context.close();
    }
  });
});
