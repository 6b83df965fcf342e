import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PackState } from '@mes/contracts';
import { callApiOk, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp, presetSetting } from '../support/shell';

/**
 * 追溯查询 (issue 29 point 6, docs/packs.md "Look-ups"), in Chinese and English, at 1440 × 900
 * and on a phone at 390 × 844: a pack's whole history by its code (its moves oldest first, the
 * patient case of its use), the packs used on a patient case, and a clinic's sterile stock with
 * the pack past its expiry marked. Nothing spills past the phone's width.
 */
const browser = useBrowser();
const stamp = Date.now().toString(36);

const ok = callApiOk;

/** What each run looks up: a used pack with its history, and the clinic's stock. */
interface Made {
  used: string;
  patientCase: string;
  fresh: string;
  stale: string;
}
const made: Record<'zh' | 'en', Made> = {
  zh: { used: '', patientCase: '', fresh: '', stale: '' },
  en: { used: '', patientCase: '', fresh: '', stale: '' },
};
let deptName = '';

beforeAll(async () => {
  const { context, page } = await newPage(browser());
  const db = await serverDatabase();
  try {
    await signIn(page);
    const info = await ok<{ deptId: string }>(page, '/api/blade-auth/oauth/user-info');
    const deptId = info.deptId.split(',')[0] as string;
    deptName =
      (await db.query<{ dept_name: string }>('select dept_name from blade_dept where id = $1', [deptId])).rows[0]
        ?.dept_name ?? '';
    const articleId = await ok(page, '/api/blade-business/article/submit', {
      code: `TA${stamp}`,
      barCode: `TB${stamp}`,
      name: `追溯检查包${stamp}`,
      category: 1,
      contents: '口镜、探针',
      packMaterial: 3,
    });
    const codeOf = async (id: string) =>
      (await ok<{ code: string }>(page, `/api/blade-business/pack/detail?id=${id}`)).code;
    const newPack = () => ok(page, '/api/blade-business/pack/submit', { articleId });
    /** Delivered to the clinic, expiring `days` from today (set directly: a release is packs.e2e's subject). */
    const delivered = (id: string, days: number) =>
      db.query(
        `update mes_pack set state = $1, dept_id = $2, sterile_date = current_date - 3,
           expiry_date = current_date + $3::int where id = $4`,
        [PackState.delivered, deptId, days, id],
      );
    for (const lang of ['zh', 'en'] as const) {
      const used = await newPack();
      // Real moves, so the history has rows: picked up at the clinic, washed at the base.
      await ok(page, '/api/blade-business/pack/move', { ids: used, state: PackState.pickedUp, deptId });
      await ok(page, '/api/blade-business/pack/move', { ids: used, state: PackState.cleaning });
      await ok(page, '/api/blade-business/pack/move', { ids: used, state: PackState.cleaned });
      await delivered(used, 30);
      const patientCase = `MR-${lang}-${stamp}`;
      await ok(page, '/api/blade-business/pack/move', {
        ids: used,
        state: PackState.inUse,
        patientCase,
        chairNo: '3',
        clinician: '王医生',
        deptId,
      });
      const fresh = await newPack();
      await delivered(fresh, 20);
      const stale = await newPack();
      await delivered(stale, -2);
      made[lang] = { used: await codeOf(used), patientCase, fresh: await codeOf(fresh), stale: await codeOf(stale) };
    }
  } finally {
    await db.end();
    await context.close();
  }
}, 90_000);

const WORDS = {
  zh: { caseTab: '病历使用', stockTab: '诊所无菌库存', inUse: '使用中', cleaning: '清洗中', delivered: '已发放' },
  en: {
    caseTab: 'Patient case',
    stockTab: 'Clinic stock',
    inUse: 'In use',
    cleaning: 'Cleaning',
    delivered: 'Delivered',
  },
} as const;

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** No part of the page wider than the window (a table scrolls inside itself). */
const fitsWidth = (page: Page, width: number) =>
  poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

describe('追溯查询', () => {
  for (const lang of ['zh', 'en'] as const)
    for (const size of SIZES)
      it(`looks up a pack's history, a patient case and a clinic's stock (${lang}, ${size.name})`, async () => {
        const words = WORDS[lang];
        const packs = made[lang];
        const { context, page } = await newPage(browser(), { width: size.width, height: size.height });
        page.setDefaultTimeout(15_000);
        try {
          await presetSetting(page, 'language', lang);
          await signIn(page);
          await goInApp(page, '/business/pack_trace');
          const screen = page.locator('[data-screen="/business/pack_trace"]');
          await screen.getByTestId('pack-trace-screen').waitFor();
          const shot = (what: string) => screenshot(page, `pack-trace-${lang}-${size.name}-${what}`);

          // A pack's history: its moves oldest first, the use naming the patient case.
          await screen.getByTestId('lookup-code').fill(packs.used);
          await screen.getByTestId('lookup-code').press('Enter');
          const history = screen.getByTestId('lookup-history').locator('.ant-table-tbody tr.ant-table-row');
          await poll(() => history.count()).toBe(5);
          // Every tab's name shows, also on a phone (none folded into the overflow menu).
          expect(await screen.locator('.ant-tabs-nav-more:visible').count()).toBe(0);
          expect(await history.nth(2).innerText()).toContain(words.cleaning);
          const use = await history.nth(4).innerText();
          expect(use).toContain(words.inUse);
          expect(use).toContain(packs.patientCase);
          await fitsWidth(page, size.width);
          await shot('history');

          // The packs used on a patient case.
          await screen.locator('.ant-tabs-tab', { hasText: words.caseTab }).click();
          await screen.getByTestId('lookup-case').fill(packs.patientCase);
          await screen.getByTestId('lookup-case').press('Enter');
          const uses = screen.getByTestId('lookup-case-table').locator('.ant-table-tbody tr.ant-table-row');
          await poll(() => uses.count()).toBe(1);
          const row = await uses.first().innerText();
          expect(row).toContain(packs.used);
          expect(row).toContain(deptName);
          await fitsWidth(page, size.width);
          await shot('case');

          // A clinic's sterile stock: both delivered packs, the one past its day marked.
          await screen.locator('.ant-tabs-tab', { hasText: words.stockTab }).click();
          await screen.getByTestId('lookup-stock-dept').click();
          await page
            .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: deptName })
            .first()
            .click();
          // Choosing closes the tree: the stock is not hidden under it.
          await poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
          const stock = screen.getByTestId('lookup-stock-table');
          const stockRow = (code: string) => stock.locator('.ant-table-tbody tr.ant-table-row', { hasText: code });
          await poll(() => stockRow(packs.fresh).count()).toBe(1);
          expect(await stockRow(packs.fresh).innerText()).toContain(words.delivered);
          await poll(() => stockRow(packs.stale).getByTestId('pack-past-expiry').count()).toBe(1);
          expect(await stockRow(packs.fresh).getByTestId('pack-past-expiry').count()).toBe(0);
          // The used pack is not stock.
          expect(await stockRow(packs.used).count()).toBe(0);
          await fitsWidth(page, size.width);
          await shot('stock');
        } finally {
          await context.close();
        }
      }, 90_000);
});
