import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { connectDevice, openDeviceLive, type DeviceSecret } from '../support/device';
import { goInApp, presetSetting } from '../support/shell';

/**
 * Issue 28 point 2, "names, not numbers", in the browser: a product whose `phase` names its
 * values, a device that reports phase 3; the live page, its raw rows and acquisition data read
 * 灭菌 / Sterilising with the number kept beside it, and the product form lists the names as rows.
 */

const browser = useBrowser();
const PRODUCT = '/api/basic/product';
const DEVICE = '/api/basic/device';
const stamp = Date.now().toString(36);
const productCode = `E2E-ENUM-${stamp}`;
const deviceCode = `e2e-enum-${stamp}`;

let productId: string | undefined;
let deviceId: string | undefined;
let device: MqttClient | undefined;

const PHASES = [
  { value: '3', zh: '灭菌', en: 'Sterilising' },
  { value: '5', zh: '干燥', en: 'Drying' },
];

const publish = (values: Record<string, number>) =>
  new Promise<void>((resolve, reject) => {
    if (!device) throw new Error('the device connects in beforeAll');
    device.publish(`mes/000000/${deviceCode}/telemetry`, JSON.stringify({ values }), { qos: 1 }, (error) =>
      error ? reject(error) : resolve(),
    );
  });

describe('names of enumerated values (issue 28 point 2)', () => {
  beforeAll(async () => {
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      const product = await callApi<string>(page, `${PRODUCT}/submit`, {
        productCode,
        productName: `e2e枚举${stamp}`,
        category: 2,
        protocol: 'mqtt-json',
        inactivitySeconds: 600,
        fields: [
          { fieldKey: 'temp', fieldName: '温度', dataType: 'float', unit: '℃', precision: 1, access: 'r' },
          {
            fieldKey: 'phase',
            fieldName: '阶段',
            dataType: 'enum',
            unit: '',
            precision: 0,
            access: 'r',
            enumeration: PHASES,
          },
        ],
      });
      expect(product.success, product.msg).toBe(true);
      productId = (
        await callApi<{ records: { id: string }[] }>(page, `${PRODUCT}/list?productCode_equal=${productCode}`)
      ).data.records[0]?.id;
      const added = await callApi(page, `${DEVICE}/submit`, {
        deviceCode,
        deviceName: `e2e枚举设备${stamp}`,
        productId,
      });
      expect(added.success, added.msg).toBe(true);
      deviceId = (await callApi<{ records: { id: string }[] }>(page, `${DEVICE}/list?deviceCode_equal=${deviceCode}`))
        .data.records[0]?.id;
      const secret = await callApi<DeviceSecret>(page, `${DEVICE}/rotate-secret?id=${deviceId}&first=1`, {});
      expect(secret.success, secret.msg).toBe(true);
      device = await connectDevice(secret.data);
      await publish({ temp: 134.2, phase: 3 });
    } finally {
      await context.close();
    }
  });

  afterAll(async () => {
    await device?.endAsync();
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      if (deviceId) await callApi(page, `${DEVICE}/remove?ids=${deviceId}`, {});
      if (productId) await callApi(page, `${PRODUCT}/remove?ids=${productId}`, {});
    } finally {
      await context.close();
    }
  });

  it('the live page, its raw rows and acquisition data show the name with the number, in Chinese and English', async () => {
    for (const [lang, name] of [
      ['zh', '灭菌'],
      ['en', 'Sterilising'],
    ] as const) {
      const { context, page } = await newPage(browser());
      try {
        await presetSetting(page, 'language', lang);
        await signIn(page);
        const live = await openDeviceLive(page, deviceCode);
        await poll(() => live.getByTestId('iot-value-phase').innerText()).toBe(name);
        expect(await live.getByTestId('iot-raw-phase').innerText()).toBe('3');
        // A field without names reads as before.
        expect(await live.getByTestId('iot-value-temp').innerText()).toBe('134.2');
        await poll(() => live.getByTestId('iot-rows').innerText()).toContain(`${name} (3)`);
        await screenshot(page, `model-enums-live-${lang}`);

        await goInApp(page, '/report/acqdata');
        const acq = page.locator('[data-screen="/report/acqdata"]');
        await poll(() => acq.locator('.ant-table-row', { hasText: deviceCode }).first().innerText()).toContain(
          `phase: ${name} (3)`,
        );
      } finally {
        await context.close();
      }
    }
  });

  it('a new value is named as it arrives; the product form edits the names as rows, refusing a repeated value', async () => {
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      const live = await openDeviceLive(page, deviceCode);
      await poll(() => live.getByTestId('iot-value-phase').innerText()).toBe('灭菌');
      await publish({ phase: 5 });
      await poll(() => live.getByTestId('iot-value-phase').innerText()).toBe('干燥');
      // A value the field does not name shows as the number.
      await publish({ phase: 4 });
      await poll(() => live.getByTestId('iot-value-phase').innerText()).toBe('4');

      await goInApp(page, '/device/product');
      const screen = page.locator('[data-screen="/device/product"]');
      const row = screen.locator('.ant-table-row', { hasText: productCode });
      await row.waitFor();
      await row.getByTestId('crud-row-edit').click();
      // The model sub-table's enumeration cells: none for the temperature, two names for the phase.
      const cells = crudDialog(page).getByTestId('child-cell-fields-enumeration');
      await poll(() => cells.nth(0).innerText()).toContain('未设置');
      const open = cells.nth(1).getByTestId('json-list-open');
      expect(await open.innerText()).toContain('2 项');
      await open.click();
      const dialog = page.getByTestId('json-list-dialog');
      await poll(() => dialog.getByTestId('json-list-zh').first().inputValue()).toBe('灭菌');
      expect(await dialog.getByTestId('json-list-en').nth(1).inputValue()).toBe('Drying');
      await screenshot(page, 'model-enums-form-zh');

      // A repeated value is refused on the cell, with the shared check's words; then a rename saves.
      await dialog.getByTestId('json-list-add').click();
      await dialog.getByTestId('json-list-value').nth(2).fill('3');
      await dialog.getByTestId('json-list-zh').nth(2).fill('重复');
      await dialog.getByTestId('json-list-en').nth(2).fill('Again');
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await dialog.waitFor({ state: 'hidden' });
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await poll(() => crudDialog(page).innerText()).toContain('[2].value 与第 1 项重复');
      await cells.nth(1).getByTestId('json-list-open').click();
      await dialog.locator('.ant-table-row').nth(2).getByRole('button').click();
      await dialog.getByTestId('json-list-en').nth(1).fill('Drying off');
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await dialog.waitFor({ state: 'hidden' });
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await crudDialog(page).waitFor({ state: 'detached' });
      const detail = await callApi<{ fields: { fieldKey: string; enumeration: unknown }[] }>(
        page,
        `${PRODUCT}/detail?id=${productId}`,
      );
      expect(detail.data.fields.find((f) => f.fieldKey === 'phase')?.enumeration).toEqual([
        PHASES[0],
        { value: '5', zh: '干燥', en: 'Drying off' },
      ]);
    } finally {
      await context.close();
    }
  });
});
