import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, PackState } from '@mes/contracts';
import { callApi, choose, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp } from '../support/shell';

/**
 * Packs and loads (docs/packs.md) on their screens: the pack list filtered by state, a pack's
 * history, a load with its packs, a release refused with the reason (the cycle failed its
 * parametric judgement) and, once the cycle passed and the day's BD test passed, released: its
 * packs show 无菌.
 */
const browser = useBrowser();

const stamp = Date.now().toString(36);
const DEVICE_CODE = `e2e-pk-${stamp}`;
const HOUR = 3_600_000;

let cycleId = '';
let loadNo = '';
let packCodes: string[] = [];

async function ok<T = string>(page: Page, url: string, body?: unknown): Promise<T> {
  const res = await callApi<T>(page, url, body);
  expect(res.success, `${url}: ${res.msg}`).toBe(true);
  return res.data;
}

beforeAll(async () => {
  const { context, page } = await newPage(browser());
  const db = await serverDatabase();
  try {
    await signIn(page);
    const productId = await ok(page, '/api/basic/product/submit', {
      productCode: `PK${stamp}`,
      productName: `预真空灭菌器${stamp}`,
      category: 2,
      protocol: 'mqtt-json',
    });
    const deviceId = await ok(page, '/api/basic/device/submit', {
      deviceCode: DEVICE_CODE,
      deviceName: `灭菌器${stamp}`,
      productId,
    });
    // A finished cycle of the steriliser an hour ago, failed on its hold time (what ingestion and
    // the judgement store; no screen makes cycles).
    cycleId = String(BigInt(Date.now()) * 1000n + 7n);
    const end = Date.now() - HOUR;
    await db.query(
      `insert into mes_device_cycle (id, tenant_id, device_id, device_code, program_name, start_time, end_time,
         duration_seconds, result, parametric_result, parametric_reason)
       values ($1, '000000', $2, $3, '134℃ 器械', $4, $5, 2400, 1, 2, '维持时间 120 秒,低于 180 秒')`,
      [cycleId, deviceId, DEVICE_CODE, new Date(end - 40 * 60_000), new Date(end)],
    );
    const articleId = await ok(page, '/api/blade-business/article/submit', {
      code: `A${stamp}`,
      barCode: `B${stamp}`,
      name: `牙科检查包${stamp}`,
      category: 1,
      contents: '口镜、镊子、探针',
      packMaterial: 3,
    });
    const loadId = await ok(page, '/api/blade-business/load/submit', { deviceId, cycleId });
    loadNo = (await ok<{ loadNo: string }>(page, `/api/blade-business/load/detail?id=${loadId}`)).loadNo;
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) ids.push(await ok(page, '/api/blade-business/pack/submit', { articleId }));
    for (const state of [PackState.pickedUp, PackState.cleaning, PackState.cleaned])
      await ok(page, '/api/blade-business/pack/move', { ids: ids.join(','), state });
    await ok(page, '/api/blade-business/pack/move', { ids: ids.join(','), state: PackState.sterilising, loadId });
    packCodes = await Promise.all(
      ids.map(async (id) => (await ok<{ code: string }>(page, `/api/blade-business/pack/detail?id=${id}`)).code),
    );
    // The day's BD test passed, before the cycle ended.
    await ok(page, '/api/blade-business/verification/submit', {
      deviceId,
      verificationType: 1,
      testTime: formatDateTime(new Date(end - 50 * 60_000)),
      result: 1,
    });
  } finally {
    await db.end();
    await context.close();
  }
}, 90_000);

describe('packs and loads', () => {
  it('lists packs by state and shows a pack’s history', async () => {
    const { context, page } = await newPage(browser());
    page.setDefaultTimeout(15_000);
    try {
      await signIn(page);
      await goInApp(page, '/business/pack');
      const screen = page.locator('[data-screen="/business/pack"]');
      await choose(page, screen.locator('.ant-form-item', { has: page.locator('#crud-search_state') }), '灭菌中');
      await screen.getByTestId('crud-search-submit').click();
      for (const code of packCodes) await poll(() => screen.locator('.ant-table-tbody').innerText()).toContain(code);
      const row = screen.locator('.ant-table-tbody tr', { hasText: packCodes[0] as string });
      await row.getByTestId('pack-history-open').click();
      const history = page.getByTestId('pack-history');
      await poll(() => history.locator('.ant-table-tbody tr').count()).toBe(5);
      const text = await history.innerText();
      for (const state of ['待回收', '已回收', '清洗中', '已清洗', '灭菌中', loadNo]) expect(text).toContain(state);
      await screenshot(page, 'packs-history');
    } finally {
      await context.close();
    }
  });

  it('shows a load’s packs, refuses its release while the cycle failed, releases it once the cycle passed', async () => {
    const { context, page } = await newPage(browser());
    page.setDefaultTimeout(15_000);
    try {
      await signIn(page);
      await goInApp(page, '/business/load');
      const screen = page.locator('[data-screen="/business/load"]');
      await screen.locator('#crud-search_loadNo').fill(loadNo);
      await screen.getByTestId('crud-search-submit').click();
      const row = screen.locator('.ant-table-tbody tr', { hasText: loadNo });
      await poll(() => row.count()).toBe(1);
      expect(await row.getByTestId('load-pack-count').innerText()).toBe('2');
      expect(await row.innerText()).toContain('不合格');
      await row.getByTestId('load-packs-open').click();
      const packs = page.getByTestId('load-packs');
      for (const code of packCodes) await poll(() => packs.innerText()).toContain(code);
      await screenshot(page, 'packs-load-packs');
      await page.keyboard.press('Escape');

      await row.getByTestId('load-release').click();
      await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
      await poll(() => page.locator('.ant-message').innerText()).toContain('参数判定不合格');
      await screenshot(page, 'packs-release-refused');

      const db = await serverDatabase();
      try {
        await db.query(`update mes_device_cycle set parametric_result = 1, parametric_reason = '' where id = $1`, [
          cycleId,
        ]);
      } finally {
        await db.end();
      }
      await row.getByTestId('load-release').click();
      await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
      await poll(() => row.innerText()).toContain('已放行');
      await row.getByTestId('load-packs-open').click();
      await poll(() => packs.innerText()).toContain('无菌');
      await screenshot(page, 'packs-released');
    } finally {
      await context.close();
    }
  });
});
