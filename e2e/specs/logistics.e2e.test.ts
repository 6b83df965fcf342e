import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  callApi,
  choose,
  crudDialog,
  formItem,
  newPage,
  offeredOptions,
  poll,
  screenshot,
  signIn,
  useBrowser,
} from '../support/browser';
import { goInApp } from '../support/shell';

const browser = useBrowser();

const DEPT = '/api/blade-system/dept';
const BIZ = '/api/blade-business';
const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text }).first();

describe('logistics screens (generic ResourcePage)', () => {
  it('a car offers only the lines of its base; an article shows its expiry from the pack material', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const stamp = Date.now().toString(36);
    const made: { res: string; id: string }[] = [];
    const add = async (res: string, body: Record<string, unknown>) => {
      const answer = await callApi<string>(page, `${res}/submit`, body);
      expect(answer.success, answer.msg).toBe(true);
      made.unshift({ res, id: answer.data });
      return answer.data;
    };
    const findId = async (res: string, query: string) =>
      (await callApi<{ records: { id: string }[] }>(page, `${BIZ}/${res}/page?${query}`)).data.records[0]?.id;
    try {
      const baseA = await add(DEPT, { deptName: `e2e甲基地${stamp}`, fullName: 'e2e', parentId: '0', deptCategory: 4 });
      const baseB = await add(DEPT, { deptName: `e2e乙基地${stamp}`, fullName: 'e2e', parentId: '0', deptCategory: 4 });
      await add(`${BIZ}/line`, { name: `e2e甲线${stamp}`, base: baseA });
      await add(`${BIZ}/line`, { name: `e2e乙线${stamp}`, base: baseB });

      await goInApp(page, '/business/car');
      const cars = page.locator('[data-screen="/business/car"]');
      await cars.getByTestId('crud-add').click();
      await crudDialog(page).locator('#crud-form_name').fill(`e2e车${stamp}`);
      await crudDialog(page).locator('#crud-form_plate').fill('苏E0E2E1');
      await crudDialog(page).locator('#crud-form_barCode').fill(`CAR-${stamp}`);
      // No base yet: no line to offer. With base 甲: only 甲's line.
      expect((await offeredOptions(page, formItem(page, 'line'))).filter((l) => l.includes(stamp))).toEqual([]);
      await choose(page, formItem(page, 'base'), `e2e甲基地${stamp}`);
      await poll(async () =>
        (await offeredOptions(page, formItem(page, 'line'))).filter((l) => l.includes(stamp)),
      ).toEqual([`e2e甲线${stamp}`]);
      await choose(page, formItem(page, 'line'), `e2e甲线${stamp}`);
      await screenshot(page, 'logistics-car-form');
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await toast(page, '新增成功').waitFor();
      await crudDialog(page).waitFor({ state: 'detached' });
      await poll(() => cars.locator('.ant-table-row', { hasText: `e2e甲线${stamp}` }).count()).toBe(1);
      made.unshift({ res: `${BIZ}/car`, id: String(await findId('car', `barCode=CAR-${stamp}`)) });

      await goInApp(page, '/business/article');
      const articles = page.locator('[data-screen="/business/article"]');
      await articles.getByTestId('crud-add').click();
      await crudDialog(page).locator('#crud-form_code').fill(`E2E-${stamp}`);
      await crudDialog(page).locator('#crud-form_barCode').fill(`PKG-${stamp}`);
      await crudDialog(page).locator('#crud-form_name').fill(`e2e器械包${stamp}`);
      await choose(page, formItem(page, 'category'), '器械包');
      await choose(page, formItem(page, 'packMaterial'), '纺织品');
      const packDate = crudDialog(page).locator('#crud-form_packDate');
      await packDate.click();
      await packDate.pressSequentially('2026-11-01');
      await packDate.press('Enter');
      // Computed in the form by the server's own rule, before anything is saved.
      await poll(() => crudDialog(page).locator('#crud-form_expiryDate').inputValue()).toBe('2026-11-15');
      await poll(() => crudDialog(page).locator('#crud-form_validityDays').inputValue()).toBe('14');
      await screenshot(page, 'logistics-article-form');
      await crudDialog(page).getByTestId('crud-dialog-submit').click();
      await toast(page, '新增成功').waitFor();
      await crudDialog(page).waitFor({ state: 'detached' });
      const row = articles.locator('.ant-table-row', { hasText: `E2E-${stamp}` });
      await poll(() => row.innerText()).toContain('2026-11-15');
      made.unshift({ res: `${BIZ}/article`, id: String(await findId('article', `code=E2E-${stamp}`)) });
    } finally {
      for (const { res, id } of made) await callApi(page, `${res}/remove?ids=${id}`, {});
      await context.close();
    }
  });
});
