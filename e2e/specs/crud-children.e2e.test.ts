import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, choose, crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp } from '../support/shell';

const browser = useBrowser();

const DEPT = '/api/blade-system/dept';
const LINE = '/api/blade-business/line';
const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();

const cells = (page: Page, field: string) => crudDialog(page).getByTestId(`child-cell-stops-${field}`);
const chosen = (page: Page, field: string) => cells(page, field).locator('.ant-select-selection-item').allInnerTexts();

describe('child rows in the form', () => {
  it('lines: add two stops in the sub-table, reorder, save, reopen in the same order', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const stamp = Date.now().toString(36);
    const addDept = async (fields: Record<string, unknown>) => {
      const res = await callApi<string>(page, `${DEPT}/submit`, { fullName: fields.deptName, ...fields });
      expect(res.success).toBe(true);
      return res.data;
    };
    const base = await addDept({ deptName: `e2e基地${stamp}`, parentId: '0', deptCategory: 4 });
    const first = await addDept({ deptName: `e2e甲诊所${stamp}`, parentId: base, deptCategory: 5, sort: 1 });
    const second = await addDept({ deptName: `e2e乙诊所${stamp}`, parentId: base, deptCategory: 5, sort: 2 });
    const lineName = `e2e线路${stamp}`;
    let lineId: string | undefined;
    try {
      await goInApp(page, '/business/line');
      const screen = page.locator('[data-screen="/business/line"]');
      await screen.getByTestId('crud-add').click();
      await crudDialog(page).locator('#crud-form_name').fill(lineName);
      await choose(
        page,
        crudDialog(page).locator('.ant-form-item', { has: page.locator('#crud-form_base') }),
        `e2e基地${stamp}`,
      );

      // Two pickup stops, added in the sub-table.
      await crudDialog(page).getByTestId('child-add-stops').click();
      await crudDialog(page).getByTestId('child-add-stops').click();
      await poll(() => cells(page, 'deptId').count()).toBe(2);
      // Saving with empty rows marks each empty cell on its row and sends nothing.
      let submits = 0;
      page.on('request', (r) => void (r.url().includes('/line/submit') && submits++));
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await poll(() => cells(page, 'deptId').locator('.ant-form-item-explain-error').allInnerTexts()).toEqual([
        '请选择节点',
        '请选择节点',
      ]);
      await poll(() => crudDialog(page).innerText()).toContain('「站点」第 1 行: 请选择节点');
      expect(submits).toBe(0);
      await choose(page, cells(page, 'deptId').nth(0), `e2e甲诊所${stamp}`);
      await choose(page, cells(page, 'direction').nth(0), '回收');
      await choose(page, cells(page, 'deptId').nth(1), `e2e乙诊所${stamp}`);
      await choose(page, cells(page, 'direction').nth(1), '回收');
      await poll(() => crudDialog(page).locator('.ant-form-item-explain-error').count()).toBe(0);
      // The second stop moves up: it is visited first.
      await crudDialog(page).getByTestId('child-up-stops-1').click();
      await poll(() => chosen(page, 'deptId')).toEqual([`e2e乙诊所${stamp}`, `e2e甲诊所${stamp}`]);
      await screenshot(page, 'crud-children-line-form');
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await toast(page, '新增成功').waitFor();
      await crudDialog(page).waitFor({ state: 'detached' });

      const row = screen.locator('.ant-table-row', { hasText: lineName });
      await poll(() => row.count()).toBe(1);
      const page1 = await callApi<{ records: { id: string; name: string }[] }>(
        page,
        `${LINE}/page?name=${encodeURIComponent(lineName)}`,
      );
      lineId = page1.data.records[0]?.id;
      const detail = await callApi<{ stops: { deptId: string; sort: number }[] }>(page, `${LINE}/detail?id=${lineId}`);
      expect(detail.data.stops.map((s) => [s.deptId, s.sort])).toEqual([
        [second, 1],
        [first, 2],
      ]);

      // Reopened, the sub-table shows the stops in the saved order.
      await row.getByTestId('crud-row-edit').click();
      await poll(() => chosen(page, 'deptId')).toEqual([`e2e乙诊所${stamp}`, `e2e甲诊所${stamp}`]);
      expect(await chosen(page, 'direction')).toEqual(['回收', '回收']);
      await screenshot(page, 'crud-children-line-reopened');
      await crudDialog(page).getByTestId('crud-dialog-cancel').click();
      await crudDialog(page).waitFor({ state: 'detached' });
    } finally {
      // The spec's data goes: the line (with its stops), then the nodes and the base.
      if (lineId) expect((await callApi(page, `${LINE}/remove?ids=${lineId}`, {})).success).toBe(true);
      for (const id of [first, second, base]) await callApi(page, `${DEPT}/remove?ids=${id}`, {});
      await context.close();
    }
  });
});
