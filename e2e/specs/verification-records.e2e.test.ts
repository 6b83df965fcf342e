import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '@mes/contracts';
import {
  callApi,
  choose,
  crudDialog,
  formItem,
  newPage,
  poll,
  screenshot,
  signIn,
  useBrowser,
  signInAs,
} from '../support/browser';
import { goInApp, presetSetting } from '../support/shell';

/**
 * Verification records and record review (docs/records.md): a failed biological indicator entered
 * on the screen recalls the steriliser's loads since its last pass — its 召回批次 list them and the
 * disinfection list tags them — and a disinfection record is reviewed by a second user only (the
 * operator is refused), after which it shows 已审核 and offers nothing to change it.
 */
const browser = useBrowser();

const stamp = Date.now().toString(36);
const DEVICE_CODE = `e2e-vr-${stamp}`;
const DEVICE_NAME = `验证灭菌器${stamp}`;
const REVIEWER = `rv${stamp}`.slice(0, 10);
const REVIEWER_PASSWORD = 'Review#123';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

let deviceId = '';
const recalledNos: string[] = [];
let olderNo = '';

async function ok<T = string>(page: Page, url: string, body?: unknown): Promise<T> {
  const res = await callApi<T>(page, url, body);
  expect(res.success, `${url}: ${res.msg}`).toBe(true);
  return res.data;
}

async function disinfection(page: Page, endMs: number, batchNo: string): Promise<string> {
  const id = await ok(page, '/api/blade-business/disinfection/submit', {
    deviceId,
    startTime: formatDateTime(new Date(endMs - 30 * 60_000)),
    endTime: formatDateTime(new Date(endMs)),
    result: 1,
    batchNo,
    load: `器械包 ${batchNo}`,
  });
  const detail = await ok<{ recordNo: string }>(page, `/api/blade-business/disinfection/detail?id=${id}`);
  return detail.recordNo;
}

/** Scrolls the screen's table to its right end, where the review columns are. */
const showRight = (page: Page) =>
  page
    .locator('.ant-table-content:visible')
    .first()
    .evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });

/** Signs in as another account of the default tenant. */
beforeAll(async () => {
  const { context, page } = await newPage(browser());
  try {
    await signIn(page);
    const productId = await ok(page, '/api/basic/product/submit', {
      productCode: `VR${stamp}`,
      productName: `预真空灭菌器${stamp}`,
      category: 2,
      protocol: 'mqtt-json',
    });
    deviceId = await ok(page, '/api/basic/device/submit', {
      deviceCode: DEVICE_CODE,
      deviceName: DEVICE_NAME,
      productId,
    });
    const now = Date.now();
    olderNo = await disinfection(page, now - 5 * DAY, `VR-OLD-${stamp}`);
    // The last passing biological indicator: loads before it are not recalled.
    await ok(page, '/api/blade-business/verification/submit', {
      deviceId,
      verificationType: 4,
      testTime: formatDateTime(new Date(now - 4 * DAY)),
      result: 1,
    });
    recalledNos.push(await disinfection(page, now - 2 * DAY, `VR-A-${stamp}`));
    recalledNos.push(await disinfection(page, now - DAY, `VR-B-${stamp}`));
    const info = await ok<{ roleId: string; deptId: string }>(page, '/api/blade-auth/oauth/user-info');
    await ok(page, '/api/blade-user/submit', {
      account: REVIEWER,
      password: md5(REVIEWER_PASSWORD),
      name: '审核员',
      realName: '审核员',
      userType: 1,
      roleId: info.roleId,
      deptId: info.deptId.split(',')[0],
    });
  } finally {
    await context.close();
  }
}, 60_000);

/** Enters a failed biological indicator of the test device on the verification screen. */
async function enterFailedIndicator(page: Page) {
  await goInApp(page, '/business/verification');
  const screen = page.locator('[data-screen="/business/verification"]');
  await screen.getByTestId('crud-add').click();
  await choose(page, formItem(page, 'deviceId'), DEVICE_NAME);
  await choose(page, formItem(page, 'verificationType'), '生物指示物');
  await choose(page, formItem(page, 'result'), '不合格');
  await crudDialog(page).locator('#crud-form_indicatorBrand').fill('3M Attest 1292');
  await crudDialog(page).locator('#crud-form_incubationTemperature').fill('56');
  await crudDialog(page).getByTestId('crud-dialog-submit').click();
  await crudDialog(page).waitFor({ state: 'hidden' });
  return screen;
}

