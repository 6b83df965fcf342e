import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp, presetSetting } from '../support/shell';

/**
 * Issue 30 points 4 and 5. Lists at 1440 px keep their key columns in view beside the fixed
 * action column (low-priority columns wait for a wider screen), each row has one view action,
 * and at phone width the search form shows its first two inputs with the rest behind 展开.
 * The report designer speaks the user's language: its palette, the read-only option's name
 * (the one the save refusal uses) and a new text's placeholder; its canvas fills the dialog.
 */
const browser = useBrowser();
const stamp = Date.now().toString(36).toUpperCase();
const WARNING_NO = `E2E30${stamp}`;
const rowId = (n: number) => (9_150n * 10n ** 15n + BigInt(Date.now()) * 1000n + BigInt(n)).toString();

beforeAll(async () => {
  const db = await serverDatabase();
  try {
    // A warning of the platform tenant, so that the warnings list has a row to check.
    await db.query(
      `insert into mes_warning (id, warning_no, device_code, warning_type, level, rule_key, field, trigger_value,
         threshold, message, start_time, last_time, status, repeat_count, tenant_id)
       values ($1, $2, $3, 'threshold', 2, 'threshold:1', 'chlorine', '0.12', '0.3', '有效氯过低',
         now() - interval '5 minutes', now(), 1, 1, '000000')`,
      [rowId(1), WARNING_NO, `e2e30-${stamp}`],
    );
  } finally {
    await db.end();
  }
});

afterAll(async () => {
  const db = await serverDatabase();
  try {
    await db.query('delete from mes_warning where warning_no = $1', [WARNING_NO]);
  } finally {
    await db.end();
  }
});

const screenOf = (page: Page, path: string) => page.locator(`[data-screen="${path}"]`);

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not shown');
  return box;
}

/**
 * Each key column's header lies wholly left of the fixed action column and inside the table's
 * visible area: nothing of it is behind the action column or scrolled out of view.
 */
async function keyColumnsInView(page: Page, path: string, labels: string[]) {
  const screen = screenOf(page, path);
  const table = screen.getByTestId('crud-table');
  await table.locator('thead th').first().waitFor();
  const head = table.locator('.ant-table-thead').first();
  const actions = await boxOf(head.locator('th.ant-table-cell-fix-right, th.ant-table-cell-fix-end').first());
  const area = await boxOf(table.locator('.ant-table-container').first());
  for (const label of labels) {
    const th = head.locator('th', { hasText: new RegExp(`^${label}$`) }).first();
    const box = await boxOf(th);
    expect(box.x, `${path} ${label}`).toBeGreaterThanOrEqual(area.x - 1);
    expect(box.x + box.width, `${path} ${label} ends before the action column`).toBeLessThanOrEqual(actions.x + 1);
  }
  // The table needs no sideways scrolling at this width: nothing is hidden to the right.
  const overflow = await table
    .locator('.ant-table-content, .ant-table-body')
    .first()
    .evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(1);
}

/** Every row offers one view action (查看 / View) and no second one (详情 / Details). */
async function oneViewAction(page: Page, path: string, view: string, other: string) {
  const rows = screenOf(page, path).locator('[data-testid="crud-table"] tbody tr.ant-table-row');
  const n = await rows.count();
  for (let i = 0; i < Math.min(n, 5); i++) {
    const row = rows.nth(i);
    expect(await row.getByTestId('crud-row-view').count()).toBe(1);
    expect(await row.getByText(view, { exact: true }).count()).toBe(1);
    expect(await row.getByText(other, { exact: true }).count()).toBe(0);
  }
  return n;
}

const LISTS = {
  zh: [
    { path: '/report/warning', keys: ['告警编号', '级别', '告警内容', '开始时间', '状态'] },
    { path: '/device/device', keys: ['设备编号', '设备名称', '运行状态', '在线'] },
    { path: '/business/verification', keys: ['记录编号', '验证类型', '检测时间', '结果', '触发召回'] },
  ],
  en: [
    { path: '/report/warning', keys: ['Started', 'Status'] },
    { path: '/device/device', keys: ['Run state'] },
    { path: '/business/verification', keys: ['Result', 'Recall triggered'] },
  ],
};

describe('lists at 1440 px', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`keep the key columns in view beside the action column, one view action per row (${lang})`, async () => {
      const { context, page } = await newPage(browser());
      try {
        if (lang === 'en') await presetSetting(page, 'language', 'en');
        await signIn(page);
        for (const { path, keys } of LISTS[lang]) {
          await goInApp(page, path);
          await screenOf(page, path).getByTestId('crud-table').waitFor();
          await screenOf(page, path).locator('.ant-table-tbody tr:not(.ant-table-measure-row)').first().waitFor();
          await keyColumnsInView(page, path, keys);
          await screenshot(page, `registers-tables-${path.split('/').pop()}-${lang}-1440`);
        }
        // The warnings list has our warning: one 查看, which opens the warning's page.
        await goInApp(page, '/report/warning');
        const screen = screenOf(page, '/report/warning');
        await poll(() => screen.locator('tbody tr.ant-table-row', { hasText: WARNING_NO }).count()).toBe(1);
        const views = await oneViewAction(
          page,
          '/report/warning',
          lang === 'zh' ? '查看' : 'View',
          lang === 'zh' ? '详情' : 'Details',
        );
        expect(views).toBeGreaterThan(0);
        await screen.locator('tbody tr.ant-table-row', { hasText: WARNING_NO }).getByTestId('crud-row-view').click();
        await page.getByTestId('warning-detail').waitFor();
        expect(await page.getByTestId('warning-detail').innerText()).toContain(WARNING_NO);
      } finally {
        await context.close();
      }
    });
  }
});

