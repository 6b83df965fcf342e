import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { openMenuScreen } from '../support/shell';

const browser = useBrowser();

/** Seeded ids (seed-menus.ts): the 系统管理 group, its 用户管理 screen and that screen's read scope. */
const SYSTEM_GROUP = '1000000000000200000';
const USER_MENU = '1000000000000200100';
const USER_READ_SCOPE = '1000000000000200150';

const rows = (page: Page) => page.locator('[data-testid="crud-table"] tbody tr.ant-table-row');
/** The table row whose name cell is exactly `name`. */
const roleRow = (page: Page, name: string) =>
  rows(page).filter({ has: page.locator('td', { hasText: new RegExp(`^${name}$`) }) });

/** The tree node titled exactly `title` inside one tab's tree. */
const node = (tree: Locator, title: string) =>
  tree
    .locator('.ant-tree-treenode')
    .filter({ has: tree.page().locator('.ant-tree-title', { hasText: new RegExp(`^${title}$`) }) });
const isChecked = async (n: Locator) =>
  (await n.locator('.ant-tree-checkbox').getAttribute('class'))?.includes('ant-tree-checkbox-checked') ?? false;

/**
 * The node titled `title`, scrolled into the tree's virtual list first: the list renders only the
 * rows in view, and the groups above (我的事务 with its screens) push later rows out of it.
 */
async function scrolledTo(tree: Locator, title: string): Promise<Locator> {
  const wanted = node(tree, title);
  for (let step = 0; step < 40 && !(await wanted.count()); step++)
    await tree.locator('.ant-tree-list-holder').evaluate((el) => el.scrollBy(0, 120));
  return wanted;
}

async function openGrant(page: Page) {
  await roleRow(page, '用户').getByTestId('role-setting').click();
  await page.getByTestId('role-grant-dialog').waitFor();
  await page.getByTestId('role-grant-tree-menu').waitFor();
}

describe('role grant dialog', () => {
  it('grants a menu and an API scope to 用户 and shows them checked when reopened', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openMenuScreen(page, '/authority/role');
    await page.getByTestId('role-screen').waitFor();
    await expect.poll(() => roleRow(page, '用户').count(), { timeout: 15_000 }).toBe(1);

    await openGrant(page);
    const menuTree = page.getByTestId('role-grant-tree-menu');
    await node(menuTree, '用户管理').locator('.ant-tree-checkbox').click();
    await page.getByTestId('role-grant-tab-apiScope').click();
    const apiTree = page.getByTestId('role-grant-tree-apiScope');
    await apiTree.waitFor();
    await node(apiTree, '用户管理查询').locator('.ant-tree-checkbox').click();
    await screenshot(page, 'system-role-grant');

    const sent = page.waitForRequest((r) => r.url().includes('/api/blade-system/role/grant'));
    await page.getByTestId('role-grant-save').click();
    const form = new URLSearchParams((await sent).postData() ?? '');
    const menuIds = (form.get('menuIds') ?? '').split(',');
    // The screen with its buttons, and the group above it (half-checked) so the menu shows.
    expect(menuIds).toContain(USER_MENU);
    expect(menuIds).toContain(SYSTEM_GROUP);
    expect(form.get('apiScopeIds')).toBe(USER_READ_SCOPE);
    await page.getByTestId('role-grant-dialog').waitFor({ state: 'hidden' });

    await openGrant(page);
    await expect.poll(() => isChecked(node(menuTree, '用户管理'))).toBe(true);
    expect(await isChecked(await scrolledTo(menuTree, '部门管理'))).toBe(false);
    await page.getByTestId('role-grant-tab-apiScope').click();
    await expect.poll(() => isChecked(node(apiTree, '用户管理查询'))).toBe(true);
    expect(await isChecked(node(apiTree, '用户管理维护'))).toBe(false);
    await screenshot(page, 'system-role-grant-reopened');
    await context.close();
  });
});