describe('verification records', () => {
  it('recalls the loads since the last pass: listed in the record’s 召回批次 and tagged on the disinfection list', async () => {
    const { context, page } = await newPage(browser());
    page.setDefaultTimeout(15_000);
    try {
      await signIn(page);
      const screen = await enterFailedIndicator(page);
      await screen.locator('#crud-search_deviceCode').fill(DEVICE_CODE);
      await screen.getByTestId('crud-search-submit').click();
      const row = screen.locator('.ant-table-tbody tr', { hasText: '不合格' });
      await poll(() => row.count()).toBe(1);
      await row.getByTestId('verification-recalls-open').click();
      const dialog = page.getByTestId('verification-recalls');
      for (const no of recalledNos) await poll(() => dialog.innerText()).toContain(no);
      expect(await dialog.innerText()).not.toContain(olderNo);
      expect(await dialog.innerText()).toContain(`器械包 VR-A-${stamp}`);
      await screenshot(page, 'verification-recall-zh');
      await page.locator('.ant-modal-close').last().click();

      await goInApp(page, '/business/disinfection');
      const list = page.locator('[data-screen="/business/disinfection"]');
      await list.locator('#crud-search_deviceCode').fill(DEVICE_CODE);
      await list.getByTestId('crud-search-submit').click();
      for (const no of recalledNos)
        await poll(() =>
          list.locator('.ant-table-tbody tr', { hasText: no }).getByTestId('disinfection-recalled').count(),
        ).toBe(1);
      expect(
        await list.locator('.ant-table-tbody tr', { hasText: olderNo }).getByTestId('disinfection-recalled').count(),
      ).toBe(0);
      await screenshot(page, 'verification-disinfection-recalled-zh');
    } finally {
      await context.close();
    }
  });

  it('shows the recalled loads and the tag in English', async () => {
    const { context, page } = await newPage(browser());
    page.setDefaultTimeout(15_000);
    try {
      await presetSetting(page, 'language', 'en');
      await signIn(page);
      await goInApp(page, '/business/verification');
      const screen = page.locator('[data-screen="/business/verification"]');
      await screen.locator('#crud-search_deviceCode').fill(DEVICE_CODE);
      await screen.getByTestId('crud-search-submit').click();
      const row = screen.locator('.ant-table-tbody tr', { hasText: 'Fail' });
      await poll(() => row.count()).toBe(1);
      expect(await row.innerText()).toContain('Biological indicator');
      await row.getByTestId('verification-recalls-open').click();
      const dialog = page.getByTestId('verification-recalls');
      await poll(() => dialog.innerText()).toContain(recalledNos[0]);
      expect(await dialog.innerText()).toContain('Batch no');
      await screenshot(page, 'verification-recall-en');
      await page.locator('.ant-modal-close').last().click();
      await goInApp(page, '/business/disinfection');
      const list = page.locator('[data-screen="/business/disinfection"]');
      await list.locator('#crud-search_deviceCode').fill(DEVICE_CODE);
      await list.getByTestId('crud-search-submit').click();
      await poll(() => list.getByTestId('disinfection-recalled').first().innerText()).toBe('Recalled');
      await screenshot(page, 'verification-disinfection-recalled-en');
    } finally {
      await context.close();
    }
  });
});

