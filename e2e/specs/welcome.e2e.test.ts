import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WARNING_UNHANDLED_PATH,
  type UnhandledWarningsReply,
  type WelcomeDeviceMap,
  type WelcomeOverview,
} from '@mes/contracts';
import { callApi, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { presetSetting } from '../support/shell';

/**
 * The welcome page from `dashboard/overview` (docs/welcome.md): the figures shown are the API's,
 * in Chinese and English, at desktop and phone width; the wall screen renders its blocks.
 */
const browser = useBrowser();

const PRODUCT = '/api/basic/product';
const DEVICE = '/api/basic/device';
const OVERVIEW = '/api/blade-desk/dashboard/overview';
const MAP = '/api/blade-desk/dashboard/deviceMap';
const stamp = Date.now().toString(36);
const codes = [`e2e-wel-${stamp}-1`, `e2e-wel-${stamp}-2`, `e2e-wel-${stamp}-3`];
const deviceIds: string[] = [];
/** Warnings of the spec's device no screen creates: cleared but unhandled (open), and handled (not). */
const warningIds = [`91${Date.now()}1`, `91${Date.now()}2`];
let productId: string | undefined;

async function shoot(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
}

const overview = async (page: Page) => {
  const res = await callApi<WelcomeOverview>(page, OVERVIEW);
  expect(res.success, res.msg).toBe(true);
  return res.data;
};

/** The open warnings the bell counts, as the server has them (docs/warnings.md). */
const openWarnings = async (page: Page) => {
  const res = await callApi<UnhandledWarningsReply>(page, `/api${WARNING_UNHANDLED_PATH}`);
  expect(res.success, res.msg).toBe(true);
  return res.data.total;
};

/** A Statistic's value as shown (antd groups thousands with commas). */
const shown = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).locator('.ant-statistic-content-value').innerText()).replace(/,/g, '');

/** The figures the page shows, and the same figures as the API gives them. */
async function figuresShown(page: Page) {
  return {
    devices: await shown(page, 'wel-device-counts-total'),
    online: await shown(page, 'wel-device-counts-online'),
    fault: await shown(page, 'wel-device-counts-fault'),
    today: await shown(page, 'wel-fig-cycles-today'),
    total: await shown(page, 'wel-fig-cycles-total'),
    passRate: await shown(page, 'wel-fig-pass-rate'),
    chairs: await shown(page, 'wel-fig-chairs'),
    personnel: await shown(page, 'wel-fig-personnel'),
    unhandled: await shown(page, 'wel-fig-unhandled'),
  };
}
function figuresOf(o: WelcomeOverview) {
  return {
    devices: String(o.devices.total),
    online: String(o.devices.online),
    fault: String(o.devices.fault),
    today: String(o.cycles.today),
    total: String(o.cycles.total),
    passRate: o.cycles.passRate === null ? '–' : `${(o.cycles.passRate * 100).toFixed(1)}%`,
    chairs: String(o.chairs),
    personnel: String(o.personnel),
    unhandled: String(o.work.unhandledWarnings),
  };
}

/** The page's figures equal the API's (read again until both settle: other specs add devices). */
async function expectFiguresOfApi(page: Page) {
  await page.getByTestId('wel-taken').filter({ hasText: /\d/ }).waitFor();
  await poll(async () => {
    const [api, seen] = [figuresOf(await overview(page)), await figuresShown(page)];
    return JSON.stringify(seen) === JSON.stringify(api) ? 'same' : JSON.stringify({ seen, api });
  }).toBe('same');
}

