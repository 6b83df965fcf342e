import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_ROTATE_SECRET_PATH, type DeviceSecretReply } from '@mes/contracts';
import { createProcess } from '../../apps/server/src/simulator/device-model';
import { SimulatedDevice, type RunnerConfig } from '../../apps/server/src/simulator/device-runner';
import type { SimDevice } from '../../apps/server/src/simulator/provision';
import { seededRng, seedOf } from '../../apps/server/src/simulator/rng';
import { SimStats } from '../../apps/server/src/simulator/stats';
import { callApi, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { bellFollowsServer, unreadOnServer } from '../support/bell';
import { mqttUrl } from '../support/params';

const browser = useBrowser();

const DEPT = '/api/blade-system/dept';
const PRODUCT = '/api/basic/product';
const DEVICE = '/api/basic/device';
const WARNING = '/api/report/warning';

const stamp = Date.now().toString(36);
const productCode = `E2E-SIM-${stamp}`;
const deviceCode = `e2e-sim-${stamp}`;
const deviceName = `e2e模拟水路${stamp}`;

/** The waterline disinfector's telemetry as the simulator sends it (waterline-model.ts `waterlineValues`). */
const WATERLINE_FIELDS = [
  { fieldKey: 'chlorine', fieldName: '有效氯', dataType: 'float', unit: 'mg/L', precision: 2 },
  { fieldKey: 'orp', fieldName: 'ORP', dataType: 'float', unit: 'mV', precision: 0 },
  { fieldKey: 'ph', fieldName: 'pH', dataType: 'float', unit: '', precision: 2 },
  { fieldKey: 'waterTemp', fieldName: '水温', dataType: 'float', unit: '℃', precision: 1 },
  { fieldKey: 'flow', fieldName: '流量', dataType: 'float', unit: 'L/min', precision: 2 },
  { fieldKey: 'tankLevel', fieldName: '液位', dataType: 'float', unit: '%', precision: 1 },
  { fieldKey: 'program', fieldName: '程序', dataType: 'int', unit: '', precision: 0 },
  { fieldKey: 'phase', fieldName: '阶段', dataType: 'int', unit: '', precision: 0 },
  { fieldKey: 'faultCode', fieldName: '故障码', dataType: 'int', unit: '', precision: 0 },
  { fieldKey: 'cycleCount', fieldName: '循环次数', dataType: 'int', unit: '', precision: 0 },
].map((f) => ({ ...f, access: 'r' }));

/** Ten reports a second: the first one breaks the rule, so the warning comes within a batch. */
const RUNNER: Omit<RunnerConfig, 'mqtt'> = {
  broker: 'embedded',
  tenant: '000000',
  rate: 10,
  speed: 1,
  maxInflight: 20,
  disconnectEvery: 0,
  reconnectAfter: [3, 15],
};

const created: { baseId?: string; clinicId?: string; productId?: string; deviceId?: string } = {};
let simulated: SimulatedDevice | undefined;
let stats: SimStats | undefined;

async function submit(page: Page, path: string, body: Record<string, unknown>): Promise<void> {
  const reply = await callApi(page, `${path}/submit`, body);
  expect(reply.success, `${path}: ${reply.msg}`).toBe(true);
}

/** The id of the row a `submit` just made, found by its unique code. */
async function idOf(page: Page, path: string, query: string): Promise<string> {
  const found = await callApi<{ records: { id: string }[] }>(page, `${path}/list?${query}`);
  const id = found.data.records[0]?.id;
  expect(id, `${path}/list?${query}`).toBeTruthy();
  return id as string;
}

describe('live push from the device simulator', () => {
  beforeAll(async () => {
    // A clinic, a product with the waterline's model and a rule the first report breaks, and a
    // device of it in the clinic: all through the API, as the admin would on their screens.
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      const base = await callApi<string>(page, `${DEPT}/submit`, {
        deptName: `e2e模拟基地${stamp}`,
        fullName: `e2e模拟基地${stamp}`,
        parentId: '0',
        deptCategory: 4,
      });
      expect(base.success, base.msg).toBe(true);
      created.baseId = base.data;
      const clinic = await callApi<string>(page, `${DEPT}/submit`, {
        deptName: `e2e模拟诊所${stamp}`,
        fullName: `e2e模拟诊所${stamp}`,
        parentId: created.baseId,
        deptCategory: 5,
      });
      expect(clinic.success, clinic.msg).toBe(true);
      created.clinicId = clinic.data;

      await submit(page, PRODUCT, {
        productCode,
        productName: `e2e模拟产品${stamp}`,
        category: 1,
        protocol: 'mqtt-json',
        inactivitySeconds: 600,
        fields: WATERLINE_FIELDS,
        // Water is never at or below 0 ℃ in the model (5–40): every report holds, and a zero hold
        // raises the warning on the first one.
        alarmRules: [
          { ruleType: 'threshold', fieldKey: 'waterTemp', operator: '>', threshold: '0', durationSeconds: 0, level: 1 },
        ],
      });
      created.productId = await idOf(page, PRODUCT, `productCode_equal=${productCode}`);
      await submit(page, DEVICE, { deviceCode, deviceName, productId: created.productId, deptId: created.clinicId });
      created.deviceId = await idOf(page, DEVICE, `deviceCode_equal=${deviceCode}`);
      const secret = await callApi<DeviceSecretReply>(
        page,
        `/api${DEVICE_ROTATE_SECRET_PATH}?id=${created.deviceId}&first=1`,
        {},
      );
      expect(secret.success, secret.msg).toBe(true);

      const device: SimDevice = {
        id: created.deviceId,
        deviceCode,
        product: {
          kind: 'waterline',
          productId: created.productId,
          productCode,
          fields: new Set(WATERLINE_FIELDS.map((f) => f.fieldKey)),
          // No PLC variables: engineering values go out as they are.
          raw: new Map(),
        },
        clientId: secret.data.clientId,
        secret: secret.data.secret,
      };
      // The simulator's own device, as `npm run simulate` builds it (run.ts), but not started yet.
      const rng = seededRng(seedOf(deviceCode));
      const now = new Date();
      const model = createProcess('waterline', rng, {
        faultProbability: 0,
        startTimeOfDay: now.getHours() * 3600 + now.getMinutes() * 60 + now.getSeconds(),
      });
      stats = new SimStats();
      simulated = new SimulatedDevice(device, { ...RUNNER, mqtt: mqttUrl() }, stats, model, rng);
    } finally {
      await context.close();
    }
  });

  afterAll(async () => {
    await simulated?.stop();
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      // What this run made goes, the device before its product and department (its warning stays,
      // as warnings of removed devices do).
      const remove = async (path: string, id: string | undefined) => {
        if (!id) return;
        const reply = await callApi(page, `${path}/remove?ids=${id}`, {});
        expect(reply.success, `${path}/remove: ${reply.msg}`).toBe(true);
      };
      await remove(DEVICE, created.deviceId);
      await remove(PRODUCT, created.productId);
      await remove(DEPT, created.clinicId);
      await remove(DEPT, created.baseId);
    } finally {
      await context.close();
    }
  });

  it('shows the warning the simulated device raises in the popover and its badge without a reload, and opens it', async () => {
    const { context, page } = await newPage(browser(), { width: 1280, height: 800 });
    try {
      await signIn(page);
      const bell = page.getByTestId('notice');
      // The bell is a desktop tool (hidden below 768 px): at this width it is there.
      expect(await bell.isVisible()).toBe(true);
      await poll(() => bell.getAttribute('data-live')).toBe('open');
      // Gone after any reload or navigation of the document.
      await page.evaluate(() => Object.assign(window, { simMarker: 'kept' }));
      await bell.click();
      const tabs = page.getByTestId('notice-tabs');
      await tabs.getByRole('tab', { name: /告警/ }).click();
      // Once its lists loaded, the bell says what the server has.
      const before = (await unreadOnServer(page)).unread;
      await poll(async () => Number(await bell.getAttribute('data-unread'))).toBe(before);
      const ours = page.getByTestId('warning-item').filter({ hasText: deviceCode });
      expect(await ours.count()).toBe(0);

      // The device connects with its secret and reports: ingestion → alarm engine → live event.
      const started = Date.now();
      await simulated?.connect();
      simulated?.start();
      await poll(() => ours.count()).toBe(1);
      const seconds = (Date.now() - started) / 1000;
      // The message names the device, the field, the value and the threshold (docs/warnings.md).
      const message = await ours.innerText();
      expect(message).toContain(`设备「${deviceName}」(${deviceCode})`);
      expect(message).toMatch(/水温\(waterTemp\) \d+(\.\d)?℃,高于阈值 0℃/);
      // The badge and the tab follow the server without a reload (other specs' leftovers count too).
      await bellFollowsServer(page);
      expect(await page.evaluate(() => (window as unknown as { simMarker?: string }).simMarker)).toBe('kept');
      // The device keeps breaking the rule: still one warning, not one per report.
      expect(stats?.acked).toBeGreaterThan(1);
      expect(stats?.errors, stats?.lastError).toBe(0);
      await screenshot(page, 'live-simulator-warning');
      console.info(`live-simulator: warning in the popover ${seconds.toFixed(1)} s after the device connected`);

      await ours.click();
      await page.waitForURL(/\/report\/warning\/\d+$/);
      const warningId = new URL(page.url()).pathname.split('/').pop() as string;
      const detail = page.getByTestId('warning-detail');
      await detail.waitFor();
      await poll(() => page.getByTestId('warning-field-deviceCode').innerText()).toBe(deviceCode);
      // The page shows the warning of that id, the one the engine stored for this device and rule.
      const stored = await callApi<{
        deviceCode: string;
        deptId: string;
        level: number;
        status: number;
        warningNo: string;
      }>(page, `${WARNING}/detail?id=${warningId}`);
      // Filed under the device's clinic: the department data scope of warnings reads it.
      expect(stored.data).toMatchObject({ deviceCode, deptId: created.clinicId, level: 1, status: 1 });
      expect(await detail.innerText()).toContain(stored.data.warningNo);
      const all = await callApi<{ total: number }>(page, `${WARNING}/list?deviceCode=${deviceCode}`);
      expect(all.data.total).toBe(1);
      await screenshot(page, 'live-simulator-warning-detail');
    } finally {
      await context.close();
    }
  });
});
