import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, PackState } from '@mes/contracts';
import { callApi, choose, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp, presetSetting } from '../support/shell';

/**
 * A recall worked to its end (issue 29 point 4, docs/packs.md "Recalls"): a failed biological
 * indicator lists every pack of the steriliser's loads where it is now, the used one with its
 * patient case; closing is refused while packs are unhandled; each pack gets its action with who
 * and when, the progress counts them, and the recall closes. In Chinese and in English, at
 * 1440 × 900.
 */
const browser = useBrowser();

const stamp = Date.now().toString(36);
const HOUR = 3_600_000;

interface Case {
  deviceCode: string;
  deviceName: string;
  codes: { used: string; delivered: string; sterile: string };
}
const cases: Record<'zh' | 'en', Case> = {
  zh: {
    deviceCode: `e2e-rc-zh-${stamp}`,
    deviceName: `召回灭菌器zh${stamp}`,
    codes: { used: '', delivered: '', sterile: '' },
  },
  en: {
    deviceCode: `e2e-rc-en-${stamp}`,
    deviceName: `召回灭菌器en${stamp}`,
    codes: { used: '', delivered: '', sterile: '' },
  },
};
let deptName = '';

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
    const info = await ok<{ deptId: string }>(page, '/api/blade-auth/oauth/user-info');
    const deptId = info.deptId.split(',')[0] as string;
    const dept = await db.query<{ dept_name: string }>('select dept_name from blade_dept where id = $1', [deptId]);
    deptName = dept.rows[0]?.dept_name ?? '';
    const productId = await ok(page, '/api/basic/product/submit', {
      productCode: `RC${stamp}`,
      productName: `低温等离子灭菌器${stamp}`,
      category: 3,
      protocol: 'mqtt-json',
    });
    const articleId = await ok(page, '/api/blade-business/article/submit', {
      code: `RC${stamp}`.slice(0, 16),
      barCode: `69${Date.now()}`.slice(0, 13),
      name: `种植手术器械包${stamp}`,
      category: 1,
      contents: '种植钻、扳手',
      packMaterial: 3,
    });
    for (const c of Object.values(cases)) {
      const deviceId = await ok(page, '/api/basic/device/submit', {
        deviceCode: c.deviceCode,
        deviceName: c.deviceName,
        productId,
      });
      const loadId = await ok(page, '/api/blade-business/load/submit', { deviceId });
      await db.query('update mes_load set create_time = $2 where id = $1', [loadId, new Date(Date.now() - 3 * HOUR)]);
      // Where each pack is: used on a patient, delivered to the clinic, sterile at the base (set
      // directly: the moves that bring them there are packs.e2e's subject).
      const place = async (state: PackState, patientCase = '') => {
        const id = await ok(page, '/api/blade-business/pack/submit', { articleId });
        await db.query('update mes_pack set state = $2, load_id = $3, dept_id = $4, patient_case = $5 where id = $1', [
          id,
          state,
          loadId,
          state === PackState.sterile ? null : deptId,
          patientCase,
        ]);
        return (await db.query<{ code: string }>('select code from mes_pack where id = $1', [id])).rows[0]?.code ?? '';
      };
      c.codes.used = await place(PackState.inUse, `BL-${stamp}`);
      c.codes.delivered = await place(PackState.delivered);
      c.codes.sterile = await place(PackState.sterile);
      await ok(page, '/api/blade-business/verification/submit', {
        deviceId,
        verificationType: 4,
        testTime: formatDateTime(new Date(Date.now() - HOUR)),
        result: 2,
      });
    }
  } finally {
    await db.end();
    await context.close();
  }
}, 90_000);

const TEXT = {
  zh: {
    fail: '不合格',
    progress: (n: number) => `已处置 ${n} / 3`,
    refused: '还有 3 个器械包未处置,不能关闭召回',
    notified: '已通知患者',
    retrieved: '已收回',
    recalled: '已召回',
    closed: '已关闭',
  },
  en: {
    fail: 'Fail',
    progress: (n: number) => `${n} of 3 handled`,
    refused: '3 packs are not handled yet; the recall cannot be closed',
    notified: 'Patient notified',
    retrieved: 'Retrieved',
    recalled: 'Recalled',
    closed: 'Closed',
  },
};

for (const lang of ['zh', 'en'] as const) {
  describe(`a recall worked to its end (${lang})`, () => {
    it('lists the packs where they are, acts on each, shows the progress and closes', async () => {
      const c = cases[lang];
      const text = TEXT[lang];
      const { context, page } = await newPage(browser());
      page.setDefaultTimeout(15_000);
      try {
        if (lang === 'en') await presetSetting(page, 'language', 'en');
        await signIn(page);
        await goInApp(page, '/business/verification');
        const screen = page.locator('[data-screen="/business/verification"]');
        await screen.locator('#crud-search_deviceCode').fill(c.deviceCode);
        await screen.getByTestId('crud-search-submit').click();
        const record = screen.locator('.ant-table-tbody tr', { hasText: text.fail });
        await poll(() => record.count()).toBe(1);
        await record.getByTestId('verification-recalls-open').click();
        const recall = page.getByTestId('pack-recall');
        await recall.waitFor();
        const progress = recall.getByTestId('pack-recall-progress');
        await poll(() => progress.innerText()).toContain(text.progress(0));
        const row = (code: string) => recall.getByTestId(`pack-recall-row-${code}`);
        // Where each is now; the used one with its clinic and patient case.
        await poll(() => row(c.codes.used).innerText()).toContain(`BL-${stamp}`);
        expect(await row(c.codes.used).innerText()).toContain(deptName);
        expect(await row(c.codes.delivered).innerText()).toContain(deptName);
        await screenshot(page, `recall-packs-open-${lang}`);

        // Closing is refused while packs are unhandled.
        await recall.getByTestId('pack-recall-close').click();
        await page.locator('.ant-message', { hasText: text.refused }).waitFor();

        await row(c.codes.used).locator('.ant-checkbox-input').check();
        await choose(page, recall, text.notified);
        await recall.getByTestId('pack-recall-remark').fill('电话 / phone');
        await recall.getByTestId('pack-recall-apply').click();
        await poll(() => progress.innerText()).toContain(text.progress(1));
        const used = await row(c.codes.used).innerText();
        expect(used).toContain(text.notified);
        expect(used).toContain(text.recalled);
        // Who and when.
        expect(used).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
        await screenshot(page, `recall-packs-progress-${lang}`);

        await row(c.codes.delivered).locator('.ant-checkbox-input').check();
        await row(c.codes.sterile).locator('.ant-checkbox-input').check();
        await choose(page, recall, text.retrieved);
        await recall.getByTestId('pack-recall-apply').click();
        await poll(() => progress.innerText()).toContain(text.progress(3));

        await recall.getByTestId('pack-recall-close').click();
        await poll(() => recall.getByTestId('pack-recall-state').innerText()).toContain(text.closed);
        // A closed recall offers no more actions.
        expect(await recall.getByTestId('pack-recall-apply').count()).toBe(0);
        await screenshot(page, `recall-packs-closed-${lang}`);
      } finally {
        await context.close();
      }
    }, 90_000);
  });
}
