import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp } from '../support/shell';

const browser = useBrowser();

/** The form item of a field, by its input's id. */
const item = (page: Page, name: string) =>
  crudDialog(page).locator('.ant-form-item', { has: page.locator(`#crud-form_${name}`) });
const messageOf = (field: Locator) => field.locator('.ant-form-item-explain-error').allInnerTexts();

async function chooseProvider(page: Page, label: string): Promise<void> {
  await item(page, 'category').locator('.ant-select-selector').click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: label })
    .click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'hidden' });
}

async function openAdd(page: Page): Promise<void> {
  await goInApp(page, '/resource/oss');
  await page.locator('[data-screen="/resource/oss"]').getByTestId('crud-add').click();
  await crudDialog(page).locator('#crud-form_ossCode').waitFor();
}

describe('fields that depend on another field', () => {
  it('object storage: MinIO asks for its endpoint on blur, before saving; local disk hides it', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openAdd(page);
    // No provider chosen yet: the S3 settings are not asked for.
    expect(await crudDialog(page).locator('#crud-form_endpoint').count()).toBe(0);

    await chooseProvider(page, 'minio');
    const endpoint = item(page, 'endpoint');
    await endpoint.waitFor();
    // The required mark shows what is needed before anything is typed.
    await poll(() => endpoint.locator('.ant-form-item-required').count()).toBe(1);
    await crudDialog(page).locator('#crud-form_endpoint').focus();
    await crudDialog(page).locator('#crud-form_ossCode').focus();
    await poll(() => messageOf(endpoint)).toEqual(['请输入资源地址']);
    // Only Tencent COS takes an AppId.
    expect(await crudDialog(page).locator('#crud-form_appId').count()).toBe(0);
    await screenshot(page, 'crud-conditional-minio');

    // Saving marks every missing provider setting beside its field, and sends nothing.
    let submits = 0;
    page.on('request', (r) => void (r.url().includes('/oss/submit') && submits++));
    await crudDialog(page).locator('#crud-form_ossCode').fill('e2e-cond');
    await crudDialog(page).getByTestId('crud-dialog-submit').click();
    const missing: [string, string][] = [
      ['accessKey', '请输入AccessKey'],
      ['secretKey', '请输入SecretKey'],
      ['bucketName', '请输入空间名'],
    ];
    for (const [name, msg] of missing) await poll(() => messageOf(item(page, name))).toEqual([msg]);
    expect(submits).toBe(0);

    // Tencent COS needs the same, and shows its AppId.
    await chooseProvider(page, '腾讯云');
    await crudDialog(page).locator('#crud-form_appId').waitFor();
    await poll(() => messageOf(endpoint)).toEqual(['请输入资源地址']);

    // The local disk needs none of it: the settings and their messages go.
    await chooseProvider(page, '本地磁盘');
    await poll(() => crudDialog(page).locator('#crud-form_endpoint').count()).toBe(0);
    await poll(() => crudDialog(page).locator('.ant-form-item-explain-error').count()).toBe(0);
    await screenshot(page, 'crud-conditional-local');
    await context.close();
  });

  it('at 375 px the dialog takes the whole width and one column', async () => {
    const { context, page } = await newPage(browser(), { width: 375, height: 812 });
    await signIn(page);
    await openAdd(page);
    await chooseProvider(page, 'minio');
    await crudDialog(page).locator('#crud-form_endpoint').waitFor();
    const box = await crudDialog(page).boundingBox();
    expect(box?.x).toBe(0);
    expect(box?.width).toBe(375);
    // Every field has a row to itself: no two items share a line.
    const items = await crudDialog(page)
      .locator('.ant-form-item')
      .evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { top: Math.round(r.top), left: Math.round(r.left), width: Math.round(r.width) };
        }),
      );
    expect(items.length).toBeGreaterThan(5);
    expect(new Set(items.map((i) => i.top)).size).toBe(items.length);
    expect(new Set(items.map((i) => i.left)).size).toBe(1);
    for (const i of items) expect(i.width).toBeGreaterThan(300);
    await screenshot(page, 'crud-conditional-phone');
    await context.close();
  });
});
