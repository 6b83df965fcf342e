import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';

const browser = useBrowser();

/** In-app navigation (no reload), as a menu click does it. */
async function goInApp(page: Page, to: string): Promise<void> {
  await page.evaluate((url) => {
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await page.locator(`[data-screen="${to.split('?')[0]}"]`).waitFor({ state: 'attached' });
}

/** Screens load lazily and logs are written in batches (about a second): give assertions time. */
const drawer = (page: Page) => page.locator('.mes-log-detail .ant-drawer-content');

/** Waits for the drawer's slide-in to finish, so a screenshot shows it in place. */
const drawerSettled = (page: Page) =>
  page
    .locator('.mes-log-detail .ant-drawer-content-wrapper')
    .evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));

/** Types the search bar's created-time range (antd RangePicker: type each end, then 确定). */
async function searchTimeRange(page: Page, screenPath: string, from: string, to: string) {
  const inputs = page.locator(`[data-screen="${screenPath}"] .ant-picker-range input`);
  const ok = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-ok button');
  await inputs.first().click();
  // The calendar speaks the console's language (dayjs's locale follows i18next).
  const calendar = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-panel').first();
  await expect
    .poll(() => calendar.locator('thead th').allTextContents())
    .toEqual(['一', '二', '三', '四', '五', '六', '日']);
  await inputs.first().press('ControlOrMeta+a');
  await inputs.first().pressSequentially(from);
  await ok.first().click();
  // 确定 on the start moves the picker to the end.
  await inputs.nth(1).press('ControlOrMeta+a');
  await inputs.nth(1).pressSequentially(to);
  await ok.first().click();
}

