import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp } from '../support/shell';

const browser = useBrowser();

const PRODUCT = '/api/basic/product';
const DEVICE = '/api/basic/device';
const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();
const openDropdown = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';
const fieldCells = (page: Page, field: string) => crudDialog(page).getByTestId(`child-cell-fields-${field}`);
const secretDialog = (page: Page) => page.getByTestId('device-secret-dialog');
const shownSecret = (page: Page) => page.getByTestId('device-secret-value').innerText();

describe('devices', () => {
  it('adds a product with two model fields, a device of it, and shows its MQTT secret once per rotation', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const stamp = Date.now().toString(36);
    const productName = `e2e产品${stamp}`;
    const deviceCode = `e2e-${stamp}`;
    let productId: string | undefined;
    let deviceId: string | undefined;
    try {
      // The product, its thing model typed into the sub-table.
      await goInApp(page, '/device/product');
      const products = page.locator('[data-screen="/device/product"]');
      await products.getByTestId('crud-add').click();
      await crudDialog(page).locator('#crud-form_productCode').fill(`E2E-${stamp}`);
      await crudDialog(page).locator('#crud-form_productName').fill(productName);
      await crudDialog(page).getByTestId('child-add-fields').click();
      await crudDialog(page).getByTestId('child-add-fields').click();
      await poll(() => fieldCells(page, 'fieldKey').count()).toBe(2);
      await fieldCells(page, 'fieldKey').nth(0).locator('input').fill('chlorine');
      await fieldCells(page, 'fieldName').nth(0).locator('input').fill('有效氯');
      await fieldCells(page, 'fieldKey').nth(1).locator('input').fill('waterTemp');
      await fieldCells(page, 'fieldName').nth(1).locator('input').fill('水温');
      await screenshot(page, 'device-product-form');
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await toast(page, '新增成功').waitFor();
      await crudDialog(page).waitFor({ state: 'detached' });
      const found = await callApi<{ records: { id: string }[] }>(
        page,
        `${PRODUCT}/list?productName=${encodeURIComponent(productName)}`,
      );
      productId = found.data.records[0]?.id;
      const product = await callApi<{ fields: { fieldKey: string; dataType: string }[] }>(
        page,
        `${PRODUCT}/detail?id=${productId}`,
      );
      expect(product.data.fields.map((f) => f.fieldKey)).toEqual(['chlorine', 'waterTemp']);

      // The device: right after the add the screen shows its first secret.
      await goInApp(page, '/device/device');
      const devices = page.locator('[data-screen="/device/device"]');
      await devices.getByTestId('crud-add').click();
      await crudDialog(page).locator('#crud-form_deviceCode').fill(deviceCode);
      await crudDialog(page).locator('#crud-form_deviceName').fill(`e2e设备${stamp}`);
      await crudDialog(page)
        .locator('.ant-form-item', { has: page.locator('#crud-form_productId') })
        .locator('.ant-select-selector')
        .click();
      await page.locator(`${openDropdown} .ant-select-item-option`, { hasText: productName }).click();
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await toast(page, '新增成功').waitFor();
      await secretDialog(page).waitFor();
      const first = await shownSecret(page);
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      const clientId = await page.getByTestId('device-secret-client').innerText();
      expect(clientId).toMatch(/^d_[0-9a-f]{16}$/);
      expect(await page.getByTestId('device-secret-topic').innerText()).toBe(`mes/000000/${deviceCode}/`);
      // The dialog's opening animation ends before the picture.
      await page.waitForTimeout(400);
      await screenshot(page, 'device-secret-dialog-zh');
      await page.getByTestId('device-secret-close').click();
      await secretDialog(page).waitFor({ state: 'hidden' });

      const row = devices.locator('.ant-table-row', { hasText: deviceCode });
      await poll(() => row.count()).toBe(1);
      const list = await callApi<{ records: { id: string; mqttClientId: string }[] }>(
        page,
        `${DEVICE}/list?deviceCode=${deviceCode}`,
      );
      deviceId = list.data.records[0]?.id;
      expect(list.data.records[0]?.mqttClientId).toBe(clientId);
      // Shown once: no reply carries it afterwards.
      const detail = await callApi<Record<string, unknown>>(page, `${DEVICE}/detail?id=${deviceId}`);
      expect(JSON.stringify(detail.data)).not.toContain(first);

      // 密钥 on the row: a confirm, then a new secret, shown once.
      await row.getByTestId('device-secret').click();
      await page.locator('.ant-modal-confirm .ant-btn-primary').click();
      await secretDialog(page).waitFor();
      const second = await shownSecret(page);
      expect(second).toMatch(/^[0-9a-f]{64}$/);
      expect(second).not.toBe(first);
      await page.getByTestId('device-secret-close').click();
      await secretDialog(page).waitFor({ state: 'hidden' });
      await screenshot(page, 'device-list-zh');

      // The PLC variable form, for a person to look at.
      await goInApp(page, '/device/plcvariable');
      await page.locator('[data-screen="/device/plcvariable"]').getByTestId('crud-add').click();
      await crudDialog(page).locator('#crud-form_address').waitFor();
      await page.waitForTimeout(400);
      await screenshot(page, 'device-plcvariable-form');
      await crudDialog(page).getByTestId('crud-dialog-cancel').click();
      await crudDialog(page).waitFor({ state: 'detached' });
    } finally {
      // The spec's data goes, also when a step above failed half-way.
      if (!deviceId) {
        const left = await callApi<{ records: { id: string }[] }>(page, `${DEVICE}/list?deviceCode=${deviceCode}`);
        deviceId = left.data?.records?.[0]?.id;
      }
      if (deviceId) await callApi(page, `${DEVICE}/remove?ids=${deviceId}`, {});
      if (productId) await callApi(page, `${PRODUCT}/remove?ids=${productId}`, {});
      await context.close();
    }
  });

  it('fits the device screen on a phone (375 px)', async () => {
    const { context, page } = await newPage(browser(), { width: 375, height: 812 });
    try {
      await signIn(page);
      await goInApp(page, '/device/device');
      await page.locator('[data-screen="/device/device"]').getByTestId('crud-add').waitFor();
      await screenshot(page, 'device-list-zh-375');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
});
