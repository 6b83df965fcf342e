import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { openMenuScreen } from '../support/shell';

const browser = useBrowser();

const rows = (page: Page) => page.locator('[data-testid="crud-table"] tbody tr.ant-table-row');

/** Counts the API calls whose path and query contain `part`. */
function countCalls(page: Page, part: string): () => number {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(part)) seen.push(r.url());
  });
  return () => seen.length;
}

describe('the department tree beside the users', () => {
  it('is fetched once for the aside, the list and the form’s department picker', async () => {
    const { context, page } = await newPage(browser());
    const treeCalls = countCalls(page, '/api/blade-system/dept/tree');
    await signIn(page);
    await openMenuScreen(page, '/system/user');
    const aside = page.getByTestId('user-dept-tree');
    await aside.getByText('常州分公司').waitFor();
    await poll(() => rows(page).count()).toBeGreaterThan(0);
    // Both readers mounted with the screen; a second call would have gone out with the first.
    await page.waitForTimeout(800);
    expect(treeCalls()).toBe(1);

    // Narrowing by a department and opening the add form's picker reuse the same answer.
    await aside.getByText('常州分公司').click();
    await page.getByTestId('crud-add').click();
    const form = page.locator('.mes-crud-dialog');
    await form.waitFor();
    await form
      .locator('.ant-form-item')
      .filter({ has: page.locator('#crud-form_deptId') })
      .locator('.ant-select-selector')
      .click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: '机械集团' })
      .first()
      .waitFor();
    await screenshot(page, 'tree-aside-one-request');
    expect(treeCalls()).toBe(1);
    await context.close();
  });
});
