import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApiOk, crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';

const browser = useBrowser();

/** In-app navigation (no reload), as a menu click does it. */
async function goInApp(page: Page, to: string): Promise<void> {
  await page.evaluate((url) => {
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await page.locator(`[data-screen="${to.split('?')[0]}"]`).waitFor({ state: 'attached' });
}

/** Screens load lazily and call the API: give assertions on them time. */

/**
 * The rows the post list shows on its first page of 10: eight seeded posts on a fresh server, but
 * specs share the server, and one that failed before removing its post (or an earlier attempt of
 * this one) leaves more; the counts below are relative to what the server has.
 */
async function postsShown(page: Page, size = 10): Promise<{ total: number; shown: (total: number) => number }> {
  const { total } = await callApiOk<{ total: number }>(page, '/api/blade-system/post/list?current=1&size=1');
  return { total, shown: (n: number) => Math.min(n, size) };
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();

describe('generic resource screen', () => {
  it('posts: search, add with blur rule, edit, view, export, batch delete, 200 rows a page', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const { total: posts, shown } = await postsShown(page);
    // Unique per attempt: a retry finds no row of the failed attempt under the same code.
    const code = `e2e${Date.now().toString(36).slice(-6)}`;
    await goInApp(page, '/system/post');
    const screen = page.locator('[data-screen="/system/post"]');
    // Rows of the plain body (tr) and of the virtual body (div) alike.
    const rows = screen.locator('.ant-table-row');
    await poll(() => rows.count()).toBe(shown(posts));
    // Category is a dictionary field: the cell shows the label, not the key.
    await poll(() => rows.first().innerText()).toContain('高层');
    await screenshot(page, 'crud-post-list');

    // Search drops empty values, goes to page 1 and keeps the filter in the URL.
    await screen.locator('#crud-search_postCode').fill('ceo');
    await screen.getByTestId('crud-search-submit').click();
    await poll(() => rows.count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('postCode')).toBe('ceo');
    expect(new URL(page.url()).searchParams.has('postName')).toBe(false);
    await screen.getByTestId('crud-search-reset').click();
    await poll(() => rows.count()).toBe(shown(posts));
    expect(new URL(page.url()).searchParams.has('postCode')).toBe(false);

    // Add: leaving 岗位编号 empty shows the definition's rule on blur.
    await screen.getByTestId('crud-add').click();
    await crudDialog(page).locator('#crud-form_postCode').waitFor();
    await crudDialog(page).locator('#crud-form_postCode').focus();
    await crudDialog(page).locator('#crud-form_postName').focus();
    await poll(() => crudDialog(page).innerText()).toContain('请输入岗位编号');
    await screenshot(page, 'crud-post-dialog');
    await crudDialog(page).locator('#crud-form_postCode').fill(code);
    await crudDialog(page).locator('#crud-form_postName').fill('测试岗位');
    await crudDialog(page).getByTestId('crud-dialog-submit').click();
    await toast(page, '新增成功').waitFor();
    await poll(() => rows.count()).toBe(shown(posts + 1));
    const added = rows.filter({ hasText: code });
    await poll(() => added.innerText()).toContain('测试岗位');

    // Edit loads the detail and updates.
    await added.getByTestId('crud-row-edit').click();
    await poll(() => crudDialog(page).locator('#crud-form_postName').inputValue()).toBe('测试岗位');
    await crudDialog(page).locator('#crud-form_postName').fill('测试岗位二');
    await crudDialog(page).getByTestId('crud-dialog-submit').click();
    await toast(page, '更新成功').waitFor();
    await poll(() => added.innerText()).toContain('测试岗位二');
    await crudDialog(page).waitFor({ state: 'detached' });

    // View: every input disabled, no save.
    await added.getByTestId('crud-row-view').click();
    await poll(() => crudDialog(page).locator('#crud-form_postCode').inputValue()).toBe(code);
    expect(await crudDialog(page).locator('#crud-form_postCode').isDisabled()).toBe(true);
    expect(await crudDialog(page).getByTestId('crud-dialog-submit').count()).toBe(0);
    await crudDialog(page).getByTestId('crud-dialog-close').click();
    await crudDialog(page).waitFor({ state: 'detached' });

    // Export downloads an xlsx of the matching rows.
    const [file] = await Promise.all([page.waitForEvent('download'), screen.getByTestId('crud-export').click()]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crud-e2e-')), file.suggestedFilename());
    await file.saveAs(saved);
    expect(fs.readFileSync(saved).subarray(0, 2).toString()).toBe('PK');

    // Batch delete needs a selection, then a confirmation.
    await screen.getByTestId('crud-delete').click();
    await toast(page, '请选择至少一条数据').waitFor();
    await added.locator('.ant-checkbox-input').check();
    await screen.getByTestId('crud-delete').click();
    const confirm = page.locator('.ant-modal-confirm', { hasText: '确定将选择数据删除?' });
    await confirm.waitFor();
    await confirm.locator('.ant-btn-primary').click();
    await toast(page, '删除成功').waitFor();
    await poll(() => rows.count()).toBe(shown(posts));

    // 200 rows a page, kept in the URL across a reload.
    await screen.locator('.ant-pagination-options .ant-select-selector').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title^="200"]')
      .click();
    await poll(() => new URL(page.url()).searchParams.get('size')).toBe('200');
    await page.reload();
    await poll(() => rows.count()).toBe(Math.min(posts, 200));
    await poll(() => screen.locator('.ant-pagination-options').innerText()).toMatch(/^200\b/);
    await screenshot(page, 'crud-post-200');
    // A 200-row page renders through the virtual body.
    expect(await screen.locator('.ant-table-tbody-virtual').count()).toBe(1);

    await context.close();
  });

  it('menus: a tree table with children and an add-child button', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await goInApp(page, '/system/menu');
    const screen = page.locator('[data-screen="/system/menu"]');
    const system = screen.locator('tr.ant-table-row', { hasText: '系统管理' }).first();
    await system.waitFor();
    // A forest: no pagination, roots first.
    expect(await screen.locator('.ant-pagination').count()).toBe(0);
    await system.locator('.ant-table-row-expand-icon').click();
    await screen.locator('tr.ant-table-row', { hasText: '岗位管理' }).first().waitFor();
    await screenshot(page, 'crud-menu-tree');

    await system.getByTestId('menu-add-child').click();
    await poll(() => crudDialog(page).innerText()).toContain('系统管理');
    await screenshot(page, 'crud-menu-add-child');
    await crudDialog(page).getByTestId('crud-dialog-cancel').click();
    await context.close();
  });

  // Known shell bug: router/menu-screen.tsx resolves the screen from the live URL, so a hidden
  // tab's MenuScreen renders the active path's screen (or /404) and the page remounts with its
  // state lost. Flip to `it` once MenuScreen keeps the path it was mounted at.
  it('a screen keeps its page size across a tab switch and writes it back to the URL', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const { total: posts, shown } = await postsShown(page);
    await goInApp(page, '/system/post');
    const screen = page.locator('[data-screen="/system/post"]');
    await poll(() => screen.locator('.ant-table-row').count()).toBe(shown(posts));
    await screen.locator('.ant-pagination-options .ant-select-selector').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title^="30"]')
      .click();
    await poll(() => new URL(page.url()).searchParams.get('size')).toBe('30');
    await goInApp(page, '/wel/index');
    await page.locator('[data-testid="tab-bar"] .ant-tabs-tab', { hasText: '岗位管理' }).click();
    await poll(() => new URL(page.url()).searchParams.get('size')).toBe('30');
    expect(new URL(page.url()).pathname).toBe('/system/post');
    await context.close();
  });

  it('the plain screens open with their tables and no error', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    // Path and the seeded rows it shows at least.
    const paths: [string, number][] = [
      ['/system/param', 5],
      ['/system/client', 1],
      ['/system/region', 0],
      ['/authority/datascope', 0],
      ['/authority/apiscope', 1],
      ['/tool/datasource', 0],
    ];
    for (const [path, minRows] of paths) {
      await goInApp(page, path);
      const screen = page.locator(`[data-screen="${path}"]`);
      await screen.getByTestId('crud-table').waitFor();
      await poll(() => screen.locator('.ant-table-row').count()).toBeGreaterThanOrEqual(minRows);
    }
    expect(await page.locator('.ant-message-error').count()).toBe(0);
    await screenshot(page, 'crud-datasource-list');
    await context.close();
  });
});
