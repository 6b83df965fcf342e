import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { goInApp, openMenuScreen } from '../support/shell';
import { confirmWrite, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';

const browser = useBrowser();

const rows = (scope: Locator) => scope.locator('[data-testid="crud-table"] tbody tr.ant-table-row');
const rowOf = (scope: Locator, text: string) => rows(scope).filter({ hasText: text });
const formDialog = (page: Page) => page.locator('.mes-crud-dialog').last();
const field = (page: Page, name: string) => formDialog(page).locator(`#crud-form_${name}`);
/** The tab of a screen in the tab bar, by the screen's path (antd keys tabs by it). */
const tab = (page: Page, path: string) =>
  page.locator(`[data-testid="tab-bar"] .ant-tabs-tab[data-node-key="${path}"]`);

/** Counts the API calls whose path and query contain `part`. */
function countCalls(page: Page, part: string): () => number {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(part)) seen.push(r.url());
  });
  return () => seen.length;
}

async function search(scope: Locator, code: string): Promise<void> {
  await scope.locator('#crud-search_code').fill(code);
  await scope.getByTestId('crud-search-submit').click();
  await poll(() => rows(scope).count()).toBe(1);
}

describe('server state shared by screens', () => {
  it('an edit on one tab shows in the list of another open tab of the same resource, with no refresh', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openMenuScreen(page, '/system/dict');
    const dictScreen = page.getByTestId('dict-screen');
    await dictScreen.waitFor();
    await poll(() => rows(dictScreen).count()).toBeGreaterThan(0);

    const code = `e2e_q${Date.now().toString(36)}`;
    await dictScreen.getByTestId('crud-add').click();
    await formDialog(page).waitFor();
    await field(page, 'code').fill(code);
    await field(page, 'dictValue').fill('查询甲');
    await formDialog(page).getByTestId('crud-dialog-submit').click();
    await formDialog(page).waitFor({ state: 'hidden' });
    await search(dictScreen, code);

    // A second tab lists the same dictionaries, beside their entries.
    await goInApp(page, '/dict-horizontal/index');
    const panel = page.getByTestId('dict-parent-panel');
    await panel.waitFor();
    await search(panel, code);
    await poll(() => rowOf(panel, code).innerText()).toContain('查询甲');

    // Back on the first tab, the dictionary is renamed.
    await tab(page, '/system/dict').click();
    await dictScreen.waitFor();
    await rowOf(dictScreen, code).getByTestId('crud-row-edit').click();
    await poll(() => field(page, 'dictValue').inputValue()).toBe('查询甲');
    await field(page, 'dictValue').fill('查询乙');
    await formDialog(page).getByTestId('crud-dialog-submit').click();
    await formDialog(page).waitFor({ state: 'hidden' });
    await poll(() => rowOf(dictScreen, code).innerText()).toContain('查询乙');

    // The other tab shows the new name on being shown again: nobody pressed 刷新 there.
    await tab(page, '/dict-horizontal/index').click();
    await poll(() => rowOf(panel, code).innerText()).toContain('查询乙');
    await screenshot(page, 'crud-query-other-tab');

    // Removing it there takes it off the first tab too.
    await rowOf(panel, code).getByTestId('crud-row-delete').click();
    await confirmWrite(page, '/blade-system/dict/remove');
    await poll(() => rows(panel).count()).toBe(0);
    await tab(page, '/system/dict').click();
    await poll(() => rowOf(dictScreen, code).count()).toBe(0);
    await context.close();
  });

  it('a dictionary is fetched once for the table and the dialog that both show it; a list once for two tabs', async () => {
    const { context, page } = await newPage(browser());
    const userTypeCalls = countCalls(page, '/api/blade-system/dict/dictionary?code=user_type');
    const parentListCalls = countCalls(page, '/api/blade-system/dict/parent-list');
    await signIn(page);
    await openMenuScreen(page, '/system/user');
    const users = page.getByTestId('user-screen');
    await poll(() => rows(users).count()).toBeGreaterThan(0);
    await poll(userTypeCalls).toBe(1);

    // 平台配置 lists the same dictionary: from the cache, not another call.
    await rows(users).first().locator('.ant-checkbox-input').check();
    await users.getByTestId('user-platform').click();
    const platform = page.getByTestId('user-platform-form');
    await platform.waitFor();
    await platform.locator('.ant-select').first().click();
    await poll(() =>
      page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').count(),
    ).toBeGreaterThan(0);
    expect(userTypeCalls()).toBe(1);
    await page.keyboard.press('Escape');
    await page.locator('.ant-modal-wrap').last().locator('.ant-modal-close').click();

    // Two tabs listing the dictionaries (the screen and its side-by-side layout) ask once.
    await goInApp(page, '/system/dict');
    await poll(() => rows(page.getByTestId('dict-screen')).count()).toBeGreaterThan(0);
    expect(parentListCalls()).toBe(1);
    await goInApp(page, '/dict-horizontal/index');
    await poll(() => rows(page.getByTestId('dict-parent-panel')).count()).toBeGreaterThan(0);
    expect(parentListCalls()).toBe(1);
    await context.close();
  });
});
