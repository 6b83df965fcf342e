import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, signIn, useBrowser } from '../support/browser';

const browser = useBrowser();

/** In-app navigation (no reload), as a menu click does it. */
async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL(`**${path}`);
  const pathname = path.split('?')[0] ?? path;
  if (!path.includes('target=')) await page.locator(`[data-screen="${pathname}"]`).waitFor({ state: 'attached' });
}

/** Right-clicks a tab and picks an entry of the context menu that opens (not an older, hidden one). */
async function contextMenu(page: Page, tabLabel: string, item: string): Promise<void> {
  await tab(page, tabLabel).click({ button: 'right' });
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: item }).click();
}

const tabLabels = (page: Page) => page.locator('[data-testid="tab-bar"] .ant-tabs-tab').allInnerTexts();
const tab = (page: Page, label: string) => page.locator('[data-testid="tab-bar"] .ant-tabs-tab', { hasText: label });

describe('tab bar', () => {
  // Fixed routes inside the shell (the wall screen /wel/dashboard stands outside it, no tab).
  it('each visited screen becomes a tab; close others keeps current and home; close all keeps home', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await goInApp(page, '/test/index');
    await goInApp(page, '/info/index');
    await expect.poll(() => tabLabels(page)).toEqual(['首页', '测试页', '个人信息']);
    // Home cannot be closed.
    expect(await tab(page, '首页').locator('.ant-tabs-tab-remove').count()).toBe(0);

    await tab(page, '测试页').click();
    await page.waitForURL('**/test/index');
    await contextMenu(page, '测试页', '关闭其他');
    await expect.poll(() => tabLabels(page)).toEqual(['首页', '测试页']);

    await goInApp(page, '/info/index');
    await contextMenu(page, '个人信息', '关闭全部');
    await expect.poll(() => tabLabels(page)).toEqual(['首页']);
    await page.waitForURL('**/wel/index');
    await context.close();
  });

  it('closing the active tab opens the previous one', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await goInApp(page, '/test/index');
    await goInApp(page, '/info/index');
    await tab(page, '个人信息').locator('.ant-tabs-tab-remove').click();
    await page.waitForURL('**/test/index');
    await expect.poll(() => tabLabels(page)).toEqual(['首页', '测试页']);
    await context.close();
  });

  it('an open tab keeps typed input when you switch away and back; closing drops it', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await goInApp(page, '/info/index');
    const input = page
      .locator('[data-screen="/info/index"] input[type="text"], [data-screen="/info/index"] input:not([type])')
      .first();
    await input.waitFor();
    // Typing before the profile has loaded would be overwritten by it: wait for the stored name.
    await expect.poll(() => input.inputValue()).not.toBe('');
    const storedName = await input.inputValue();
    await input.fill('kept across tabs');
    await tab(page, '首页').click();
    await page.waitForURL('**/wel/index');
    await expect.poll(() => page.locator('[data-screen="/info/index"]').isVisible()).toBe(false);
    await tab(page, '个人信息').click();
    await page.waitForURL('**/info/index');
    await expect.poll(() => input.inputValue()).toBe('kept across tabs');

    await tab(page, '个人信息').locator('.ant-tabs-tab-remove').click();
    await page.waitForURL('**/wel/index');
    // As a person would: the closed screen is gone before the menu opens it again.
    await page.locator('[data-screen="/info/index"]').waitFor({ state: 'detached' });
    await goInApp(page, '/info/index');
    const fresh = page
      .locator('[data-screen="/info/index"] input[type="text"], [data-screen="/info/index"] input:not([type])')
      .first();
    await fresh.waitFor();
    // The reopened screen is a new one: it shows the stored name again, not what was typed.
    await expect.poll(() => fresh.inputValue()).toBe(storedName);
    await context.close();
  });

  it('clear cache asks first, calls the server and says 清除完毕', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const cleared = page.waitForResponse((r) => r.url().includes('/oauth/clear-cache') && r.status() === 200);
    await contextMenu(page, '首页', '清除缓存');
    await page.getByText('是否需要清除缓存?').waitFor();
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();
    await cleared;
    await page.getByText('清除完毕').waitFor();
    await context.close();
  });

  it('a target query opens the page in a new window', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const popup = context.waitForEvent('page');
    await goInApp(page, '/wel/dashboard?target=1');
    const opened = await popup;
    await opened.waitForURL('**/wel/dashboard');
    expect(opened.url()).not.toContain('target');
    await context.close();
  });
});

describe('responsive layout', () => {
  it('on a 375-px phone the sidebar gives way to a drawer and nothing overflows sideways', async () => {
    const { context, page } = await newPage(browser(), { width: 375, height: 740 });
    await signIn(page);
    expect(await page.getByTestId('main-layout').getAttribute('data-screen-size')).toBe('0');
    // The menu lives in a drawer opened by ☰ (shell-layout.e2e.test.ts), not in a sidebar.
    expect(await page.locator('.ant-layout-sider').count()).toBe(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await screenshot(page, 'phone-home');
    await context.close();
  });

  it('on a 1920-px desktop the sidebar is open and the size class is 3', async () => {
    const { context, page } = await newPage(browser(), { width: 1920, height: 1080 });
    await signIn(page);
    expect(await page.getByTestId('main-layout').getAttribute('data-screen-size')).toBe('3');
    const siderWidth = await page.locator('.mes-sider').evaluate((el) => el.getBoundingClientRect().width);
    expect(siderWidth).toBeGreaterThan(200);
    await context.close();
  });
});