describe('log screens', () => {
  it('shows each log, searches by time range and URI, and opens a detail drawer', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    // Traces in each log: a change (operation log), an event (usual log), an uploaded error.
    const saved = await callApi<string>(page, '/api/blade-system/post/submit', {
      category: 1,
      postCode: 'e2elog',
      postName: 'E2E日志岗',
    });
    expect(saved.success).toBe(true);
    await callApi(page, `/api/blade-system/post/submit`, {
      id: saved.data,
      category: 1,
      postCode: 'e2elog',
      postName: 'E2E日志岗改',
    });
    const info = await callApi<{ userId: string }>(page, '/api/blade-auth/oauth/user-info');
    await callApi(page, `/api/blade-user/unlock?userIds=${info.data.userId}`, {});
    await callApi(page, '/api/blade-log/error/upload', [
      { type: 'error', message: 'e2e client error', stack: 'Error: e2e\n    at x (app.js:1:2)', url: '/wel/index' },
    ]);
    const year = new Date().getFullYear();

    // API log: time range + URI, then the detail with the masked, laid-out parameters.
    await goInApp(page, '/monitor/log/api');
    const api = page.locator('[data-screen="/monitor/log/api"]');
    const apiRows = api.locator('.ant-table-row');
    await poll(() => apiRows.count()).toBeGreaterThan(0);
    await searchTimeRange(page, '/monitor/log/api', `${year - 1}-01-01 00:00:00`, `${year + 1}-12-31 23:59:59`);
    await api.locator('#crud-search_requestUri').fill('post/submit');
    await api.getByTestId('crud-search-submit').click();
    await poll(() => new URL(page.url()).searchParams.get('requestUri')).toBe('post/submit');
    expect(new URL(page.url()).searchParams.get('createTime_dategt')).toBe(`${year - 1}-01-01 00:00:00`);
    // Other specs submit posts on the same server: ours are the newest two. The address changes
    // before the filtered page arrives, so wait for the rows themselves to be the filtered ones.
    const onlySubmits = async () => {
      const texts = await apiRows.allInnerTexts();
      return texts.length >= 2 && texts.every((t) => t.includes('/api/blade-system/post/submit'));
    };
    await poll(onlySubmits).toBe(true);
    await screenshot(page, 'logs-api-list');
    await apiRows.first().getByTestId('crud-row-view').click();
    await poll(() => drawer(page).innerText()).toContain('e2elog');
    await expect(
      drawer(page)
        .getByTestId('log-field-params')
        .evaluate((e) => getComputedStyle(e).fontFamily),
    ).resolves.toMatch(/mono|Consolas|Menlo/i);
    await drawerSettled(page);
    await screenshot(page, 'logs-api-detail');
    await drawer(page).locator('.ant-drawer-close').click();

    // A time range with no rows empties the list.
    await searchTimeRange(page, '/monitor/log/api', '2000-01-01 00:00:00', '2000-01-02 00:00:00');
    await api.getByTestId('crud-search-submit').click();
    await poll(() => apiRows.count()).toBe(0);

    // Usual log: the unlock event.
    await goInApp(page, '/monitor/log/usual');
    const usual = page.locator('[data-screen="/monitor/log/usual"]');
    await poll(() => usual.locator('.ant-table-row').first().innerText()).toContain('user.unlock');
    await usual.locator('.ant-table-row').first().getByTestId('crud-row-view').click();
    await poll(() => drawer(page).innerText()).toContain('解封账号');
    await drawerSettled(page);
    await screenshot(page, 'logs-usual-detail');
    await drawer(page).locator('.ant-drawer-close').click();

    // Error log: the uploaded error, its stack in a scrolling block.
    await goInApp(page, '/monitor/log/error');
    const errors = page.locator('[data-screen="/monitor/log/error"]');
    await poll(() => errors.locator('.ant-table-row').first().innerText()).toContain('e2e client error');
    await errors.locator('.ant-table-row').first().getByTestId('crud-row-view').click();
    await poll(() => drawer(page).getByTestId('log-field-stackTrace').innerText()).toContain('at x (app.js:1:2)');
    await drawerSettled(page);
    await screenshot(page, 'logs-error-detail');
    await drawer(page).locator('.ant-drawer-close').click();

    // Login log: the screen answers (the sign-in call is recorded once auth-routes wires it).
    await goInApp(page, '/monitor/log/login');
    await page.locator('[data-screen="/monitor/log/login"] .ant-table').waitFor();
    await screenshot(page, 'logs-login-list');

    // Operation log: the update's change table, before → after.
    await goInApp(page, '/report/operlog');
    const oper = page.locator('[data-screen="/report/operlog"]');
    await oper.locator('#crud-search_resourceCode').fill('post');
    // The filtered page must have arrived before its rows are read (the old rows show meanwhile).
    const filtered = page.waitForResponse((r) => r.url().includes('resourceCode=post') && r.ok());
    await oper.getByTestId('crud-search-submit').click();
    await filtered;
    await poll(() => oper.locator('.ant-table-row').count()).toBeGreaterThanOrEqual(2);
    await oper.locator('.ant-table-row').first().getByTestId('crud-row-view').click();
    const changes = drawer(page).getByTestId('log-changes');
    await poll(() => changes.innerText()).toContain('E2E日志岗改');
    expect(await changes.innerText()).toContain('岗位名称');
    await drawerSettled(page);
    await screenshot(page, 'logs-operlog-detail');

    // No screen offers add, edit or delete.
    for (const path of ['/monitor/log/api', '/report/operlog']) {
      await goInApp(page, path);
      const screen = page.locator(`[data-screen="${path}"]`);
      expect(await screen.getByTestId('crud-add').count()).toBe(0);
      expect(await screen.getByTestId('crud-delete').count()).toBe(0);
      expect(await screen.getByTestId('crud-row-edit').count()).toBe(0);
    }
    // The browser specs share one database: leave the posts as they were for the others.
    expect((await callApi(page, `/api/blade-system/post/remove?ids=${saved.data}`, {})).success).toBe(true);
    await context.close();
  });

  it('shows today’s sign-ins and the last 7 days on the welcome page', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const card = page.getByTestId('wel-login-counts');
    await card.waitFor();
    await poll(() => page.getByTestId('wel-login-days').locator('li').count()).toBe(7);
    await screenshot(page, 'logs-welcome');
    await context.close();
  });
});
