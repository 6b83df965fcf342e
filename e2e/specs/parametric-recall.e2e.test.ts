import { beforeAll, describe, expect, it } from 'vitest';
import { PackState, RECALL_PATHS, RecallSource, type RecallView } from '@mes/contracts';
import { callApiOk, choose, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp, presetSetting } from '../support/shell';

/**
 * A parametric failure's recall (issue 29 point 4, docs/packs.md "Recalls"), worked from the
 * disinfection record: a cycle failed its parametric judgement, its load holds packs; the records
 * job makes the cycle's record and the recall; 消毒记录's 器械包召回 opens the same recall dialog as
 * a verification record's, the packs are reprocessed and the recall closes. Zh and en, 1440 × 900.
 */
const browser = useBrowser();
const stamp = Date.now().toString(36);
const HOUR = 3_600_000;

interface Case {
  recordId: string;
  recordNo: string;
  codes: string[];
}
const cases: Record<'zh' | 'en', Case> = {
  zh: { recordId: '', recordNo: '', codes: [] },
  en: { recordId: '', recordNo: '', codes: [] },
};

const ok = callApiOk;

beforeAll(async () => {
  const { context, page } = await newPage(browser());
  const db = await serverDatabase();
  try {
    await signIn(page);
    const productId = await ok(page, '/api/basic/product/submit', {
      productCode: `PR${stamp}`,
      productName: `参数灭菌器${stamp}`,
      category: 3,
      protocol: 'mqtt-json',
    });
    const articleId = await ok(page, '/api/blade-business/article/submit', {
      code: `PA${stamp}`,
      barCode: `PB${stamp}`,
      name: `参数召回包${stamp}`,
      category: 1,
      contents: '口镜、镊子',
      packMaterial: 3,
    });
    for (const [lang, c] of Object.entries(cases)) {
      const deviceCode = `e2e-pr-${lang}-${stamp}`;
      const deviceId = await ok(page, '/api/basic/device/submit', { deviceCode, deviceName: deviceCode, productId });
      // A finished cycle an hour ago that failed its hold (as ingestion and the judgement store it).
      const cycleId = String(BigInt(Date.now()) * 1000n + (lang === 'zh' ? 11n : 13n));
      const end = Date.now() - HOUR;
      await db.query(
        `insert into mes_device_cycle (id, tenant_id, device_id, device_code, program_name, start_time, end_time,
           duration_seconds, result, parametric_result, parametric_reason)
         values ($1, '000000', $2, $3, '55℃ 低温', $4, $5, 2400, 1, 2, '维持时间 120 秒,低于 180 秒')`,
        [cycleId, deviceId, deviceCode, new Date(end - 40 * 60_000), new Date(end)],
      );
      const loadId = await ok(page, '/api/blade-business/load/submit', { deviceId, cycleId });
      const ids = [
        await ok(page, '/api/blade-business/pack/submit', { articleId }),
        await ok(page, '/api/blade-business/pack/submit', { articleId }),
      ];
      for (const state of [PackState.pickedUp, PackState.cleaning, PackState.cleaned])
        await ok(page, '/api/blade-business/pack/move', { ids: ids.join(','), state });
      await ok(page, '/api/blade-business/pack/move', { ids: ids.join(','), state: PackState.sterilising, loadId });
      c.codes = await Promise.all(
        ids.map(async (id) => (await ok<{ code: string }>(page, `/api/blade-business/pack/detail?id=${id}`)).code),
      );
      // The records job's sweep (every minute) makes the cycle's record, and with it the recall.
      let record: { id: string; record_no: string } | undefined;
      // (expect.poll is for tests only: a plain wait, bounded by the sweep's two minutes and a margin.)
      for (const until = Date.now() + 150_000; !record && Date.now() < until;) {
        record = (
          await db.query<{ id: string; record_no: string }>(
            `select id::text, record_no from mes_disinfection_record where cycle_id = $1 and not superseded`,
            [cycleId],
          )
        ).rows[0];
        if (!record) await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
      expect(record, 'the records job made no record of the cycle').toBeDefined();
      c.recordId = record?.id ?? '';
      c.recordNo = record?.record_no ?? '';
      const view = await ok<RecallView | null>(
        page,
        `/api${RECALL_PATHS[RecallSource.disinfection].detail}?id=${c.recordId}`,
      );
      expect(view?.total).toBe(2);
    }
  } finally {
    await db.end();
    await context.close();
  }
}, 240_000);

const TEXT = {
  zh: {
    open: '器械包召回',
    reason: '参数放行不合格',
    progress: (n: number) => `已处置 ${n} / 2`,
    reprocessed: '已重新处理',
    recalled: '已召回',
    closed: '已关闭',
  },
  en: {
    open: 'Pack recall',
    reason: 'Parametric release failed',
    progress: (n: number) => `${n} of 2 handled`,
    reprocessed: 'Reprocessed',
    recalled: 'Recalled',
    closed: 'Closed',
  },
};

for (const lang of ['zh', 'en'] as const) {
  describe(`a parametric failure's recall from the disinfection record (${lang})`, () => {
    it('opens from the record, reprocesses every pack and closes', async () => {
      const c = cases[lang];
      const text = TEXT[lang];
      const { context, page } = await newPage(browser());
      page.setDefaultTimeout(15_000);
      try {
        await presetSetting(page, 'language', lang);
        await signIn(page);
        await goInApp(page, '/business/disinfection');
        const screen = page.locator('[data-screen="/business/disinfection"]');
        await screen.locator('#crud-search_recordNo').fill(c.recordNo);
        await screen.getByTestId('crud-search-submit').click();
        const row = screen.locator('.ant-table-tbody tr', { hasText: c.recordNo });
        await poll(() => row.count()).toBe(1);
        await row.getByTestId('disinfection-recall-open').click();
        expect(await row.getByTestId('disinfection-recall-open').innerText()).toBe(text.open);
        const recall = page.getByTestId('pack-recall');
        await recall.waitFor();
        await poll(() => recall.innerText()).toContain(text.reason);
        const progress = recall.getByTestId('pack-recall-progress');
        await poll(() => progress.innerText()).toContain(text.progress(0));
        for (const code of c.codes) await recall.getByTestId(`pack-recall-row-${code}`).waitFor();
        await screenshot(page, `parametric-recall-open-${lang}`);

        for (const code of c.codes)
          await recall.getByTestId(`pack-recall-row-${code}`).locator('.ant-checkbox-input').check();
        await choose(page, recall, text.reprocessed);
        await recall.getByTestId('pack-recall-apply').click();
        await poll(() => progress.innerText()).toContain(text.progress(2));
        // Out of the failed load into recalled, each with who and when.
        const first = await recall.getByTestId(`pack-recall-row-${c.codes[0]}`).innerText();
        expect(first).toContain(text.recalled);
        expect(first).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);

        await recall.getByTestId('pack-recall-close').click();
        await poll(() => recall.getByTestId('pack-recall-state').innerText()).toContain(text.closed);
        expect(await recall.getByTestId('pack-recall-apply').count()).toBe(0);
        await screenshot(page, `parametric-recall-closed-${lang}`);
      } finally {
        await context.close();
      }
    }, 90_000);
  });
}
