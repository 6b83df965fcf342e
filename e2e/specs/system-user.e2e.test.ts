import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { confirmWrite, newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { openMenuScreen } from '../support/shell';

const browser = useBrowser();

const ACCOUNT = 'e2e_worker';

/** Picks a node of an antd TreeSelect by its title (the dropdown is rendered in the body). */
async function pickTreeNode(page: Page, select: Locator, title: string): Promise<void> {
  await select.click();
  // Typing filters the tree and opens the branches that match.
  await page.keyboard.type(title);
  const node = page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: title });
  await node.first().click();
  // Escape would close the dialog too: a click on its title closes only the dropdown.
  await page.locator('.mes-crud-dialog .ant-modal-title').click();
  await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
}

const dialog = (page: Page) => page.locator('.mes-crud-dialog');
const formItem = (page: Page, id: string) => page.locator(`#crud-form_${id}`);
const selectOf = (page: Page, id: string) =>
  page
    .locator('.ant-form-item')
    .filter({ has: formItem(page, id) })
    .locator('.ant-select-selector');
const rows = (page: Page) => page.locator('[data-testid="crud-table"] tbody tr.ant-table-row');
const rowOf = (page: Page, text: string) => rows(page).filter({ hasText: text });

async function openUsers(page: Page) {
  await signIn(page);
  await openMenuScreen(page, '/system/user');
  await page.getByTestId('user-screen').waitFor();
  await expect.poll(() => rowOf(page, 'admin').count(), { timeout: 15_000 }).toBeGreaterThan(0);
}

async function search(page: Page, account: string) {
  await page.locator('#crud-search_account').fill(account);
  await page.getByTestId('crud-search-submit').click();
  await expect.poll(() => rows(page).count()).toBe(1);
  await expect.poll(() => rows(page).first().textContent()).toContain(account);
}

describe('users screen', () => {
  it('filters by the department tree and resets with 全部', async () => {
    const { context, page } = await newPage(browser());
    await openUsers(page);
    await page.getByTestId('user-dept-tree').getByText('常州分公司').click();
    await expect.poll(() => page.url()).toContain('/system/user');
    await expect.poll(() => rowOf(page, 'admin').count()).toBe(0);
    await page.getByTestId('user-dept-all').click();
    // At least the platform's admin: a demo tenant seeded by another file on this server has its own.
    await expect.poll(() => rowOf(page, 'admin').count()).toBeGreaterThanOrEqual(1);
    await context.close();
  });

  it('adds, searches, edits, views, exports, grants roles and batch-deletes a user', async () => {
    const { context, page } = await newPage(browser());
    await openUsers(page);

    // Add: the passwords must agree; the password goes out as md5 hex.
    await page.getByTestId('crud-add').click();
    await dialog(page).waitFor();
    await formItem(page, 'account').fill(ACCOUNT);
    await formItem(page, 'password').fill('Secret#123');
    await formItem(page, 'password2').fill('Secret#124');
    await formItem(page, 'name').fill('工人');
    await formItem(page, 'realName').fill('张三');
    await pickTreeNode(page, selectOf(page, 'roleId'), '用户');
    await pickTreeNode(page, selectOf(page, 'deptId'), '常州分公司');
    await screenshot(page, 'system-user-add');
    await page.getByTestId('crud-dialog-submit').click();
    await page.getByText('两次密码输入不一致').waitFor();
    // A refused check is a message to the user, not an error of the app.
    expect(await page.getByTestId('error-log-button').getAttribute('data-count')).toBe('0');
    await formItem(page, 'password2').fill('Secret#123');
    const submitted = page.waitForRequest((r) => r.url().includes('/api/blade-user/submit'));
    await page.getByTestId('crud-dialog-submit').click();
    const body = (await submitted).postDataJSON() as Record<string, unknown>;
    expect(body.password).toMatch(/^[0-9a-f]{32}$/);
    expect(body).not.toHaveProperty('password2');
    await dialog(page).waitFor({ state: 'hidden' });

    // Search by account: one row, with its role and department names.
    await search(page, ACCOUNT);
    const row = rows(page).first();
    await expect.poll(() => row.textContent()).toContain('常州分公司');
    await expect.poll(() => row.textContent()).toContain('用户');

    // Edit: the password is not in the edit form.
    await row.getByTestId('crud-row-edit').click();
    await dialog(page).waitFor();
    await expect.poll(() => formItem(page, 'realName').inputValue()).toBe('张三');
    expect(await formItem(page, 'password2').count()).toBe(0);
    await formItem(page, 'realName').fill('李四');
    await page.getByTestId('crud-dialog-submit').click();
    await dialog(page).waitFor({ state: 'hidden' });
    await expect.poll(() => rows(page).first().textContent()).toContain('李四');

    // View: read-only.
    await rows(page).first().getByTestId('crud-row-view').click();
    await dialog(page).waitFor();
    await expect.poll(() => formItem(page, 'account').inputValue()).toBe(ACCOUNT);
    expect(await formItem(page, 'account').isDisabled()).toBe(true);
    await page.getByTestId('crud-dialog-close').click();
    await dialog(page).waitFor({ state: 'hidden' });

    // Export: an xlsx of the matching rows.
    const download = page.waitForEvent('download');
    await page.getByTestId('crud-export').click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);

    // 角色配置: grant 经理 as well.
    await rows(page).first().locator('.ant-checkbox-input').check();
    await page.getByTestId('user-role').click();
    const tree = page.getByTestId('user-role-tree');
    await tree.waitFor();
    await tree.locator('.ant-tree-treenode', { hasText: '经理' }).locator('.ant-tree-checkbox').click();
    await screenshot(page, 'system-user-grant');
    const granted = page.waitForResponse((r) => r.url().includes('/api/blade-user/grant'));
    await page.getByTestId('user-role-save').click();
    expect((await granted).status()).toBe(200);
    await expect.poll(() => rows(page).first().textContent()).toContain('经理');

    // Batch delete: tick, delete, confirm.
    await rows(page).first().locator('.ant-checkbox-input').check();
    await page.getByTestId('crud-delete').click();
    await confirmWrite(page, '/api/blade-user/remove');
    await expect.poll(() => rows(page).count()).toBe(0);
    await screenshot(page, 'system-user-deleted');
    await context.close();
  });
});
