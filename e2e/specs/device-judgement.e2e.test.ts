import type { MqttClient } from 'mqtt';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { connectDevice, openDeviceLive, type DeviceSecret } from '../support/device';
import { goInApp, presetSetting } from '../support/shell';

/**
 * Issue 28 in the browser, points 1, 4 and 5: a steriliser whose product names its program, phase
 * and remaining-time fields, with a validated profile on program 1 and HH / H / LL limits on the
 * chamber temperature, reports a finished cycle and then runs program 1 again, all through the
 * embedded broker and the real ingestion path. The device list and the wall screen show it
 * disinfecting with its program, phase and time left; the record's 曲线 dialog shows F0, the hold
 * and the parametric result with the profile's band; the live chart lists its limit lines and the
 * program's band. In Chinese and English, on a desktop and a phone.
 */

const browser = useBrowser();
const PRODUCT = '/api/basic/product';
const DEVICE = '/api/basic/device';
const stamp = Date.now().toString(36);
const productCode = `E2E-JDG-${stamp}`;
const deviceCode = `e2e-jdg-${stamp}`;
const deviceName = `判定灭菌器${stamp}`;
const STEP_MS = 10_000;

let productId: string | undefined;
let deviceId: string | undefined;
let device: MqttClient | undefined;
let secret: DeviceSecret | undefined;
let recordNo = '';

const publish = (topic: 'telemetry' | 'cycle', body: unknown) =>
  new Promise<void>((resolve, reject) => {
    if (!device || !secret) throw new Error('the device connects in beforeAll');
    device.publish(`${secret.topicPrefix}/${topic}`, JSON.stringify(body), { qos: 1 }, (error) =>
      error ? reject(error) : resolve(),
    );
  });

/**
 * A finished cycle 40 minutes ago: a ramp, 25 points (240 s) at 134.5 ℃ and 212 kPa, cooling;
 * then the cycle message. Program 1's profile asks 180 s: it passes.
 */
async function finishedCycle() {
  const start = Date.now() - 40 * 60_000;
  const temperatures = [100, 110, 120, 125, 130, 133, ...Array<number>(25).fill(134.5), 120, 100];
  for (const [i, temperature] of temperatures.entries())
    await publish('telemetry', {
      ts: start + i * STEP_MS,
      values: { chamberTemp: temperature, chamberPressure: temperature >= 134 ? 212 : 80 },
    });
  await publish('cycle', {
    program: 1,
    programName: '134℃ 标准',
    start: new Date(start).toISOString(),
    end: new Date(start + (temperatures.length - 1) * STEP_MS).toISOString(),
    result: 'pass',
  });
}

/** The device runs program 1 now, in phase 3 with 842 s left; its temperature over the last minutes. */
async function runningNow() {
  const now = Date.now();
  for (let i = 10; i > 0; i -= 1)
    await publish('telemetry', { ts: now - i * STEP_MS, values: { chamberTemp: 134.2 + (i % 3) * 0.3 } });
  await publish('telemetry', {
    ts: now,
    values: { program: 1, phase: 3, remainingSeconds: 842, chamberTemp: 134.6, chamberPressure: 211 },
  });
}

const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Whether the element's text fits its box (nothing clipped by an ellipsis or overflow). */
const fits = (element: Locator) => element.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);

const WORDS = {
  zh: {
    disinfecting: '消毒中',
    cycle: '程序 1 · 阶段 3 · 剩余 1',
    f0: '分钟 (最低 3 分钟)',
    hold: '240 秒 (最低 180 秒)',
    pass: '合格',
    plateau: '134–137 ℃',
    limits: ['高高限 142.0 ℃', '高限 139.0 ℃', '低低限 90.0 ℃', '134℃ 标准(运行中)· 平台温度 134.0–137.0 ℃'],
  },
  en: {
    disinfecting: 'Disinfecting',
    cycle: 'Program 1 · phase 3 · 1',
    f0: 'min (min. 3 min)',
    hold: '240 s (min. 180 s)',
    pass: 'Pass',
    plateau: '134–137 ℃',
    limits: ['HH 142.0 ℃', 'H 139.0 ℃', 'LL 90.0 ℃', '134℃ 标准 (running) · plateau 134.0–137.0 ℃'],
  },
} as const;

