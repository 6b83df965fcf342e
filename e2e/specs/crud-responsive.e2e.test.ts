import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp, presetSetting } from '../support/shell';

const browser = useBrowser();

/** Screens load lazily and call the API: give assertions on them time. */

const screenOf = (page: Page, path: string) => page.locator(`[data-screen="${path}"]`);
const tab = (page: Page, label: string) => page.locator('[data-testid="tab-bar"] .ant-tabs-tab', { hasText: label });

async function openScreen(page: Page, path: string): Promise<void> {
  await goInApp(page, path);
  await page.waitForURL(`**${path}`);
  await screenOf(page, path).locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ timeout: 15_000 });
}

const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not shown`);
  return found;
};

describe('the generic list screen on a phone (375 px, screen class 0)', () => {
  it('stacks the department tree above a usable table and folds the toolbar into 更多', async () => {
    const { context, page } = await newPage(browser(), { width: 375, height: 812 });
    await signIn(page);
    await openScreen(page, '/system/user');
    const screen = screenOf(page, '/system/user');

    const tree = await box(page, '[data-screen="/system/user"] [data-testid="user-dept-tree"]');
    const table = await box(page, '[data-screen="/system/user"] [data-testid="crud-table"]');
    expect(tree.y + tree.height).toBeLessThanOrEqual(table.y);
    expect(table.width).toBeGreaterThanOrEqual(300);

    // Wide tables scroll sideways inside their card; the page itself never does.
    const overflow = await page.evaluate(() => {
      const screen = document.querySelector('[data-screen="/system/user"]') as HTMLElement;
      const content = screen.querySelector('.ant-table-content, .ant-table-body') as HTMLElement;
      return {
        page: document.documentElement.scrollWidth - window.innerWidth,
        screen: screen.scrollWidth - screen.clientWidth,
        table: content.scrollWidth - content.clientWidth,
      };
    });
    expect(overflow.page).toBeLessThanOrEqual(1);
    expect(overflow.screen).toBeLessThanOrEqual(1);
    expect(overflow.table).toBeGreaterThan(0);

    // The primary button stays; the others wait in the 更多 menu.
    await screen.getByTestId('crud-add').waitFor();
    expect(await screen.getByTestId('user-role').isVisible()).toBe(false);
    await screenshot(page, 'crud-user-zh-375');
    await screen.getByTestId('crud-more').click();
    const menu = screen.getByTestId('crud-more-menu');
    await menu.waitFor();
    // The menu opens with an animation: wait for each entry to show rather than sample it once.
    for (const id of ['crud-delete', 'crud-export', 'user-role', 'user-reset']) {
      await menu.getByTestId(id).waitFor({ state: 'visible', timeout: 5_000 });
    }
    await screenshot(page, 'crud-user-zh-375-more');

    // A button in the menu does its job and closes the menu.
    await menu.getByTestId('user-role').click();
    await page.locator('.ant-message-notice', { hasText: '请选择至少一条数据' }).first().waitFor();
    await menu.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('keeps the 1440 px layout: tree beside the table, every button in the toolbar', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openScreen(page, '/system/user');
    const screen = screenOf(page, '/system/user');
    const tree = await box(page, '[data-screen="/system/user"] [data-testid="user-dept-tree"]');
    const table = await box(page, '[data-screen="/system/user"] [data-testid="crud-table"]');
    expect(tree.x + tree.width).toBeLessThanOrEqual(table.x);
    expect(await screen.getByTestId('crud-more').count()).toBe(0);
    expect(await screen.getByTestId('user-role').isVisible()).toBe(true);
    await screenshot(page, 'crud-user-zh-1440');
    await context.close();
  });

  it('reads in English at both sizes', async () => {
    for (const viewport of [
      { width: 375, height: 812 },
      { width: 1440, height: 900 },
    ]) {
      const { context, page } = await newPage(browser(), viewport);
      await presetSetting(page, 'language', 'en');
      await signIn(page);
      await openScreen(page, '/system/user');
      const screen = screenOf(page, '/system/user');
      if (viewport.width < 768) await poll(() => screen.getByTestId('crud-more').textContent()).toContain('More');
      await screenshot(page, `crud-user-en-${viewport.width}`);
      await context.close();
    }
  });
});

describe('keep-alive keeps what was typed', () => {
  it('search text typed but not searched survives switching tabs on 用户管理 and 参数管理', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openScreen(page, '/system/user');
    const account = screenOf(page, '/system/user').locator('#crud-search_account');
    await account.fill('typed-account');

    await openScreen(page, '/system/param');
    const paramName = screenOf(page, '/system/param').locator('#crud-search_paramName');
    await paramName.fill('typed-param');

    await tab(page, '用户管理').click();
    await page.waitForURL('**/system/user');
    await poll(() => account.isVisible()).toBe(true);
    expect(await account.inputValue()).toBe('typed-account');

    await tab(page, '参数管理').click();
    await page.waitForURL('**/system/param');
    await poll(() => paramName.isVisible()).toBe(true);
    expect(await paramName.inputValue()).toBe('typed-param');

    // A tab switch reloads nothing: the ticked rows stay ticked too.
    const screen = screenOf(page, '/system/param');
    await screen.getByRole('checkbox', { name: '选择此行' }).first().check();
    await tab(page, '用户管理').click();
    await page.waitForURL('**/system/user');
    await tab(page, '参数管理').click();
    await page.waitForURL('**/system/param');
    await poll(() => screen.isVisible()).toBe(true);
    expect(await screen.getByRole('checkbox', { name: '选择此行' }).first().isChecked()).toBe(true);
    await context.close();
  });
});

describe('empty tables', () => {
  it('say that the search matches nothing and clear it with one click', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openScreen(page, '/system/param');
    const screen = screenOf(page, '/system/param');
    const rows = screen.locator('.ant-table-tbody tr.ant-table-row');
    const seeded = await rows.count();

    await screen.locator('#crud-search_paramName').fill('no-such-parameter-anywhere');
    await screen.getByTestId('crud-search-submit').click();
    const empty = screen.getByTestId('crud-empty');
    await empty.waitFor();
    expect(await empty.locator('.ant-empty-description').textContent()).toBe('没有符合搜索条件的数据');
    await screenshot(page, 'crud-empty-filtered-zh-1440');

    await screen.getByTestId('crud-empty-reset').click();
    await poll(() => rows.count()).toBe(seeded);
    expect(await screen.locator('#crud-search_paramName').inputValue()).toBe('');
    await context.close();
  });

  it('without a search they show 暂无数据 / No data in the page language', async () => {
    const { context, page } = await newPage(browser());
    await presetSetting(page, 'language', 'en');
    await signIn(page);
    // No region is seeded: the table is empty with no filter in force.
    await goInApp(page, '/system/region');
    await page.waitForURL('**/system/region');
    const empty = screenOf(page, '/system/region').getByTestId('crud-empty');
    await empty.waitFor({ timeout: 15_000 });
    await poll(() => empty.locator('.ant-empty-description').textContent()).toBe('No data');
    expect(await screenOf(page, '/system/region').getByTestId('crud-empty-reset').count()).toBe(0);
    await context.close();
  });
});
