import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, poll, signIn, useBrowser } from '../support/browser';

const browser = useBrowser();

/** What has the keyboard focus: its tag and whether it sits in the add/edit dialog. */
const focused = (page: Page) =>
  page.evaluate(() => ({
    tag: document.activeElement?.tagName ?? '',
    inDialog: !!document.activeElement?.closest('.mes-crud-dialog'),
    id: document.activeElement?.id ?? '',
  }));

describe('dialogs for keyboard users', () => {
  it('a new-row dialog takes focus to its first field, and Enter in a field saves it', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.goto('/system/post');
    const screen = page.locator('[data-screen="/system/post"]');
    await screen.getByTestId('crud-add').click();
    await crudDialog(page).locator('#crud-form_postCode').waitFor();
    // The first field of 岗位管理 is its category (a select): the focus lands there, in the dialog.
    await poll(() => focused(page)).toMatchObject({ tag: 'INPUT', inDialog: true, id: 'crud-form_category' });

    await crudDialog(page).locator('#crud-form_postCode').fill('kb01');
    await crudDialog(page).locator('#crud-form_postName').fill('键盘岗位');
    const saved = page.waitForResponse((r) => r.url().includes('/blade-system/post/submit'));
    await crudDialog(page).locator('#crud-form_postName').press('Enter');
    expect((await saved).status()).toBe(200);
    await crudDialog(page).waitFor({ state: 'hidden' });
    await poll(() => screen.locator('.ant-table-row', { hasText: 'kb01' }).count()).toBe(1);
    // The browser specs share one database: leave the posts as they were for the others.
    const { data: id } = (await (await saved).json()) as { data: string };
    expect((await callApi(page, `/api/blade-system/post/remove?ids=${id}`, {})).success).toBe(true);
    await context.close();
  });

  it('a field chosen before the dialog places its own focus keeps the focus and what is typed', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.goto('/system/post');
    const screen = page.locator('[data-screen="/system/post"]');
    await screen.locator('.ant-table-row').first().waitFor();
    // A quick user (or a slow machine delaying the dialog's timer): 岗位名称 is focused the
    // moment it appears, before the dialog's own first-field focus runs.
    await page.evaluate(() => {
      const observer = new MutationObserver(() => {
        const name = document.querySelector<HTMLInputElement>('#crud-form_postName');
        if (!name) return;
        observer.disconnect();
        name.focus();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await screen.getByTestId('crud-add').click();
    await crudDialog(page).locator('#crud-form_postName').waitFor();
    await page.waitForTimeout(300);
    expect(await focused(page)).toMatchObject({ inDialog: true, id: 'crud-form_postName' });
    await page.keyboard.type('abc');
    expect(await crudDialog(page).locator('#crud-form_postName').inputValue()).toBe('abc');
    await context.close();
  });

  it('Enter with a required field empty shows its message and saves nothing', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.goto('/system/post');
    const screen = page.locator('[data-screen="/system/post"]');
    await screen.getByTestId('crud-add').click();
    await crudDialog(page).locator('#crud-form_postName').waitFor();
    let submitted = false;
    page.on('request', (r) => {
      if (r.url().includes('/post/submit')) submitted = true;
    });
    await crudDialog(page).locator('#crud-form_postName').fill('只有名称');
    await crudDialog(page).locator('#crud-form_postName').press('Enter');
    await poll(() => crudDialog(page).innerText()).toContain('请输入岗位编号');
    expect(submitted).toBe(false);
    await context.close();
  });
});