describe('a list search form on a phone (390 px)', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`shows its first two inputs and folds the rest behind 展开 (${lang})`, async () => {
      const { context, page } = await newPage(browser(), { width: 390, height: 844 });
      try {
        if (lang === 'en') await presetSetting(page, 'language', 'en');
        await signIn(page);
        await goInApp(page, '/report/warning');
        const form = screenOf(page, '/report/warning').getByTestId('crud-search');
        await form.waitFor();
        // The inputs (every form item but the buttons' one).
        const inputs = form.locator('.ant-form-item:has(.ant-form-item-label)');
        const shown = async () => {
          let n = 0;
          for (let i = 0; i < (await inputs.count()); i++) if (await inputs.nth(i).isVisible()) n++;
          return n;
        };
        const total = await inputs.count();
        expect(total).toBeGreaterThan(2);
        await poll(shown).toBe(2);
        const fold = form.getByTestId('crud-search-fold');
        expect(await fold.innerText()).toContain(lang === 'zh' ? '展开' : 'More filters');
        await screenshot(page, `registers-tables-search-folded-${lang}-390`);
        await fold.click();
        await poll(shown).toBe(total);
        expect(await fold.innerText()).toContain(lang === 'zh' ? '收起' : 'Fewer filters');
        await screenshot(page, `registers-tables-search-open-${lang}-390`);
        // Folded again, a value typed in a folded input still filters.
        await form.locator('#crud-search_warningNo').fill(WARNING_NO);
        await fold.click();
        await poll(shown).toBe(2);
        await form.getByTestId('crud-search-submit').click();
        await poll(() =>
          screenOf(page, '/report/warning').locator('[data-testid="crud-table"] tbody tr.ant-table-row').count(),
        ).toBe(1);
      } finally {
        await context.close();
      }
    });
  }
});

const TEXT = {
  zh: { palette: ['文本', '表格', '线条', '图片'], editable: '可编辑', placeholder: '请输入文字' },
  en: { palette: ['Text', 'Table', 'Line', 'Image'], editable: 'Editable', placeholder: 'Type here' },
};

describe('the report designer', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`speaks the user's language and fills its dialog (${lang})`, async () => {
      const { context, page } = await newPage(browser());
      try {
        if (lang === 'en') await presetSetting(page, 'language', 'en');
        await signIn(page);
        await goInApp(page, '/report/report_template');
        const row = screenOf(page, '/report/report_template').locator('tbody tr.ant-table-row').first();
        await row.getByTestId('report-template-design').click();
        await page.getByTestId('report-design-fields').waitFor({ timeout: 30_000 });
        const textTool = page.locator('.pdfme-designer-plugin-text');
        await textTool.waitFor();
        // The palette names its element types in the user's language.
        const names = await page
          .locator('[class*="pdfme-designer-plugin-"] [title]')
          .evaluateAll((els) => els.map((el) => el.getAttribute('title')));
        expect(names).toEqual(TEXT[lang].palette);
        // The canvas takes the dialog's height, less its hint and tags.
        const host = await boxOf(page.getByTestId('report-designer'));
        expect(host.height).toBeGreaterThan(900 * 0.6);
        const canvas = await boxOf(page.locator('.pdfme-designer-root, .pdfme-designer-canvas').first());
        expect(canvas.height).toBeGreaterThan(host.height * 0.9);

        // A text dragged onto the page holds a placeholder in the user's language.
        const from = await boxOf(textTool);
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
        await page.mouse.down();
        for (let i = 1; i <= 10; i++)
          await page.mouse.move(
            from.x + ((host.x + host.width * 0.45 - from.x) * i) / 10,
            from.y + ((host.y + host.height * 0.6 - from.y) * i) / 10,
          );
        await page.mouse.up();
        await page.getByText(TEXT[lang].placeholder, { exact: true }).first().waitFor();
        expect(await page.getByText('Type Something...').count()).toBe(0);
        // The read-only option reads as the save refusal names it.
        await page.getByText(TEXT[lang].editable, { exact: true }).first().waitFor();
        await page.getByTestId('report-design-save').click();
        await poll(() => page.locator('.ant-message-notice').allInnerTexts()).toEqual(
          expect.arrayContaining([expect.stringContaining(lang === 'zh' ? '取消勾选「可编辑」' : 'untick "Editable"')]),
        );
        await screenshot(page, `registers-tables-designer-${lang}`);
      } finally {
        await context.close();
      }
    });
  }
});