describe('release on the device screen', () => {
  it('shows the steriliser not released without today’s BD test, and released after a passing one', async () => {
    const { context, page } = await newPage(browser());
    page.setDefaultTimeout(15_000);
    try {
      await signIn(page);
      await goInApp(page, '/device/device');
      const screen = page.locator('[data-screen="/device/device"]');
      await screen.locator('#crud-search_deviceCode').fill(DEVICE_CODE);
      await screen.getByTestId('crud-search-submit').click();
      const tag = screen.locator('.ant-table-tbody tr', { hasText: DEVICE_CODE }).getByTestId('device-release');
      await poll(() => tag.innerText()).toBe('未放行');
      await ok(page, '/api/blade-business/verification/submit', {
        deviceId,
        verificationType: 1,
        testTime: formatDateTime(new Date()),
        result: 1,
      });
      await page.reload();
      await goInApp(page, '/device/device');
      await screen.locator('#crud-search_deviceCode').fill(DEVICE_CODE);
      await screen.getByTestId('crud-search-submit').click();
      await poll(() => tag.getAttribute('data-released')).toBe('1');
      await showRight(page);
      await screenshot(page, 'verification-device-released-zh');
    } finally {
      await context.close();
    }
  });
});

describe('record review', () => {
  async function reviewRow(page: Page, recordNo: string) {
    await goInApp(page, '/business/disinfection');
    const list = page.locator('[data-screen="/business/disinfection"]');
    await list.locator('#crud-search_recordNo').fill(recordNo);
    await list.getByTestId('crud-search-submit').click();
    const row = list.locator('.ant-table-tbody tr', { hasText: recordNo });
    await poll(() => row.count()).toBe(1);
    return row;
  }

  it('refuses the operator, lets a second user review, and then shows 已审核 with nothing to change', async () => {
    const operator = await newPage(browser());
    // Wide enough for the low-priority columns (审核人 shows from 1600 px).
    const reviewer = await newPage(browser(), { width: 1680, height: 900 });
    operator.page.setDefaultTimeout(15_000);
    reviewer.page.setDefaultTimeout(15_000);
    try {
      await signIn(operator.page);
      const recordNo = await disinfection(operator.page, Date.now() - HOUR, `VR-R-${stamp}`);
      const own = await reviewRow(operator.page, recordNo);
      await own.getByTestId('disinfection-review').click();
      await operator.page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
      await poll(() => operator.page.locator('.ant-message').innerText()).toContain('审核人不能是记录的操作人');
      expect(await own.innerText()).toContain('待审核');
      await showRight(operator.page);
      await screenshot(operator.page, 'record-review-refused-zh');

      await signInAs(reviewer.page, REVIEWER, REVIEWER_PASSWORD);
      const row = await reviewRow(reviewer.page, recordNo);
      await row.getByTestId('disinfection-review').click();
      await reviewer.page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
      // The server's answer first, so that a refusal shows its reason. A review waits for the
      // tenant's record chain, which the records job may hold while it writes records from cycles
      // (other specs' devices on this server): allowed longer than the usual 15 s on a busy machine.
      await expect
        .poll(() => reviewer.page.locator('.ant-message').innerText(), { timeout: 45_000 })
        .toContain('审核成功');
      await poll(() => row.innerText()).toContain('已审核');
      await reviewer.page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
      expect(await row.innerText()).toContain('审核员');
      // Read-only: no edit, no second review; a change would only be a correction (a new version).
      expect(await row.getByTestId('crud-row-edit').count()).toBe(0);
      expect(await row.getByTestId('disinfection-review').count()).toBe(0);
      const edit = await callApi(reviewer.page, '/api/blade-business/disinfection/submit', {
        id: (
          await callApi<{ records: { id: string }[] }>(
            reviewer.page,
            `/api/blade-business/disinfection/page?recordNo=${recordNo}`,
          )
        ).data.records[0]?.id,
        batchNo: 'changed',
      });
      expect(edit.success).toBe(false);
      await showRight(reviewer.page);
      await screenshot(reviewer.page, 'record-review-reviewed-zh');

      await presetSetting(reviewer.page, 'language', 'en');
      await reviewer.page.reload();
      const english = await reviewRow(reviewer.page, recordNo);
      await poll(() => english.innerText()).toContain('Reviewed');
      await showRight(reviewer.page);
      await screenshot(reviewer.page, 'record-review-reviewed-en');
    } finally {
      await operator.context.close();
      await reviewer.context.close();
    }
  });
});
