import type { MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { connectDevice, openDeviceLive, type DeviceSecret } from '../support/device';
import { goInApp, openMenuScreen, presetSetting } from '../support/shell';

const browser = useBrowser();

const PRODUCT = '/api/basic/product';
const DEVICE = '/api/basic/device';

const stamp = Date.now().toString(36);
/** Points of the water temperature's history: more than the 600 the chart asks for. */
const HISTORY_POINTS = 700;
const deviceCode = `e2e-iot-${stamp}`;
const livePath = `/device/iot/${deviceCode}`;

let productId: string | undefined;
let deviceId: string | undefined;
let device: MqttClient | undefined;

async function shoot(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
}

/** A PUBACK that never comes means ingestion is not committing: say so instead of a hook timeout. */
const PUBACK_WAIT_MS = 60_000;

/** QoS 1: the broker acknowledges once the batch holding the message is committed (docs/mqtt.md). */
const publish = (values: Record<string, number | boolean>, ts = Date.now()) =>
  new Promise<void>((resolve, reject) => {
    if (!device) throw new Error('the device connects in beforeAll');
    const stuck = setTimeout(
      () => reject(new Error('no PUBACK: the server did not commit the telemetry (see its log)')),
      PUBACK_WAIT_MS,
    );
    device.publish(`mes/000000/${deviceCode}/telemetry`, JSON.stringify({ ts, values }), { qos: 1 }, (error) => {
      clearTimeout(stuck);
      if (error) reject(error);
      else resolve();
    });
  });

const valueOf = (page: Page, field: string) => page.getByTestId(`iot-value-${field}`).innerText();
const chartCanvas = (page: Page) => page.locator('[data-testid="iot-chart"] canvas');
/** The horizontal overflow of the page: > 0 means the phone user scrolls sideways. */
const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('IoT live device page', () => {
  beforeAll(async () => {
    // The product, device and secret through the API, as the product and device screens would.
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      const product = await callApi<string>(page, `${PRODUCT}/submit`, {
        productCode: `E2E-IOT-${stamp}`,
        productName: `e2e物联${stamp}`,
        category: 1,
        protocol: 'mqtt-json',
        inactivitySeconds: 600,
        fields: [
          { fieldKey: 'chlorine', fieldName: '有效氯', dataType: 'float', unit: 'mg/L', precision: 2, access: 'r' },
          { fieldKey: 'waterTemp', fieldName: '水温', dataType: 'float', unit: '℃', precision: 1, access: 'r' },
          { fieldKey: 'phase', fieldName: '阶段', dataType: 'int', unit: '', precision: 0, access: 'r' },
          { fieldKey: 'level', fieldName: '液位', dataType: 'float', unit: '%', precision: 0, access: 'r' },
          { fieldKey: 'door', fieldName: '门开', dataType: 'bool', unit: '', precision: 0, access: 'r' },
        ],
      });
      expect(product.success, product.msg).toBe(true);
      const products = await callApi<{ records: { id: string }[] }>(
        page,
        `${PRODUCT}/list?productCode_equal=E2E-IOT-${stamp}`,
      );
      productId = products.data.records[0]?.id;
      expect(productId).toBeTruthy();
      const added = await callApi(page, `${DEVICE}/submit`, {
        deviceCode,
        deviceName: `e2e实时设备${stamp}`,
        productId,
      });
      expect(added.success, added.msg).toBe(true);
      const devices = await callApi<{ records: { id: string }[] }>(
        page,
        `${DEVICE}/list?deviceCode_equal=${deviceCode}`,
      );
      deviceId = devices.data.records[0]?.id;
      expect(deviceId).toBeTruthy();
      const secret = await callApi<DeviceSecret>(page, `${DEVICE}/rotate-secret?id=${deviceId}&first=1`, {});
      expect(secret.success, secret.msg).toBe(true);
      device = await connectDevice(secret.data);
      await publish({ chlorine: 42.5, waterTemp: 36.64, phase: 2 });
      // A value last reported 20 minutes ago: stale on the page.
      await publish({ level: 80 }, Date.now() - 20 * 60_000);
      // A history of the water temperature over the past days, more points than the chart asks
      // for (600): a week is then downsampled by the server into buckets with a min–max band.
      const now = Date.now();
      await Promise.all(
        Array.from({ length: HISTORY_POINTS }, (_, i) =>
          publish(
            { waterTemp: Math.round((36 + 3 * Math.sin(i / 25) + (i % 7) * 0.2) * 10) / 10 },
            now - 2 * 3_600_000 - i * Math.floor((5 * 86_400_000) / HISTORY_POINTS),
          ),
        ),
      );
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

  it('lists the device on 物联网数据, shows its values and follows new ones without a reload', async () => {
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      // The welcome page's device figures count the new device.
      const total = page.getByTestId('wel-device-counts-total').locator('.ant-statistic-content-value');
      await poll(async () => Number((await total.innerText()).replace(/,/g, ''))).toBeGreaterThanOrEqual(1);
      await shoot(page, 'iot-welcome-zh');

      await goInApp(page, '/device/iot');
      const screen = page.getByTestId('iot-screen');
      await screen.getByTestId('iot-counts').waitFor();
      // antd's search box carries the test id on its input.
      await screen.getByTestId('iot-devices-search').fill(deviceCode);
      await screen.getByTestId('iot-devices-search').press('Enter');
      const open = screen.getByTestId(`iot-open-${deviceCode}`);
      await open.waitFor();
      // The device connected with its secret: the list says it is online.
      await poll(() =>
        screen.locator('.ant-table-row', { hasText: deviceCode }).getByTestId('iot-online').getAttribute('data-online'),
      ).toBe('true');
      await shoot(page, 'iot-overview-zh');
      await open.click();
      await page.waitForURL(`**${livePath}`);

      const live = page.locator(`[data-screen="${livePath}"]`).getByTestId('iot-live');
      await live.waitFor();
      await poll(() => valueOf(page, 'chlorine')).toBe('42.50');
      expect(await valueOf(page, 'waterTemp')).toBe('36.6');
      expect(await live.getByTestId('iot-card-chlorine').innerText()).toContain('mg/L');
      // Old values are dimmed and say their age; a field never reported says so.
      expect(await live.getByTestId('iot-card-level').getAttribute('data-stale')).toBe('true');
      expect(await live.getByTestId('iot-age-level').innerText()).toMatch(/2\d 分钟前/);
      expect(await live.getByTestId('iot-card-chlorine').getAttribute('data-stale')).toBe('false');
      expect(await live.getByTestId('iot-card-door').innerText()).toContain('暂无数据');
      await expect.poll(() => live.getByTestId('iot-age-chlorine').innerText()).toMatch(/刚刚|秒前/);
      expect(await live.getByTestId('iot-head').innerText()).toContain(`e2e物联${stamp}`);
      await expect(live.getByTestId('iot-online').getAttribute('data-online')).resolves.toBe('true');
      // The tab is the device's own: two open devices are told apart by their codes.
      await poll(() => page.locator('[data-testid="tab-bar"] .ant-tabs-tab-active').innerText()).toBe(
        `设备实时数据 · ${deviceCode}`,
      );

      // A new value reaches the page without a reload (the marker would be gone after one).
      await page.evaluate(() => Object.assign(window, { iotMarker: 'kept' }));
      await publish({ chlorine: 43.25 });
      await poll(() => valueOf(page, 'chlorine')).toBe('43.25');
      expect(await page.evaluate(() => (window as unknown as { iotMarker?: string }).iotMarker)).toBe('kept');

      // The chart draws the chosen field (the first numeric one) on a canvas.
      await poll(() => chartCanvas(page).count()).toBeGreaterThan(0);
      await poll(() => page.getByTestId('iot-chart-card').innerText()).toMatch(/原始数据 \d+ 个点/);
      // The raw rows hold the published values.
      await poll(() => live.getByTestId('iot-rows').locator('.ant-table-row').count()).toBeGreaterThanOrEqual(4);

      // Another field and range: the chart follows.
      await live.getByTestId('iot-card-waterTemp').click();
      await expect.poll(() => live.getByTestId('iot-card-waterTemp').getAttribute('aria-pressed')).toBe('true');
      await live.getByTestId('iot-chart-range').getByText('24 小时').click();
      await poll(() => chartCanvas(page).count()).toBeGreaterThan(0);
      // A week is downsampled by the server: the caption says the bucket width.
      await live.getByTestId('iot-chart-range').getByText('7 天').click();
      await poll(() => page.getByTestId('iot-chart-card').innerText()).toMatch(/每 \d+ (分钟|小时)一个点/);
      await poll(() => chartCanvas(page).count()).toBeGreaterThan(0);
      await page.waitForTimeout(500);
      await page.getByTestId('iot-chart-card').scrollIntoViewIfNeeded();
      await shoot(page, 'iot-live-zh-week');
      await live.getByTestId('iot-chart-range').getByText('自定义').click();
      // antd's range picker carries the test id on both of its inputs.
      await live.getByTestId('iot-chart-dates').first().waitFor();
      await live.getByTestId('iot-chart-range').getByText('1 小时').click();
      await live.getByTestId('iot-card-chlorine').click();
      // Let the chart settle before the picture.
      await page.waitForTimeout(500);
      await shoot(page, 'iot-live-zh');
      await live.getByTestId('iot-rows').scrollIntoViewIfNeeded();
      await shoot(page, 'iot-live-zh-rows');

      // The message log shows the payload as indented JSON.
      await goInApp(page, '/report/mqtt');
      const messages = page.locator('[data-screen="/report/mqtt"]');
      const row = messages.locator('.ant-table-row', { hasText: deviceCode }).first();
      await row.waitFor();
      // The live tab, now hidden, stops asking for values (its screen stays, its effects rest).
      let polled = 0;
      page.on('request', (request) => {
        if (request.url().includes('/api/blade-business/iot/model-data')) polled += 1;
      });
      await page.waitForTimeout(5_000);
      expect(polled).toBe(0);
      await row.getByTestId('crud-row-view').click();
      const json = crudDialog(page).getByTestId('crud-json-view');
      await json.waitFor();
      const text = await json.innerText();
      expect(text).toContain('\n  "values": {\n');
      expect(await json.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
      await page.waitForTimeout(400);
      await shoot(page, 'iot-mqtt-payload-zh');
    } finally {
      await context.close();
    }
  });

  it('reads in English (on the dark theme)', async () => {
    const { context, page } = await newPage(browser());
    try {
      await presetSetting(page, 'language', 'en');
      await presetSetting(page, 'themeName', 'theme-dark');
      await signIn(page);
      const live = await openDeviceLive(page, deviceCode, 'url');
      await poll(() => live.innerText()).toContain('Latest values');
      await publish({ chlorine: 44.75, waterTemp: 37.2 });
      await poll(() => valueOf(page, 'chlorine')).toBe('44.75');
      await poll(() => live.getByTestId('iot-age-chlorine').innerText()).toMatch(/just now|s ago/);
      await poll(() => chartCanvas(page).count()).toBeGreaterThan(0);
      await poll(() => page.locator('[data-testid="tab-bar"] .ant-tabs-tab-active').innerText()).toBe(
        `Device live data · ${deviceCode}`,
      );
      await page.waitForTimeout(500);
      await shoot(page, 'iot-live-en-dark');
      // A device that does not exist: said plainly, with the way back.
      await openMenuScreen(page, '/device/iot/no-such-device');
      await poll(() => page.getByTestId('iot-live-missing').innerText()).toContain(
        'Device no-such-device does not exist',
      );
      await shoot(page, 'iot-live-missing-en');
    } finally {
      await context.close();
    }
  });

  it('fits a phone: cards wrap, the chart takes the width', async () => {
    const { context, page } = await newPage(browser(), { width: 375, height: 812 });
    try {
      await signIn(page);
      await openMenuScreen(page, '/device/iot');
      await page.getByTestId('iot-screen').getByTestId('iot-counts').waitFor();
      await page.getByTestId('iot-devices').locator('.ant-table-row').first().waitFor();
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      // Each device's connection is in sight, not behind a sideways scroll.
      const badge = await page.getByTestId('iot-devices').getByTestId('iot-online').first().boundingBox();
      expect((badge?.x ?? 999) + (badge?.width ?? 0)).toBeLessThanOrEqual(375);
      await shoot(page, 'iot-overview-zh-375');

      await openDeviceLive(page, deviceCode, 'url');
      await publish({ chlorine: 45.5 });
      await poll(() => valueOf(page, 'chlorine')).toBe('45.50');
      await poll(() => chartCanvas(page).count()).toBeGreaterThan(0);
      const width = await page.getByTestId('iot-chart').evaluate((el) => el.getBoundingClientRect().width);
      expect(width).toBeGreaterThan(250);
      expect(width).toBeLessThanOrEqual(375);
      // Two cards a row.
      const tops = await page
        .getByTestId('iot-cards')
        .locator('.mes-iot-card')
        .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
      expect(tops[0]).toBe(tops[1]);
      expect(tops[2]).toBeGreaterThan(tops[0] ?? 0);
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      await page.waitForTimeout(500);
      await shoot(page, 'iot-live-zh-375');
      await page.getByTestId('iot-chart-card').scrollIntoViewIfNeeded();
      await shoot(page, 'iot-live-zh-375-chart');
      await page.getByTestId('iot-rows').scrollIntoViewIfNeeded();
      await shoot(page, 'iot-live-zh-375-rows');
    } finally {
      await context.close();
    }
  });
});
