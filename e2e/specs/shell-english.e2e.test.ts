import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp, presetSetting, tabLabels } from '../support/shell';

const browser = useBrowser();

const ZH_TITLE = 'MES 制造执行系统';
const EN_TITLE = 'MES Console';
const CJK = /[\u3400-\u9fff]/;

async function chooseLanguage(page: Page, name: 'English' | '中文'): Promise<void> {
  await page.getByTestId('language').hover();
  await page.getByRole('menuitem', { name }).click();
}

/** The labels of the side menu's groups and the screens of the open groups. */
const sideMenuLabels = (page: Page) =>
  page.locator('[data-testid="side-menu"] .ant-menu-title-content').allInnerTexts();

async function openUsers(page: Page): Promise<void> {
  await goInApp(page, '/system/user');
  await page.waitForURL('**/system/user');
  await page.locator('[data-screen="/system/user"]').waitFor({ state: 'attached' });
}

/** The welcome page's text without the signed-in account's own data (names, roles, tenant). */
async function welcomeLabels(page: Page): Promise<string> {
  return page.evaluate(() => {
    const root = document.querySelector('[data-testid="welcome"]');
    if (!root) return 'missing';
    const copy = root.cloneNode(true) as HTMLElement;
    // Data (account details, table rows, the devices not released: names, messages) is as stored, not translated.
    copy
      .querySelectorAll('.ant-descriptions-item-content, .ant-table-tbody, .mes-wel-data')
      .forEach((el) => el.remove());
    const title = copy.querySelector('.mes-wel-title');
    if (title) title.textContent = (title.textContent ?? '').split(' · ')[0] ?? '';
    return copy.innerText;
  });
}

interface MenuLike {
  id: string;
  name: string;
  nameEn?: string;
  children?: MenuLike[];
}
const flatten = (nodes: MenuLike[]): MenuLike[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

describe('the shell in English', () => {
  it('labels the side menu, tabs, top menu, welcome page and page title in the language chosen', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openUsers(page);
    await expect.poll(() => tabLabels(page)).toEqual(['首页', '用户管理']);
    await expect.poll(() => page.title()).toBe(`用户管理 - ${ZH_TITLE}`);
    expect(await sideMenuLabels(page)).toEqual(expect.arrayContaining(['系统管理', '用户管理']));

    await chooseLanguage(page, 'English');
    // The open tab is re-labelled at once, without visiting it again.
    await expect.poll(() => tabLabels(page)).toEqual(['Home', 'Users']);
    await expect.poll(() => page.title()).toBe(`Users - ${EN_TITLE}`);
    const english = await sideMenuLabels(page);
    expect(english).toEqual(expect.arrayContaining(['System', 'Users', 'Departments', 'Authority', 'Reports']));
    // Every built-in menu is English; menus other specs created without an English name are
    // data and keep the name they were given.
    const routes = await callApi<MenuLike[]>(page, '/api/blade-system/menu/routes');
    const untranslated = new Set(
      flatten(routes.data)
        .filter((m) => !m.nameEn)
        .map((m) => m.name),
    );
    expect(english.filter((label) => CJK.test(label) && !untranslated.has(label))).toEqual([]);
    // Built-in menus (seeded ids) all carry one.
    expect(flatten(routes.data).filter((m) => m.id.startsWith('10000000000002') && !m.nameEn)).toEqual([]);
    expect(await page.getByTestId('top-menu-home').textContent()).toBe('Home');
    await screenshot(page, 'shell-english-users-1440-en');

    // Menu search finds screens by the names shown.
    await page.getByTestId('menu-search').click();
    await page.locator('.mes-menu-search input').fill('Use');
    await expect
      .poll(() => page.locator('.ant-select-item-option').allInnerTexts())
      .toEqual([expect.stringMatching(/^Users\s+\/system\/user$/)]);
    await page.keyboard.press('Escape');

    await page.locator('[data-testid="tab-bar"] .ant-tabs-tab', { hasText: 'Home' }).click();
    await page.waitForURL('**/wel/index');
    await page.getByTestId('welcome').waitFor();
    await expect.poll(() => welcomeLabels(page)).not.toMatch(CJK);

    await expect.poll(() => page.title()).toBe(`Home - ${EN_TITLE}`);
    await screenshot(page, 'shell-english-wel-1440-en');

    await chooseLanguage(page, '中文');
    await expect.poll(() => tabLabels(page)).toEqual(['首页', '用户管理']);
    expect(await sideMenuLabels(page)).toEqual(expect.arrayContaining(['系统管理', '用户管理']));
    await openUsers(page);
    await expect.poll(() => page.title()).toBe(`用户管理 - ${ZH_TITLE}`);
    await screenshot(page, 'shell-english-users-1440-zh');
    await context.close();
  });

  it('shows the English menu names in the phone drawer too', async () => {
    for (const language of ['en', 'zh'] as const) {
      const { context, page } = await newPage(browser(), { width: 375, height: 812 });
      await presetSetting(page, 'language', language);
      await signIn(page);
      await openUsers(page);
      await expect.poll(() => page.title()).toBe(language === 'en' ? `Users - ${EN_TITLE}` : `用户管理 - ${ZH_TITLE}`);
      await page.getByTestId('collapse-toggle').click();
      const drawer = page.locator('.mes-menu-drawer [data-testid="side-menu"]');
      await drawer.waitFor();
      await expect
        .poll(() => drawer.locator('.ant-menu-title-content').allInnerTexts())
        .toEqual(expect.arrayContaining(language === 'en' ? ['System', 'Users'] : ['系统管理', '用户管理']));
      await screenshot(page, `shell-english-drawer-375-${language}`);
      await context.close();
    }
  });

  it('gets the server’s confirmations and refusals in English', async () => {
    const { context, page } = await newPage(browser());
    await presetSetting(page, 'language', 'en');
    await signIn(page);
    await goInApp(page, '/system/post');
    const screen = page.locator('[data-screen="/system/post"]');
    const toast = (text: string) => page.locator('.ant-message-notice', { hasText: text }).first();
    const code = `en${Date.now().toString(36)}`;
    await screen.getByTestId('crud-add').click();
    await crudDialog(page).locator('#crud-form_postCode').fill(code);
    await crudDialog(page).locator('#crud-form_postName').fill('English post');
    await crudDialog(page).getByTestId('crud-dialog-submit').click();
    await toast('Added').waitFor();
    const row = screen.locator('.ant-table-row', { hasText: code });
    await row.getByTestId('crud-row-delete').click();
    await page.locator('.ant-modal-confirm .ant-btn-primary').click();
    await toast('Deleted').waitFor();
    expect(await page.locator('.ant-message-notice').allInnerTexts()).not.toEqual(
      expect.arrayContaining([expect.stringMatching(CJK)]),
    );
    await context.close();
  });
});
