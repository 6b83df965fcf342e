import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { openMenuScreen } from '../support/shell';

const browser = useBrowser();

const rows = (scope: Locator) => scope.locator('[data-testid="crud-table"] tbody tr.ant-table-row');
const rowOf = (scope: Locator, text: string) => rows(scope).filter({ hasText: text });
/** The add / edit dialog on top (the entry list's dialog opens over the 字典配置 dialog). */
const formDialog = (page: Page) => page.locator('.mes-crud-dialog').last();
const field = (page: Page, name: string) => formDialog(page).locator(`#crud-form_${name}`);
const explain = (page: Page, name: string) =>
  formDialog(page)
    .locator('.ant-form-item')
    .filter({ has: page.locator(`#crud-form_${name}`) })
    .locator('.ant-form-item-explain');

describe('dictionaries', () => {
  it('adds a dictionary, then adds and edits its entries with code and parent fixed', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openMenuScreen(page, '/system/dict');
    const screen = page.getByTestId('dict-screen');
    await screen.waitFor();
    await expect.poll(() => rows(screen).count(), { timeout: 15_000 }).toBeGreaterThan(0);

    // A dictionary: spec section 5's messages come from the definition.
    await screen.getByTestId('crud-add').click();
    await formDialog(page).waitFor();
    expect(await field(page, 'dictKey').count()).toBe(0);
    await formDialog(page).getByTestId('crud-dialog-submit').click();
    await expect.poll(() => explain(page, 'code').textContent()).toBe('请输入字典编号');
    await expect.poll(() => explain(page, 'dictValue').textContent()).toBe('请输入字典名称');
    await field(page, 'code').fill('e2e_level');
    await field(page, 'dictValue').fill('测试等级');
    await screenshot(page, 'system-dict-parent-add');
    await formDialog(page).getByTestId('crud-dialog-submit').click();
    await formDialog(page).waitFor({ state: 'hidden' });
    await screen.locator('#crud-search_code').fill('e2e_level');
    await screen.getByTestId('crud-search-submit').click();
    await expect.poll(() => rows(screen).count()).toBe(1);

    // 字典配置: the entries of that dictionary.
    await rowOf(screen, 'e2e_level').getByTestId('dict-child-config').click();
    const children = page.getByTestId('dict-child-dialog');
    await children.waitFor();
    await children.getByTestId('crud-table').getByTestId('crud-empty').waitFor();
    await children.getByTestId('crud-add').click();
    await formDialog(page).waitFor();
    await expect.poll(() => field(page, 'code').inputValue()).toBe('e2e_level');
    expect(await field(page, 'code').isDisabled()).toBe(true);
    expect(await field(page, 'parentId').isDisabled()).toBe(true);
    await field(page, 'dictKey').fill('');
    await field(page, 'dictKey').blur();
    await expect.poll(() => explain(page, 'dictKey').textContent()).toBe('请输入字典键值');
    await field(page, 'dictKey').fill('1');
    await field(page, 'dictValue').fill('一级');
    await screenshot(page, 'system-dict-child-add');
    await formDialog(page).getByTestId('crud-dialog-submit').click();
    await expect.poll(() => rowOf(children, '一级').count()).toBe(1);

    // Edit: the code stays fixed, the name changes.
    await rowOf(children, '一级').getByTestId('crud-row-edit').click();
    await expect.poll(() => field(page, 'dictValue').inputValue()).toBe('一级');
    expect(await field(page, 'code').isDisabled()).toBe(true);
    await field(page, 'dictValue').fill('一级警告');
    await formDialog(page).getByTestId('crud-dialog-submit').click();
    await expect.poll(() => rowOf(children, '一级警告').count()).toBe(1);
    await screenshot(page, 'system-dict-children');
    await context.close();
  });

  for (const layout of ['horizontal', 'vertical'] as const) {
    it(`shows the dictionaries and the chosen one's entries (${layout})`, async () => {
      const { context, page } = await newPage(browser());
      await signIn(page);
      await page.goto(`/dict-${layout}/index`);
      await page.getByTestId(`dict-${layout}`).waitFor();
      const parents = page.getByTestId('dict-parent-panel');
      const entries = page.getByTestId('dict-child-panel');
      await entries.getByTestId('dict-choose-parent').waitFor();
      await expect.poll(() => rowOf(parents, 'sex').count(), { timeout: 15_000 }).toBe(1);
      await rowOf(parents, 'sex').getByTestId('dict-show-children').click();
      await expect.poll(() => rowOf(entries, '男').count()).toBe(1);
      await expect.poll(() => rowOf(entries, '女').count()).toBe(1);
      // Paging the dictionaries keeps the entries shown and settles the URL (two lists, one URL).
      await parents.locator('.ant-pagination-item-2').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('current')).toBe('2');
      const settled = page.url();
      await page.waitForTimeout(500);
      expect(page.url()).toBe(settled);
      await expect.poll(() => rowOf(entries, '男').count()).toBe(1);
      await screenshot(page, `system-dict-${layout}`);
      await context.close();
    });
  }
});
