import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PackState } from '@mes/contracts';
import { callApi, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp, presetSetting } from '../support/shell';

/**
 * 扫码流转 on a phone (issue 29 points 2 and 7, docs/packs.md "Scan to move"), in Chinese and
 * English at 390 × 844: codes arrive as a keyboard-wedge scanner sends them (the code typed into
 * the focused box, then Enter; no camera in tests); each scanned pack shows its state and whether
 * the station's move is allowed, a pack the table refuses names both states, an unknown code says
 * so; confirming moves the allowed packs, and a pack the server refuses (used past its expiry)
 * shows the server's own message.
 */
const browser = useBrowser();
const stamp = Date.now().toString(36);

async function ok<T = string>(page: Page, url: string, body?: unknown): Promise<T> {
  const res = await callApi<T>(page, url, body);
  expect(res.success, `${url}: ${res.msg}`).toBe(true);
  return res.data;
}

interface Made {
  /** Picked up: the receipt station may move them to cleaning. */
  ready: string[];
  /** Still awaiting pickup: receipt refuses it. */
  waiting: string;
  /** Delivered but past its expiry: the table allows its use, the server refuses it. */
  stale: string;
}
const made: Record<'zh' | 'en', Made> = {
  zh: { ready: [], waiting: '', stale: '' },
  en: { ready: [], waiting: '', stale: '' },
};

beforeAll(async () => {
  const { context, page } = await newPage(browser());
  const db = await serverDatabase();
  try {
    await signIn(page);
    const articleId = await ok(page, '/api/blade-business/article/submit', {
      code: `SA${stamp}`,
      barCode: `SB${stamp}`,
      name: `扫码检查包${stamp}`,
      category: 1,
      contents: '口镜、镊子',
      packMaterial: 3,
    });
    const codeOf = async (id: string) =>
      (await ok<{ code: string }>(page, `/api/blade-business/pack/detail?id=${id}`)).code;
    for (const lang of ['zh', 'en'] as const) {
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) ids.push(await ok(page, '/api/blade-business/pack/submit', { articleId }));
      const [a, b, c, d] = ids as [string, string, string, string];
      await ok(page, '/api/blade-business/pack/move', { ids: `${a},${b}`, state: PackState.pickedUp });
      // A pack delivered to a clinic whose expiry passed yesterday (what a release and a delivery
      // would leave after its shelf life; set directly to keep the test short).
      await db.query(
        `update mes_pack set state = $1, expiry_date = current_date - 1, sterile_date = current_date - 30 where id = $2`,
        [PackState.delivered, d],
      );
      made[lang] = { ready: [await codeOf(a), await codeOf(b)], waiting: await codeOf(c), stale: await codeOf(d) };
    }
  } finally {
    await db.end();
    await context.close();
  }
}, 90_000);

const WORDS = {
  zh: {
    receipt: '中心接收/清洗',
    use: '患者使用',
    allowed: '可流转',
    refused: (code: string) => `器械包 ${code} 当前状态为「待回收」,不能转为「清洗中」`,
    unknown: '没有包编号为 NOPE-1 的器械包',
    moved: '已流转 2 个器械包',
    cleaning: '清洗中',
    waiting: '待回收',
    expired: '过期,不能使用',
  },
  en: {
    receipt: 'Receipt at base / cleaning',
    use: 'Use on a patient',
    allowed: 'Can move',
    refused: (code: string) => `Pack ${code} is "Awaiting pickup" and cannot move to "Cleaning"`,
    unknown: 'No pack has the code NOPE-1',
    moved: '2 packs moved',
    cleaning: 'Cleaning',
    waiting: 'Awaiting pickup',
    expired: 'cannot be used',
  },
} as const;

/** Picks a station in the screen's select (antd renders the options in a popup). */
async function station(page: Page, label: string) {
  await page.getByTestId('scan-station').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: label }).click();
}

/** What a wedge scanner does: types the label's code into the focused box and presses Enter. */
async function wedge(page: Page, code: string) {
  const input = page.getByTestId('scan-input');
  await input.focus();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await poll(() => input.inputValue()).toBe('');
}

describe('scan to move at phone width', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`moves scanned packs, refuses the ones the table does not allow, names unknown codes (${lang})`, async () => {
      const words = WORDS[lang];
      const packs = made[lang];
      const { context, page } = await newPage(browser(), { width: 390, height: 844 });
      page.setDefaultTimeout(15_000);
      try {
        await presetSetting(page, 'language', lang);
        await signIn(page);
        await goInApp(page, '/business/pack_scan');
        const screen = page.locator('[data-screen="/business/pack_scan"]');
        await screen.getByTestId('pack-scan-screen').waitFor();
        // The scanner's box has the focus on arrival: a wedge scanner types into it untouched.
        await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('scan-input');
        await station(page, words.receipt);

        for (const code of [...packs.ready, packs.waiting, 'NOPE-1']) await wedge(page, code);
        const row = (code: string) => screen.locator(`[data-testid="scan-row"][data-code="${code}"]`);
        for (const code of packs.ready) await poll(() => row(code).innerText()).toContain(words.allowed);
        await poll(() => row(packs.waiting).getByTestId('scan-refusal').innerText()).toBe(words.refused(packs.waiting));
        await poll(() => row('NOPE-1').getByTestId('scan-problem').innerText()).toBe(words.unknown);
        // Scanning a label twice keeps one row.
        await wedge(page, packs.ready[0] as string);
        expect(await screen.getByTestId('scan-row').count()).toBe(4);
        // Nothing spills past the phone's width.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await screenshot(page, `pack-scan-${lang}-scanned`);

        await screen.getByTestId('scan-confirm').click();
        await poll(() => page.locator('.ant-message').innerText()).toContain(words.moved);
        for (const code of packs.ready)
          await poll(() => row(code).getByTestId('pack-state').innerText()).toBe(words.cleaning);
        // The refused pack did not move.
        expect(await row(packs.waiting).getByTestId('pack-state').innerText()).toBe(words.waiting);
        await screenshot(page, `pack-scan-${lang}-moved`);

        // Use on a patient: the table allows a delivered pack, the server refuses one past its expiry.
        await screen.getByTestId('scan-clear').click();
        await station(page, words.use);
        await wedge(page, packs.stale);
        await poll(() => row(packs.stale).innerText()).toContain(words.allowed);
        await screen.getByTestId('scan-patient-case').fill(`MR-${stamp}`);
        await screen.getByTestId('scan-chair').fill('2');
        await screen.getByTestId('scan-confirm').click();
        await poll(() => row(packs.stale).getByTestId('scan-refusal').innerText()).toContain(words.expired);
        expect(await row(packs.stale).getByTestId('scan-refusal').innerText()).toContain(packs.stale);
        await poll(() => screen.getByTestId('scan-confirm').isDisabled()).toBe(true);
        await screenshot(page, `pack-scan-${lang}-server-refused`);
      } finally {
        await context.close();
      }
    });
  }
});