describe('run state, the judged cycle and the chart’s limits (issue 28 points 1, 4, 5)', () => {
  beforeAll(async () => {
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      const product = await callApi<string>(page, `${PRODUCT}/submit`, {
        productCode,
        productName: `e2e判定${stamp}`,
        category: 2,
        protocol: 'mqtt-json',
        inactivitySeconds: 600,
        programField: 'program',
        phaseField: 'phase',
        remainingField: 'remainingSeconds',
        fields: [
          { fieldKey: 'chamberTemp', fieldName: '腔体温度', dataType: 'float', unit: '℃', precision: 1, access: 'r' },
          {
            fieldKey: 'chamberPressure',
            fieldName: '腔体压力',
            dataType: 'float',
            unit: 'kPa',
            precision: 1,
            access: 'r',
          },
          { fieldKey: 'program', fieldName: '程序', dataType: 'int', unit: '', precision: 0, access: 'r' },
          { fieldKey: 'phase', fieldName: '阶段', dataType: 'int', unit: '', precision: 0, access: 'r' },
          {
            fieldKey: 'remainingSeconds',
            fieldName: '剩余时间',
            dataType: 'int',
            unit: 's',
            precision: 0,
            access: 'r',
          },
        ],
        programs: [
          {
            programNo: 1,
            programName: '134℃ 标准',
            durationMinutes: 30,
            targetTemperature: '134',
            lethalityKind: 'F0',
            plateauMin: '134',
            plateauMax: '137',
            minHoldSeconds: 180,
            pressureMin: '200',
            pressureMax: '230',
            minLethality: '3',
          },
        ],
      });
      expect(product.success, product.msg).toBe(true);
      productId = String(product.data);
      const variable = await callApi(page, '/api/basic/plcvariable/submit', {
        productId,
        name: 'chamberTemp',
        label: '腔体温度',
        address: 'DB1,REAL0',
        dataType: 'FLOAT',
        unit: '℃',
        limitHh: '142',
        limitH: '139',
        limitLl: '90',
      });
      expect(variable.success, variable.msg).toBe(true);
      const added = await callApi(page, `${DEVICE}/submit`, { deviceCode, deviceName, productId });
      expect(added.success, added.msg).toBe(true);
      deviceId = String(added.data);
      const rotated = await callApi<DeviceSecret>(page, `${DEVICE}/rotate-secret?id=${deviceId}&first=1`, {});
      expect(rotated.success, rotated.msg).toBe(true);
      secret = rotated.data;
      device = await connectDevice(secret);
      await finishedCycle();
      await runningNow();
      // The records job makes the cycle's record after ingestion's commit (a minute at worst).
      const until = Date.now() + 60_000;
      while (!recordNo && Date.now() < until) {
        const found = await callApi<{ records: { recordNo: string; parametricResult: number | null }[] }>(
          page,
          `/api/blade-business/disinfection/page?deviceCode=${deviceCode}&size=5`,
        );
        recordNo = found.data.records.find((r) => r.parametricResult !== null)?.recordNo ?? '';
        if (!recordNo) await page.waitForTimeout(1_000);
      }
      expect(recordNo, 'no record of the cycle within a minute').not.toBe('');
    } finally {
      await context.close();
    }
  }, 120_000);

  afterAll(async () => {
    await device?.endAsync();
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      // The record stays (records are never deleted by hand); the device and product go.
      if (deviceId) await callApi(page, `${DEVICE}/remove?ids=${deviceId}`, {});
      if (productId) await callApi(page, `${PRODUCT}/remove?ids=${productId}`, {});
    } finally {
      await context.close();
    }
  });

  const cases = [
    { lang: 'zh', width: 1440, height: 900 },
    { lang: 'en', width: 1440, height: 900 },
    { lang: 'zh', width: 390, height: 844 },
    { lang: 'en', width: 390, height: 844 },
  ] as const;

  for (const { lang, width, height } of cases) {
    it(`shows the run state, the judged cycle and the chart's limits (${lang}, ${width}×${height})`, async () => {
      const words = WORDS[lang];
      const name = `device-judgement-${lang}-${width}`;
      const { context, page } = await newPage(browser(), { width, height });
      try {
        await presetSetting(page, 'language', lang);
        await signIn(page);

        // 1. The device list: disinfecting, with program, phase and time left (issue 28 point 1).
        await goInApp(page, '/device/iot');
        const screen = page.locator('[data-screen="/device/iot"]');
        await screen.getByTestId('iot-devices-search').fill(deviceCode);
        await screen.getByTestId('iot-devices-search').press('Enter');
        const row = screen.locator('.ant-table-row', { hasText: deviceCode });
        await poll(() => row.getByTestId('iot-run-state').innerText()).toBe(words.disinfecting);
        expect(await row.getByTestId('iot-cycle').innerText()).toContain(words.cycle);
        expect(await fits(row.getByTestId('iot-cycle'))).toBe(true);
        expect(await overflowX(page)).toBeLessThanOrEqual(0);
        await screenshot(page, `${name}-list`);

        // 2. The record's 曲线: F0, hold and result with the profile's band (issue 28 point 4).
        await goInApp(page, `/business/disinfection?recordNo=${recordNo}`);
        const records = page.locator('[data-screen="/business/disinfection"]');
        const record = records.locator('.ant-table-row', { hasText: recordNo });
        await record.getByTestId('disinfection-curve-open').click();
        const facts = page.getByTestId('disinfection-curve-facts');
        await facts.waitFor();
        await poll(() => page.getByTestId('curve-plateau').innerText()).toBe(words.plateau);
        expect(await facts.innerText()).toContain('F0');
        expect(await page.getByTestId('curve-lethality').innerText()).toContain(words.f0);
        expect(await page.getByTestId('curve-hold').innerText()).toBe(words.hold);
        expect(await page.getByTestId('curve-result').innerText()).toBe(words.pass);
        await page.getByTestId('disinfection-curve-chart').locator('canvas').first().waitFor();
        await page.waitForTimeout(400);
        await screenshot(page, `${name}-curve`);
        await page.locator('.ant-modal-close').last().click();

        // 3. The live chart: the temperature's limit lines and the running program's band (point 5).
        const live = await openDeviceLive(page, deviceCode);
        await live.getByTestId('iot-card-chamberTemp').click();
        const limits = live.getByTestId('iot-chart-limits');
        await poll(() => limits.innerText()).toContain(words.limits[0]);
        for (const text of words.limits) expect(await limits.innerText()).toContain(text);
        expect(await live.getByTestId('iot-cycle').innerText()).toContain(words.cycle);
        expect(await overflowX(page)).toBeLessThanOrEqual(0);
        await page.waitForTimeout(500);
        await page.getByTestId('iot-chart-card').scrollIntoViewIfNeeded();
        await screenshot(page, `${name}-live`);

        // 1 again: the wall screen's tile (outside the shell).
        await page.goto('/wel/dashboard');
        const tile = page.getByTestId('wall-tile').filter({ hasText: deviceName });
        await poll(() => tile.getByTestId('iot-cycle').innerText()).toContain(words.cycle);
        expect(await tile.getAttribute('data-state')).toBe('disinfecting');
        // The time left is at the end of the line: the line wraps, it is not cut.
        expect(await fits(tile.getByTestId('iot-cycle'))).toBe(true);
        expect(await tile.getByTestId('iot-cycle').evaluate((el) => getComputedStyle(el).textOverflow)).not.toBe(
          'ellipsis',
        );
        expect(await overflowX(page)).toBeLessThanOrEqual(0);
        await screenshot(page, `${name}-wall`);
      } finally {
        await context.close();
      }
    });
  }
});
