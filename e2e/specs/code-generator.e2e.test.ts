import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp } from '../support/shell';

const browser = useBrowser();
const API = '/api/blade-develop/code';
const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();

describe('code generator screen', () => {
  it('reads a table’s columns, edits them in the dialog, previews the highlighted definition and copies the configuration', async () => {
    const stamp = Date.now().toString(36);
    const table = `e2e_gauge_${stamp}`;
    const db = await serverDatabase();
    const { context, page } = await newPage(browser());
    const made: string[] = [];
    try {
      await db.query(
        `create table ${table} (id bigint primary key, gauge_code varchar(32) not null, size_mm numeric(8, 2))`,
      );
      await db.query(`comment on column ${table}.gauge_code is '量具编号'`);
      await signIn(page);
      const saved = await callApi<string>(page, `${API}/submit`, {
        codeName: `e2e量具${stamp}`,
        codeNameEn: 'Gauges',
        tableName: table,
        tablePrefix: 'e2e_',
        packageName: 'mes',
        apiPath: `/mes/g${stamp}`,
      });
      expect(saved.success, saved.msg).toBe(true);
      made.push(saved.data);

      await goInApp(page, '/tool/code');
      const screen = page.locator('[data-screen="/tool/code"]');
      const row = screen.locator('.ant-table-row', { hasText: `e2e量具${stamp}` });
      await row.getByTestId('code-columns').click();
      await toast(page, '已读取 2 个字段').waitFor();

      // The columns are the dialog's sub-table, editable before generating.
      await row.getByTestId('crud-row-edit').click();
      const label = crudDialog(page).locator('input[value="量具编号"]');
      await label.waitFor();
      await label.fill('编号');
      await screenshot(page, 'code-generator-columns');
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await toast(page, '更新成功').waitFor();
      await crudDialog(page).waitFor({ state: 'detached' });

      await row.getByTestId('code-preview-open').click();
      const source = page.getByTestId('code-preview-source');
      await poll(() => source.innerText()).toContain(`export const gauge${stamp.charAt(0).toUpperCase()}`);
      await poll(() => source.innerText()).toContain("zh: '编号'");
      // Highlighted: keywords and strings are marked up.
      expect(await source.locator('.hljs-keyword').count()).toBeGreaterThan(0);
      expect(await source.locator('.hljs-string').count()).toBeGreaterThan(0);
      await page.getByTestId('code-preview-files').getByText('README.md').click();
      await poll(() => source.innerText()).toContain('npm run db:generate');
      await screenshot(page, 'code-generator-preview');
      await page.getByTestId('code-preview-close').click();

      await row.getByTestId('code-copy').click();
      await toast(page, '已复制为新配置').waitFor();
      await poll(() => screen.locator('.ant-table-row', { hasText: `e2e量具${stamp}-副本` }).count()).toBe(1);
      const copies = await callApi<{ records: { id: string; codeName: string }[] }>(
        page,
        `${API}/list?codeName=${encodeURIComponent(`e2e量具${stamp}`)}`,
      );
      made.push(...copies.data.records.map((r) => r.id).filter((id) => !made.includes(id)));
    } finally {
      if (made.length) await callApi(page, `${API}/remove?ids=${made.join(',')}`, {});
      await db.query(`drop table if exists ${table}`);
      await db.end();
      await context.close();
    }
  });
});
