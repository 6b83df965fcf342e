import { describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp, presetSetting, tabLabels } from '../support/shell';

const browser = useBrowser();

/** `yyyy-MM-dd HH:mm:ss` in the browser's zone, as the API takes times. */
const stamp = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};

describe('maintenance', () => {
  it('shows a plan with its check list, the due list, and a record that puts the device under maintenance', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const key = Date.now().toString(36);
    const deviceCode = `e2e-m-${key}`;
    const productId = (
      await callApi<string>(page, '/api/basic/product/submit', {
        productCode: `E2E-M-${key}`,
        productName: `保养产品${key}`,
      })
    ).data;
    const deviceId = (
      await callApi<string>(page, '/api/basic/device/submit', {
        deviceCode,
        deviceName: `保养设备${key}`,
        productId,
      })
    ).data;
    const plan = await callApi<string>(page, '/api/basic/maintenance-plan/submit', {
      planName: `季度保养${key}`,
      productId,
      intervalCycles: 500,
      intervalDays: 90,
      noticeDays: 7,
      checks: [
        { checkName: '过滤器', standard: '无堵塞' },
        { checkName: '消毒液管路', standard: '无泄漏' },
      ],
    });
    expect(plan.success, plan.msg).toBe(true);

    // 保养计划: the plan, its check list in the edit dialog.
    await goInApp(page, '/device/maintenance_plan');
    const plans = page.locator('[data-screen="/device/maintenance_plan"]');
    await poll(() => plans.locator('tbody').innerText()).toContain(`季度保养${key}`);
    await plans
      .locator('tbody tr', { hasText: `季度保养${key}` })
      .getByTestId('crud-row-edit')
      .click();
    await poll(() => crudDialog(page).getByTestId('child-cell-checks-checkName').count()).toBe(2);
    await screenshot(page, 'maintenance-plan-form');
    await page.keyboard.press('Escape');
    await crudDialog(page).waitFor({ state: 'detached' });

    // 保养到期: the device's row, counted from its creation, 正常.
    await goInApp(page, '/device/maintenance_due');
    const dueList = page.locator('[data-screen="/device/maintenance_due"]');
    await poll(() => dueList.locator('tbody').innerText()).toContain(deviceCode);
    const dueRow = dueList.locator('tbody tr', { hasText: deviceCode });
    expect(await dueRow.innerText()).toContain('正常');
    expect(await dueList.locator('thead').innerText()).toContain('到期时间');
    await screenshot(page, 'maintenance-due-zh');

    // A record started: the device is under maintenance, the record in progress with the plan's checks.
    const record = await callApi<string>(page, '/api/basic/maintenance-record/submit', {
      deviceId,
      planId: plan.data,
      technician: '王工',
      startTime: stamp(new Date(Date.now() - 60_000)),
    });
    expect(record.success, record.msg).toBe(true);
    await goInApp(page, '/device/maintenance_record');
    const records = page.locator('[data-screen="/device/maintenance_record"]');
    await poll(() => records.locator('tbody').innerText()).toContain('王工');
    const recordRow = records.locator('tbody tr', { hasText: `保养设备${key}` });
    expect(await recordRow.innerText()).toContain('保养中');
    await recordRow.getByTestId('crud-row-edit').click();
    await poll(() => crudDialog(page).getByTestId('child-cell-checks-checkName').count()).toBe(2);
    await screenshot(page, 'maintenance-record-form');
    await page.keyboard.press('Escape');
    await crudDialog(page).waitFor({ state: 'detached' });
    const device = await callApi<{ records: { maintenance: boolean; runState: number }[] }>(
      page,
      `/api/basic/device/list?deviceCode=${deviceCode}`,
    );
    expect(device.data.records[0]).toMatchObject({ maintenance: true, runState: 4 });
    await screenshot(page, 'maintenance-records-zh');

    // Completed: the maintenance ends, the record shows 已完成.
    const detail = await callApi<{ checks: { id: string; checkName: string }[] }>(
      page,
      `/api/basic/maintenance-record/detail?id=${record.data}`,
    );
    const done = await callApi<string>(page, '/api/basic/maintenance-record/submit', {
      id: record.data,
      endTime: stamp(new Date()),
      result: 1,
      checks: detail.data.checks.map((c) => ({ ...c, result: 1 })),
    });
    expect(done.success, done.msg).toBe(true);
    await page.reload();
    await poll(() => page.locator('[data-screen="/device/maintenance_record"] tbody').innerText()).toContain('已完成');
    const after = await callApi<{ records: { maintenance: boolean }[] }>(
      page,
      `/api/basic/device/list?deviceCode=${deviceCode}`,
    );
    expect(after.data.records[0]?.maintenance).toBe(false);
    await context.close();
  });

  it('reads in English', async () => {
    const { context, page } = await newPage(browser());
    await presetSetting(page, 'language', 'en');
    await signIn(page);
    await goInApp(page, '/device/maintenance_due');
    const screen = page.locator('[data-screen="/device/maintenance_due"]');
    await poll(() => screen.locator('thead').innerText()).toContain('Due state');
    await poll(() => tabLabels(page)).toContain('Maintenance due');
    await screenshot(page, 'maintenance-due-en');
    await context.close();
  });
});
