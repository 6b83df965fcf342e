import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NOTICE_INBOX_PATH, type NoticeInboxReply } from '@mes/contracts';
import { callApi, newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { unreadOnServer } from '../support/bell';

const browser = useBrowser();

/**
 * A test group with a QC board screen and a top menu 办公 that shows only that group, created
 * through the real API once per run (menu codes are unique, so a second call finds them).
 */
async function prepareMenus(page: Page): Promise<string> {
  const find = async (code: string) =>
    (await callApi<{ records: { id: string }[] }>(page, `/api/blade-system/menu/page?current=1&code_equal=${code}`))
      .data.records[0]?.id;
  const submit = async (menu: Record<string, unknown>) => {
    const existing = await find(String(menu.code));
    if (existing) return existing;
    const res = await callApi<string>(page, '/api/blade-system/menu/submit', menu);
    expect(res.success, res.msg).toBe(true);
    return res.data;
  };
  const group = await submit({ code: 'e2e_office_group', name: '办公测试', path: '/e2eoffice', category: 1, sort: 90 });
  const plc = await submit({ code: 'e2e_qc', name: 'QC看板', path: '/e2eoffice/qc', parentId: group, category: 1 });
  const tops = await callApi<{ records: { id: string; code: string }[] }>(
    page,
    '/api/blade-system/topmenu/list?current=1&code=e2e_office',
  );
  let topId = tops.data.records[0]?.id;
  if (!topId) {
    const res = await callApi<string>(page, '/api/blade-system/topmenu/submit', {
      code: 'e2e_office',
      name: '办公',
      sort: 1,
    });
    expect(res.success, res.msg).toBe(true);
    topId = res.data;
  }
  const grant = await callApi(page, `/api/blade-system/topmenu/grant?topMenuIds=${topId}&menuIds=${group},${plc}`, {});
  expect(grant.success, grant.msg).toBe(true);
  return topId;
}

// Colours are polled: antd's layout and menu animate their background when the theme changes.
const background = (page: Page, selector: string) =>
  page.evaluate((s) => {
    const el = document.querySelector(s);
    return el ? getComputedStyle(el).backgroundColor : 'missing';
  }, selector);
const layoutClass = (page: Page) => page.getByTestId('main-layout').getAttribute('class');

async function chooseTheme(page: Page, theme: string): Promise<void> {
  await page.getByTestId('theme-picker').click();
  // The dialog zooms in: a click while it moves can land beside the option, so it is made again
  // until the option shows itself chosen.
  const option = page.getByTestId(`theme-option-${theme}`);
  await expect
    .poll(async () => {
      if ((await option.getAttribute('aria-pressed')) !== 'true') await option.click();
      return option.getAttribute('aria-pressed');
    })
    .toBe('true');
  await page.getByTestId('theme-done').click();
  await page.getByTestId('theme-list').waitFor({ state: 'hidden' });
}

describe('header tools', () => {
  it('switches the theme, repaints header, sidebar and tabs, and keeps it after a reload', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    // A screen of the side menu, so the screenshots show the themed menu with an active item.
    await page.goto('/system/user');
    await page.getByTestId('main-layout').waitFor();
    await expect.poll(() => layoutClass(page)).toContain('theme-vip');
    // theme-vip: dark header and sidebar with the gold active tab.
    await expect.poll(() => background(page, '.mes-header')).toBe('rgb(32, 34, 42)');
    await expect.poll(() => background(page, '.mes-sider')).toBe('rgb(32, 34, 42)');
    await expect.poll(() => background(page, '.mes-tabs .ant-tabs-tab-active')).toBe('rgb(255, 193, 7)');
    const activeItem = page.locator('.mes-sider .ant-menu-item-selected');
    await expect.poll(() => activeItem.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 193, 7)');
    await screenshot(page, 'theme-vip');

    await page.getByTestId('theme-picker').click();
    // Every theme of the spec is offered, the current one marked.
    for (const name of ['default', 'white', 'dark', 'star', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte']) {
      await page.getByTestId(`theme-option-theme-${name}`).waitFor();
    }
    expect(await page.getByTestId('theme-option-theme-vip').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('theme-done').click();

    await chooseTheme(page, 'theme-dark');
    await expect.poll(() => layoutClass(page)).toContain('theme-dark');
    await expect.poll(() => layoutClass(page)).not.toContain('theme-vip');
    await expect.poll(() => background(page, '.mes-header')).toBe('rgb(20, 20, 20)');
    await expect.poll(() => background(page, '.mes-sider')).toBe('rgb(20, 20, 20)');
    await expect.poll(() => background(page, '.mes-tabs')).toBe('rgb(31, 31, 31)');
    await screenshot(page, 'theme-dark');

    await chooseTheme(page, 'theme-white');
    await expect.poll(() => background(page, '.mes-header')).toBe('rgb(255, 255, 255)');
    await expect.poll(() => background(page, '.mes-sider')).toBe('rgb(255, 255, 255)');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('mes-themeName') ?? '{}'));
    expect(stored.content).toBe('theme-white');

    await page.reload();
    await page.getByTestId('main-layout').waitFor();
    await expect.poll(() => layoutClass(page)).toContain('theme-white');
    await expect.poll(() => background(page, '.mes-sider')).toBe('rgb(255, 255, 255)');

    // Every theme paints the header or the sidebar differently from every other.
    const looks = new Set<string>();
    for (const name of ['default', 'white', 'dark', 'star', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte']) {
      await chooseTheme(page, `theme-${name}`);
      const look = await page.evaluate(() => {
        const paint = (s: string) => {
          const style = getComputedStyle(document.querySelector(s) as Element);
          return `${style.backgroundColor} ${style.backgroundImage}`;
        };
        return `${paint('.mes-header')} | ${paint('.mes-sider')} | ${paint('.mes-tabs')}`;
      });
      looks.add(look);
    }
    expect(looks.size).toBe(11);
    await context.close();
  });

  it('the colour picker changes the primary colour of antd buttons and is remembered', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.getByTestId('theme-picker').click();
    const done = page.getByTestId('theme-done');
    // The spec's #409EFF carries white text at only 2.78:1: primary buttons take its deeper shade #2D6FB3 (AA).
    expect(await done.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(45, 111, 179)');
    await done.click();

    await page.getByTestId('color-picker').click();
    const panel = page.getByTestId('color-panel');
    // The fourth preset is #722ED1.
    await panel.locator('.ant-color-picker-presets-color').nth(3).click();
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('mes-colorName') ?? '{}').content))
      .toBe('#722ED1');
    const reset = page.getByTestId('color-reset');
    await expect.poll(() => reset.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(114, 46, 209)');
    await page.keyboard.press('Escape');

    await page.getByTestId('theme-picker').click();
    await expect.poll(() => done.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(114, 46, 209)');
    await done.click();

    await page.reload();
    await page.getByTestId('welcome').waitFor();
    await page.getByTestId('theme-picker').click();
    await expect.poll(() => done.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(114, 46, 209)');
    await done.click();

    await page.getByTestId('color-picker').click();
    await page.getByTestId('color-reset').click();
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('mes-colorName') ?? '{}').content))
      .toBe('#409EFF');
    await context.close();
  });

  it('the menu search is titled 菜单搜索, matches by name prefix ignoring case, opens the screen, Esc closes it', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await prepareMenus(page);
    await page.reload();
    await page.getByTestId('welcome').waitFor();

    await page.getByTestId('menu-search').click();
    const dialog = page.locator('.mes-menu-search');
    await expect.poll(() => dialog.locator('.ant-modal-title').textContent()).toBe('菜单搜索');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByTestId('menu-search').click();
    await dialog.getByRole('combobox').fill('qc');
    const options = page.getByTestId('menu-search-option');
    await expect.poll(() => options.allTextContents()).toEqual(['QC看板 /e2eoffice/qc']);
    await dialog.getByRole('combobox').fill('用户');
    await expect.poll(() => options.allTextContents()).toEqual(['用户管理 /system/user']);
    await options.first().click();
    await page.waitForURL('**/system/user');
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('the top menu narrows the side menu; home brings every screen back and opens /wel/index', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const topId = await prepareMenus(page);
    await page.reload();
    const side = page.locator('.mes-sider');
    await expect.poll(() => side.textContent()).toContain('系统管理');

    const routeCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/blade-system/menu/routes'))
        routeCalls.push(new URL(r.url()).searchParams.get('topMenuId') ?? '');
    });
    await page.getByTestId(`top-menu-${topId}`).click();
    await expect.poll(() => side.textContent()).not.toContain('系统管理');
    expect(await side.textContent()).toContain('办公测试');
    expect(routeCalls).toContain(topId);
    expect(await page.getByTestId(`top-menu-${topId}`).getAttribute('aria-current')).toBe('true');

    // The search still offers screens outside the chosen top menu.
    await page.getByTestId('menu-search').click();
    await page.locator('.mes-menu-search').getByRole('combobox').fill('角色');
    await expect
      .poll(() => page.getByTestId('menu-search-option').allTextContents())
      .toEqual(['角色管理 /authority/role']);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');

    await page.goto('/system/user');
    await page.getByTestId('top-menu-home').click();
    await page.waitForURL('**/wel/index');
    await expect.poll(() => side.textContent()).toContain('系统管理');
    await context.close();
  });

  it('the notice popover shows the notices and warnings tabs, its badge and lists as the server has them', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    // Other specs of the run may have left notices and warnings behind: the bell must say what
    // the server says, an empty state only where there is nothing.
    const { unread, notices, warnings } = await unreadOnServer(page);
    const inbox = await callApi<NoticeInboxReply>(page, `/api${NOTICE_INBOX_PATH}?current=1&size=1`);
    const bell = page.getByTestId('notice');
    await expect.poll(() => bell.getAttribute('data-unread')).toBe(String(unread));
    expect(await bell.locator('.ant-badge-count').count()).toBe(unread ? 1 : 0);
    expect(await bell.locator('.ant-badge-dot').count()).toBe(0);
    await bell.click();
    const tabs = page.getByTestId('notice-tabs');
    await expect
      .poll(() => tabs.getByRole('tab').allTextContents())
      .toEqual([notices ? `通知 (${notices})` : '通知', warnings ? `告警 (${warnings})` : '告警']);
    // offsetWidth: the opening zoom animation scales the box, the layout width is what the spec sets.
    expect(await page.locator('.mes-notice-popover').evaluate((el) => (el as HTMLElement).offsetWidth)).toBe(350);
    if (inbox.data.total === 0)
      await expect.poll(() => page.getByTestId('notice-list-empty').textContent()).toContain('暂无通知');
    else await expect.poll(() => page.getByTestId('notice-item').count()).toBeGreaterThan(0);
    await tabs.getByRole('tab', { name: /告警/ }).click();
    if (warnings === 0) {
      await expect.poll(() => page.getByTestId('warning-list-empty').isVisible()).toBe(true);
      expect(await page.getByTestId('warning-list-empty').textContent()).toContain('暂无告警');
    } else await expect.poll(() => page.getByTestId('warning-item').count()).toBeGreaterThan(0);
    expect(await page.locator('.mes-notice-popover').textContent()).not.toContain('示例');
    await context.close();
  });

  it('the full-screen toggle enters and leaves full screen', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const toggle = page.getByTestId('fullscreen');
    expect(await toggle.getAttribute('data-fullscreen')).toBe('false');
    await toggle.click();
    await expect.poll(() => page.evaluate(() => Boolean(document.fullscreenElement))).toBe(true);
    await expect.poll(() => toggle.getAttribute('data-fullscreen')).toBe('true');
    await toggle.click();
    await expect.poll(() => page.evaluate(() => Boolean(document.fullscreenElement))).toBe(false);
    await expect.poll(() => toggle.getAttribute('data-fullscreen')).toBe('false');
    await context.close();
  });

  it('the language switch turns the header tools into English and back', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const home = page.getByTestId('top-menu-home');
    expect(await home.textContent()).toBe('首页');

    await page.getByTestId('language').hover();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => home.textContent()).toBe('Home');
    expect(await page.getByTestId('menu-search').getAttribute('aria-label')).toBe('Menu search');
    await page.getByTestId('menu-search').click();
    await expect.poll(() => page.locator('.mes-menu-search .ant-modal-title').textContent()).toBe('Menu search');
    await page.keyboard.press('Escape');
    await page.getByTestId('notice').click();
    // Specs share the server: another may have left open warnings, which the tab counts.
    await expect
      .poll(async () =>
        (await page.getByTestId('notice-tabs').getByRole('tab').allTextContents()).map((tab) =>
          tab.replace(/ \(\d+\)$/, ''),
        ),
      )
      .toEqual(['Notices', 'Warnings']);
    await page.getByTestId('notice').click();

    await page.getByTestId('language').hover();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await expect.poll(() => home.textContent()).toBe('首页');
    await context.close();
  });

  it('on a narrow screen only the essential tools stay, the notice bell among them', async () => {
    const { context, page } = await newPage(browser(), { width: 600, height: 900 });
    await signIn(page);
    for (const id of ['menu-search', 'notice']) expect(await page.getByTestId(id).isVisible(), id).toBe(true);
    for (const id of ['top-menu', 'theme-picker', 'color-picker', 'fullscreen']) {
      expect(await page.getByTestId(id).isVisible(), id).toBe(false);
    }
    await context.close();
  });
});
