import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, signIn, useBrowser } from '../support/browser';

const browser = useBrowser();

const LOCK_PASSWORD = 'lock-e2e-1';

async function lockWith(page: Page, password: string): Promise<void> {
  await page.getByTestId('lock-button').click();
  await page.getByTestId('lock-password').fill(password);
  await page.getByTestId('lock-submit').click();
  await page.waitForURL('**/lock');
  await page.getByTestId('lock-page').waitFor();
}

const confirmOk = (page: Page) => page.locator('.ant-modal-confirm .ant-modal-confirm-btns .ant-btn-primary').click();
const badgeCount = (page: Page) => page.getByTestId('error-log-button').getAttribute('data-count');

describe('lock screen', () => {
  it('needs a lock password, locks, stays locked across navigation and reload, unlocks only with it', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);

    await page.getByTestId('lock-button').click();
    await page.getByTestId('lock-submit').click();
    await page.getByText('锁屏密码不能为空').waitFor();
    expect(page.url()).toMatch(/\/wel\/index$/);

    await page.getByTestId('lock-password').fill(LOCK_PASSWORD);
    await page.getByTestId('lock-submit').click();
    await page.waitForURL('**/lock');
    await page.getByTestId('lock-page').waitFor();
    const nickName = await page.evaluate(
      () => JSON.parse(localStorage.getItem('mes-userInfo') ?? '{}').content?.nick_name as string,
    );
    expect(nickName).toBeTruthy();
    expect(await page.getByTestId('lock-user').textContent()).toBe(nickName);
    await screenshot(page, 'lock');

    await page.goto('/wel/index');
    await page.waitForURL('**/lock');
    await page.reload();
    await page.getByTestId('lock-page').waitFor();
    expect(page.url()).toMatch(/\/lock$/);

    await page.getByTestId('unlock-password').fill('not-the-password');
    await page.getByTestId('unlock-submit').click();
    await page.getByText('锁屏密码错误,请重新输入').waitFor();
    expect(page.url()).toMatch(/\/lock$/);

    await page.getByTestId('unlock-password').fill(LOCK_PASSWORD);
    await page.getByTestId('unlock-password').press('Enter');
    await page.waitForURL('**/wel/index');
    await page.getByTestId('welcome').waitFor();
    // Unlocked for good: the lock left session storage with the password.
    await page.reload();
    await page.getByTestId('welcome').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('mes-lockPasswd'))).toBeNull();
    await context.close();
  });

  it('unlocking returns to the screen that was open', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.goto('/system/param');
    await page.locator('[data-screen="/system/param"]').waitFor();
    await lockWith(page, LOCK_PASSWORD);
    // A reload on the lock screen keeps the way back.
    await page.reload();
    await page.getByTestId('lock-page').waitFor();
    await page.getByTestId('unlock-password').fill(LOCK_PASSWORD);
    await page.getByTestId('unlock-password').press('Enter');
    await page.waitForURL('**/system/param');
    await page.locator('[data-screen="/system/param"]').waitFor();
    await context.close();
  });

  it('signs out from the lock page, and the next sign-in is not locked', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await lockWith(page, LOCK_PASSWORD);
    await page.getByTestId('lock-logout').click();
    await confirmOk(page);
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('mes-token'))).toBeNull();
    await signIn(page);
    expect(page.url()).toMatch(/\/wel\/index$/);
    await context.close();
  });

  it('in English the empty-password message is translated', async () => {
    const { context, page } = await newPage(browser());
    await page.addInitScript(() =>
      localStorage.setItem('mes-language', JSON.stringify({ dataType: 'string', content: 'en', datetime: Date.now() })),
    );
    await signIn(page);
    await page.getByTestId('lock-button').click();
    await page.getByTestId('lock-submit').click();
    await page.getByText('The lock password cannot be empty').waitFor();
    await context.close();
  });
});

describe('local error log', () => {
  it('counts uncaught errors and rejections, lists them full screen, uploads and clears', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    expect(await badgeCount(page)).toBe('0');

    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('boom-e2e');
      });
    });
    await page.evaluate(() => {
      void Promise.reject(new Error('rejected-e2e'));
    });
    await expect.poll(() => badgeCount(page)).toBe('2');
    const visibleBadge = page.getByTestId('error-log-button').locator('.ant-badge-count');
    expect(await visibleBadge.getAttribute('title')).toBe('2');

    // Kept in local storage: a reload keeps the count.
    await page.reload();
    await page.getByTestId('welcome').waitFor();
    expect(await badgeCount(page)).toBe('2');

    await page.getByTestId('error-log-button').click();
    const table = page.getByTestId('error-log-table');
    await table.getByRole('cell', { name: 'boom-e2e', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'rejected-e2e', exact: true }).waitFor();
    expect(await table.getByText('unhandledrejection').count()).toBe(0); // the stack is shown instead
    // Full screen once the opening animation is over.
    const dialog = page.locator('.mes-error-log-modal .ant-modal-content');
    await expect.poll(async () => (await dialog.boundingBox())?.width).toBe(1440);
    await expect.poll(async () => (await dialog.boundingBox())?.height).toBeGreaterThanOrEqual(900);
    expect(
      await table
        .locator('td')
        .filter({ hasText: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/ })
        .count(),
    ).toBe(2);
    await screenshot(page, 'error-log');

    const uploaded = page.waitForResponse((r) => r.url().includes('/api/blade-log/error/upload'));
    await page.getByTestId('error-log-upload').click();
    await page.getByText('确定上传本地日志到服务器?').waitFor();
    await confirmOk(page);
    const response = await uploaded;
    expect(response.status()).toBe(200);
    expect(JSON.parse(response.request().postData() ?? '[]')).toHaveLength(2);
    await page.getByText('发送成功!').waitFor();
    await expect.poll(() => badgeCount(page)).toBe('0');
    await expect.poll(() => visibleBadge.count()).toBe(0);
    await table.getByText('暂无错误日志').waitFor();

    await page.evaluate(() => {
      void Promise.reject(new Error('to-be-cleared'));
    });
    await expect.poll(() => badgeCount(page)).toBe('1');
    await table.getByRole('cell', { name: 'to-be-cleared', exact: true }).waitFor();
    await page.getByTestId('error-log-clear').click();
    await page.getByText('确定清空本地日志记录?').waitFor();
    await confirmOk(page);
    await page.getByText('清空成功!').waitFor();
    await expect.poll(() => badgeCount(page)).toBe('0');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('mes-logs') ?? '{}').content)).toEqual([]);
    await context.close();
  });
});