const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('welcome page and wall screen', () => {
  beforeAll(async () => {
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      const product = await callApi<string>(page, `${PRODUCT}/submit`, {
        productCode: `E2E-WEL-${stamp}`,
        productName: `e2e首页${stamp}`,
        category: 2,
        protocol: 'mqtt-json',
        inactivitySeconds: 600,
        fields: [],
      });
      expect(product.success, product.msg).toBe(true);
      const products = await callApi<{ records: { id: string }[] }>(
        page,
        `${PRODUCT}/list?productCode_equal=E2E-WEL-${stamp}`,
      );
      productId = products.data.records[0]?.id;
      for (const [i, deviceCode] of codes.entries()) {
        const added = await callApi(page, `${DEVICE}/submit`, {
          deviceCode,
          deviceName: `首页设备${i + 1}`,
          productId,
          chairs: 3 + i,
        });
        expect(added.success, added.msg).toBe(true);
        const found = await callApi<{ records: { id: string }[] }>(
          page,
          `${DEVICE}/list?deviceCode_equal=${deviceCode}`,
        );
        deviceIds.push(found.data.records[0]?.id ?? '');
      }
    } finally {
      await context.close();
    }
    const db = await serverDatabase();
    try {
      for (const [i, status] of [3, 2].entries())
        await db.query(
          `insert into mes_warning (id, tenant_id, warning_no, device_code, level, status, message, start_time)
           values ($1, '000000', $2, $3, 2, $4, $5, now())`,
          [warningIds[i], `E2EW${stamp}${i}`, codes[0], status, `首页告警${i}`],
        );
      // The third device in fault, as ingestion would have derived it from its data (the run
      // state is no longer typed by hand; docs/devices.md "Run state").
      await db.query(`update mes_device set run_state = 3 where tenant_id = '000000' and device_code = $1`, [codes[2]]);
      // Cached list totals follow the change feed, as for every writer outside the routes.
      await db.query(`select pg_notify('mes_data_changed', 'rows:warning:000000')`);
    } finally {
      await db.end();
    }
  });

  afterAll(async () => {
    const db = await serverDatabase();
    await db.query('delete from mes_warning where id = any($1::bigint[])', [warningIds]).finally(() => db.end());
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      if (deviceIds.length) await callApi(page, `${DEVICE}/remove?ids=${deviceIds.join(',')}`, {});
      if (productId) await callApi(page, `${PRODUCT}/remove?ids=${productId}`, {});
    } finally {
      await context.close();
    }
  });

  it('shows the API’s figures in Chinese, with the work tasks, charts and the verification card', async () => {
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      await expectFiguresOfApi(page);
      const api = await overview(page);
      expect(api.devices.total).toBeGreaterThanOrEqual(3);
      expect(api.chairs).toBeGreaterThanOrEqual(12);
      // Verification: today's release of the steam sterilisers and the open recalls, as the API counts them.
      await expect
        .poll(() => page.getByTestId('wel-fig-released').innerText())
        .toMatch(new RegExp(`${api.verification.released}\\s*/ ${api.verification.bdDevices}`));
      expect(await page.getByTestId('wel-fig-open-recalls').innerText()).toBe(String(api.verification.openRecalls));
      // Fixed assets: one line per product category, the devices of each as the API counts them.
      const steriliser = api.assets.byCategory.find((c) => c.category === 2);
      const line = page.getByTestId('wel-fig-assets-list').locator('li[data-category="2"]');
      await expect.poll(() => line.innerText()).toMatch(new RegExp(`压力蒸汽灭菌器\\s*${steriliser?.devices}`));
      // Due work lists the device in fault.
      const work = page.getByTestId('wel-work');
      await work.getByRole('tab', { name: /待办工作/ }).click();
      await expect.poll(() => page.getByTestId('wel-work-due').innerText()).toContain('首页设备3');
      // The charts: a canvas, or the empty state when the last 30 days have nothing.
      const cycles = api.charts.cycleDays.some((d) => d.passes + d.fails + d.aborts > 0);
      await page.getByTestId(cycles ? 'wel-chart-cycles' : 'wel-chart-cycles-empty').waitFor();
      const warned = api.charts.warningLevels.some((l) => l.count > 0);
      await page.getByTestId(warned ? 'wel-chart-warnings' : 'wel-chart-warnings-empty').waitFor();
      // One count of open warnings (docs/warnings.md): the bell's badge figure, the welcome page's
      // and the server's are one number.
      await poll(async () => {
        const seen = {
          bell: await page.getByTestId('notice').getAttribute('data-warnings'),
          welcome: await shown(page, 'wel-fig-unhandled'),
        };
        const server = String(await openWarnings(page));
        return seen.bell === server && seen.welcome === server ? 'same' : JSON.stringify({ ...seen, server });
      }).toBe('same');
      await shoot(page, 'welcome-zh');
    } finally {
      await context.close();
    }
  });

  it('shows the same figures in English', async () => {
    const { context, page } = await newPage(browser());
    try {
      await presetSetting(page, 'language', 'en');
      await signIn(page);
      await expectFiguresOfApi(page);
      const text = await page.getByTestId('welcome').innerText();
      for (const label of ['Devices', 'Cycles today', 'Pass rate', 'Dental chairs served', 'Work tasks']) {
        expect(text).toContain(label);
      }
      expect(await page.getByTestId('wel-fig-verification').innerText()).toContain('Recalled loads to handle');
      // No Chinese left in the welcome figures and tasks (names of devices aside).
      const labels = await page.getByTestId('wel-figures').evaluate((el) => {
        const copy = el.cloneNode(true) as HTMLElement;
        copy.querySelectorAll('[data-testid="wel-fig-not-released-device"]').forEach((n) => n.remove());
        return copy.textContent ?? '';
      });
      expect(labels).not.toMatch(/[\u4e00-\u9fff]/);
      await shoot(page, 'welcome-en');
    } finally {
      await context.close();
    }
  });

  it('fits a 375 px phone without sideways scrolling', async () => {
    const { context, page } = await newPage(browser(), { width: 375, height: 812 });
    try {
      await signIn(page);
      await expectFiguresOfApi(page);
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      // Two figure tiles side by side.
      const boxes = await page
        .locator('.mes-wel-figure')
        .evaluateAll((els) => els.slice(0, 2).map((el) => el.getBoundingClientRect().top));
      expect(boxes[0]).toBe(boxes[1]);
      await shoot(page, 'welcome-phone');
    } finally {
      await context.close();
    }
  });

  it('renders the wall screen: the figures, the device map by department and the clock on 1920×1080', async () => {
    const { context, page } = await newPage(browser(), { width: 1920, height: 1080 });
    try {
      await signIn(page);
      await page.goto('/wel/dashboard');
      await page.getByTestId('wall').waitFor();
      await page
        .getByTestId('wall-clock')
        .filter({ hasText: /\d{2}:\d{2}:\d{2}/ })
        .waitFor();
      await expect.poll(() => page.getByTestId('wall-dept').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const res = await callApi<WelcomeDeviceMap>(page, MAP);
      expect(res.success, res.msg).toBe(true);
      await poll(() => page.getByTestId('wall-dept').count()).toBe(res.data.depts.length);
      const devices = res.data.depts.reduce((n, g) => n + g.devices.length, 0);
      await poll(() => page.getByTestId('wall-tile').count()).toBe(devices);
      const ours = page.getByTestId('wall-tile').filter({ hasText: '首页设备3' });
      expect(await ours.getAttribute('data-state')).toBe('fault');
      await poll(async () => {
        const api = figuresOf(await overview(page));
        return (
          (await shown(page, 'wel-device-counts-total')) === api.devices &&
          (await shown(page, 'wel-fig-chairs')) === api.chairs
        );
      }).toBe(true);
      // Dark: the page's background is dark, whatever the shell's theme.
      const background = await page.getByTestId('wall').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(background).toBe('rgb(11, 20, 38)');
      // One screen: nothing to scroll at 1920×1080.
      const overflow = await page.evaluate(() => ({
        x: document.documentElement.scrollWidth - window.innerWidth,
        y: document.documentElement.scrollHeight - window.innerHeight,
      }));
      expect(overflow).toEqual({ x: 0, y: 0 });
      // The wall's warning count is the same one figure as the bell's.
      const wallWarnings = page.getByTestId('wall-warnings').locator('header');
      await poll(async () => (await wallWarnings.innerText()).includes(`(${await openWarnings(page)})`)).toBe(true);
      await shoot(page, 'wall-1920');
    } finally {
      await context.close();
    }
  });
});
