import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp, presetSetting, storedTabPaths, styleOf, tabLabels } from '../support/shell';

const browser = useBrowser();

const sideMenu = (page: Page) => page.locator('.mes-sider-menu');
const box = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not on the screen`);
  return b;
};

/** Opens every closed group of the side menu. */
async function openAllGroups(page: Page): Promise<void> {
  // The menu arrives from the server after sign-in.
  await page.locator('.mes-sider .ant-menu-submenu-title', { hasText: '系统监控' }).waitFor();
  const groups = page.locator('.mes-sider .ant-menu-root > .ant-menu-submenu');
  const count = await groups.count();
  for (let i = 0; i < count; i += 1) {
    const group = groups.nth(i);
    if ((await group.getAttribute('class'))?.includes('ant-menu-submenu-open')) continue;
    await group.locator('> .ant-menu-submenu-title').click();
    await expect.poll(() => group.getAttribute('class')).toContain('ant-menu-submenu-open');
  }
}

describe('the content scrolls, not the page', () => {
  it('with every group open the side menu scrolls on its own; header and tab bar stay, the window never scrolls', async () => {
    const { context, page } = await newPage(browser(), { width: 1440, height: 700 });
    await signIn(page);
    await openAllGroups(page);
    // Taller than the window: without its own scroll area the menu would push the page down.
    const menu = await sideMenu(page).evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(menu.scroll).toBeGreaterThan(menu.client);

    await page.mouse.move(100, 400);
    await page.mouse.wheel(0, 2000);
    await expect.poll(() => sideMenu(page).evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    const item = page.locator('.mes-sider .ant-menu-item', { hasText: '登录日志' });
    await item.scrollIntoViewIfNeeded();
    await item.click();
    await page.waitForURL('**/monitor/log/login');
    const screen = page.locator('[data-screen="/monitor/log/login"]');
    await screen.locator('.ant-table').waitFor();

    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(700);
    expect((await box(page, '[data-testid="header"]')).y).toBe(0);
    const tabs = await box(page, '[data-testid="tab-bar"]');
    expect(tabs.y).toBeGreaterThan(0);
    expect(tabs.y + tabs.height).toBeLessThan(700);
    // The screen is drawn at the top of the content area, not off in a blank grey band.
    const content = await box(page, '[data-testid="content"]');
    const shown = await screen.boundingBox();
    expect(shown?.y).toBeLessThan(content.y + 40);

    // Scrolling over the content scrolls the content alone.
    await page.mouse.move(800, 500);
    await page.mouse.wheel(0, 1500);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect((await box(page, '[data-testid="header"]')).y).toBe(0);
    await screenshot(page, 'shell-scroll-1440');
    await context.close();
  });
});

describe('phone layout (screen class 0)', () => {
  it('☰ opens the menu as a drawer; choosing a screen, Esc or the mask closes it; no submenu pop-ups', async () => {
    const { context, page } = await newPage(browser(), { width: 375, height: 812 });
    await signIn(page);
    expect(await page.getByTestId('main-layout').getAttribute('data-screen-size')).toBe('0');
    // No sidebar and no stray pop-ups of its groups.
    expect(await page.locator('.ant-layout-sider').count()).toBe(0);
    expect(await page.locator('.ant-menu-submenu-popup:visible').count()).toBe(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await screenshot(page, 'shell-phone-home');

    // The notice bell stays on a phone (new warnings reach its badge), and its popover fits the window.
    const bell = page.getByTestId('notice');
    expect(await bell.isVisible()).toBe(true);
    await bell.click();
    const popover = page.locator('.mes-notice-popover');
    await popover.waitFor();
    const shown = await box(page, '.mes-notice-popover');
    expect(shown.x).toBeGreaterThanOrEqual(0);
    expect(shown.x + shown.width).toBeLessThanOrEqual(375);
    await screenshot(page, 'shell-phone-notice');
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });

    const drawer = page.locator('.mes-menu-drawer .ant-drawer-content');
    await page.getByTestId('collapse-toggle').click();
    await drawer.waitFor();
    expect(await page.getByTestId('collapse-toggle').getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'shell-phone-drawer');
    await drawer.locator('.ant-menu-item', { hasText: '用户管理' }).click();
    await page.waitForURL('**/system/user');
    await drawer.waitFor({ state: 'hidden' });

    await page.getByTestId('collapse-toggle').click();
    await drawer.waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    await page.getByTestId('collapse-toggle').click();
    await drawer.waitFor();
    await page.mouse.click(360, 400); // the mask, right of the 260-px drawer
    await drawer.waitFor({ state: 'hidden' });
    expect(page.url()).toMatch(/\/system\/user$/);
    await context.close();
  });

  it('at class 1 (768–991) the sidebar stays, collapses with ☰ and shows no pop-ups', async () => {
    const { context, page } = await newPage(browser(), { width: 800, height: 900 });
    await signIn(page);
    expect(await page.getByTestId('main-layout').getAttribute('data-screen-size')).toBe('1');
    const sider = page.locator('.mes-sider');
    expect((await sider.boundingBox())?.width).toBe(230);
    await page.getByTestId('collapse-toggle').click();
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(64);
    expect(await page.locator('.ant-menu-submenu-popup:visible').count()).toBe(0);
    await page.getByTestId('collapse-toggle').click();
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(230);
    await context.close();
  });
});

describe('routes', () => {
  it('an unknown address goes to /404 and leaves no tab behind', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.goto('/nowhere');
    await page.waitForURL('**/404');
    expect(await storedTabPaths(page)).not.toContain('/nowhere');

    await page.goto('/wel/index');
    await page.getByTestId('welcome').waitFor();
    await goInApp(page, '/nowhere/else');
    await page.waitForURL('**/404');
    await page.goto('/wel/index');
    await page.getByTestId('welcome').waitFor();
    expect(await tabLabels(page)).toEqual(['首页']);
    expect(await storedTabPaths(page)).toEqual(['/wel/index']);
    await context.close();
  });

  it('/test/index is the test page, with its tab and page title', async () => {
    const { context, page } = await newPage(browser(), { width: 1024, height: 768 });
    await signIn(page);
    await page.goto('/test/index');
    await page.getByTestId('test-page').waitFor();
    expect(await page.getByTestId('test-screen-size').textContent()).toBe('2');
    await expect.poll(() => tabLabels(page)).toEqual(['首页', '测试页']);
    await expect.poll(() => page.title()).toBe('测试页 - MES 制造执行系统');
    await context.close();
  });
});

describe('looks finished', () => {
  it('the collapsed side menu shows each group its own icon', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.getByTestId('collapse-toggle').click();
    await expect.poll(async () => (await page.locator('.mes-sider').boundingBox())?.width).toBe(64);
    const icons = await page
      .locator(
        '.mes-sider .ant-menu-root > li .ant-menu-item-icon, .mes-sider .ant-menu-root > li > .ant-menu-submenu-title > .anticon',
      )
      .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    expect(icons.length).toBeGreaterThanOrEqual(6);
    expect(new Set(icons).size).toBe(icons.length);
    expect(icons).toContain('setting');
    await screenshot(page, 'shell-collapsed-menu');
    await context.close();
  });

  it('the welcome page fills its width and says when its sign-in figures were taken', async () => {
    const { context, page } = await newPage(browser());
    const counted: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/blade-desk/loginLog/count')) counted.push(r.url());
    });
    await signIn(page);
    const card = page.getByTestId('wel-login-counts');
    await card.waitFor();
    // The sign-in just made is counted, once the server's batched log write has landed.
    await expect
      .poll(async () =>
        Number(await card.getByTestId('wel-login-today').locator('.ant-statistic-content-value').innerText()),
      )
      .toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('wel-login-taken').innerText()).toMatch(/^统计于 \d{2}:\d{2}:\d{2}$/);
    const content = await box(page, '[data-testid="content"]');
    const right = await card.boundingBox();
    expect((right?.x ?? 0) + (right?.width ?? 0)).toBeGreaterThan(content.x + content.width - 40);

    const before = counted.length;
    await page.getByTestId('wel-login-refresh').click();
    await expect.poll(() => counted.length).toBeGreaterThan(before);
    await screenshot(page, 'shell-welcome-1440');
    await context.close();
  });

  it('the dark theme darkens the content too; themes with a hue of their own recolour primary buttons', async () => {
    const { context, page } = await newPage(browser());
    await presetSetting(page, 'themeName', 'theme-dark');
    await signIn(page);
    expect(await styleOf(page, '.mes-main', 'background-color')).toBe('rgb(0, 0, 0)');
    expect(await styleOf(page, '[data-testid="wel-account"]', 'background-color')).toBe('rgb(20, 20, 20)');
    await screenshot(page, 'shell-theme-dark');
    await context.close();

    const looks: Record<string, string> = {};
    for (const theme of ['theme-vip', 'theme-hey', 'theme-cool']) {
      const { context: c, page: p } = await newPage(browser());
      await presetSetting(p, 'themeName', theme);
      await signIn(p);
      await p.getByTestId('theme-picker').click();
      looks[theme] = await p.getByTestId('theme-done').evaluate((el) => getComputedStyle(el).backgroundColor);
      await c.close();
    }
    expect(looks['theme-hey']).toBe('rgb(40, 125, 83)');
    expect(looks['theme-cool']).toBe('rgb(106, 17, 203)');
    expect(new Set(Object.values(looks)).size).toBe(3);
  });
});

describe('screenshots in both languages at three sizes', () => {
  it('home and the user screen', async () => {
    for (const language of ['zh', 'en'] as const) {
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 1024, height: 768 },
        { width: 375, height: 812 },
      ]) {
        const { context, page } = await newPage(browser(), viewport);
        await presetSetting(page, 'language', language);
        await signIn(page);
        await page.getByTestId('wel-login-taken').waitFor();
        if (viewport.width >= 768) await page.locator('.mes-sider .ant-menu-root').waitFor();
        await screenshot(page, `shell-home-${language}-${viewport.width}`);
        await goInApp(page, '/system/user');
        await page.locator('[data-screen="/system/user"] .ant-table').waitFor();
        await screenshot(page, `shell-user-${language}-${viewport.width}`);
        await context.close();
      }
    }
  });
});
