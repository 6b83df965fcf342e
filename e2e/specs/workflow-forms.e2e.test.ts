import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, newPage, poll, screenshot, signIn, useBrowser, signInAs as signInWith } from '../support/browser';
import { goInApp, presetSetting } from '../support/shell';

/**
 * A process other than the leave, run on the forms its model declares (docs/workflow.md,
 * "Forms"): the administrator deploys the repair request of docs/examples, a user starts it from
 * 我的事务 with the generic start form, a manager claims it and completes it with the task's
 * fields. Screenshots of the start form at 1440 and 390 px, Chinese and English.
 */
const browser = useBrowser();
const PASSWORD = 'Forms#123';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const REPAIR_XML = readFileSync(new URL('../../docs/examples/repair-request.bpmn', import.meta.url), 'utf8');

const signInAs = (page: Page, account: string) => signInWith(page, account, PASSWORD);

/** Opens the start list and the process's generic start form. */
async function openStartForm(page: Page, key: string): Promise<void> {
  await goInApp(page, '/work/work_start');
  await page.locator(`[data-testid="work-start-${key}"]:visible`).click();
  await page.getByTestId('flow-start-form').waitFor();
}

describe('generic process forms', () => {
  it('a repair request: started on its model’s form, claimed and completed with the task’s fields', async () => {
    const stamp = Date.now().toString(36).slice(-6);
    // A key of its own, so runs and other specs never share the definition.
    const key = `repair_${stamp}`;
    const admin = await newPage(browser());
    admin.page.setDefaultTimeout(15_000);
    await signIn(admin.page);
    const modelId = await callApi<string>(admin.page, '/api/blade-flow/model/submit', {
      xml: REPAIR_XML.replace('id="repair_request"', `id="${key}"`).replace(
        'bpmnElement="repair_request"',
        `bpmnElement="${key}"`,
      ),
    });
    expect(modelId.success, modelId.msg).toBe(true);
    const deployed = await callApi<{ deploymentId: string }[]>(
      admin.page,
      `/api/blade-flow/model/deploy?modelId=${modelId.data}&category=2`,
      {},
    );
    expect(deployed.success, deployed.msg).toBe(true);

    const info = await callApi<{ roleId: string; deptId: string }>(admin.page, '/api/blade-auth/oauth/user-info');
    const baseRole = info.data.roleId.split(',')[0] as string;
    const deptId = info.data.deptId.split(',')[0] as string;
    type RoleRow = { id: string; roleAlias: string; children?: RoleRow[] };
    const flat = (rows: RoleRow[]): RoleRow[] => rows.flatMap((r) => [r, ...flat(r.children ?? [])]);
    const roles = await callApi<RoleRow[] | { records: RoleRow[] }>(admin.page, '/api/blade-system/role/list');
    const managerRole = flat(Array.isArray(roles.data) ? roles.data : roles.data.records).find(
      (r) => r.roleAlias === 'manager',
    )?.id;
    expect(managerRole, 'the seeded manager role').toBeTruthy();
    const accounts = { applicant: `fa${stamp}`, approver: `fm${stamp}` };
    for (const [who, account] of Object.entries(accounts)) {
      const created = await callApi<string>(admin.page, '/api/blade-user/submit', {
        account,
        password: md5(PASSWORD),
        name: account,
        realName: who === 'applicant' ? '维修申请人' : '设备主管',
        userType: 1,
        roleId: who === 'approver' ? `${baseRole},${managerRole}` : baseRole,
        deptId,
      });
      expect(created.success, created.msg).toBe(true);
    }

    // The applicant opens the form from 发起流程: the model's fields, its default choice.
    const applicant = await newPage(browser());
    applicant.page.setDefaultTimeout(15_000);
    await signInAs(applicant.page, accounts.applicant);
    await openStartForm(applicant.page, key);
    const form = applicant.page.getByTestId('flow-start-form');
    await expect(form.innerText()).resolves.toMatch(/设备[\s\S]*故障描述[\s\S]*故障类型[\s\S]*紧急[\s\S]*期望完成日期/);
    await expect(form.locator('.ant-select-selection-item').innerText()).resolves.toBe('机械');
    await screenshot(applicant.page, 'workflow-forms-start-zh');
    // Required fields left empty are named before anything is sent.
    await applicant.page.getByTestId('flow-start-submit').click();
    await poll(() => form.locator('.ant-form-item-explain-error').allInnerTexts()).toEqual([
      '请填写设备',
      '请填写故障描述',
    ]);
    // The date first: Enter confirms the picker and submits the form, refused while fields are empty.
    await applicant.page.getByTestId('form-field-needBy').click();
    await applicant.page.getByTestId('form-field-needBy').fill('2026-12-24');
    await applicant.page.keyboard.press('Enter');
    await applicant.page.getByTestId('form-field-device').fill('DEV-E2E 灭菌器');
    await applicant.page.getByTestId('form-field-fault').fill('门封漏气,压力上不去');
    await applicant.page.getByTestId('form-field-faultType').click();
    await applicant.page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: '电气' })
      .click();
    await applicant.page.getByTestId('form-field-urgent').check();
    await applicant.page.getByTestId('flow-start-submit').click();
    await applicant.page.waitForURL('**/work/process/form/detail/**');
    const request = applicant.page.getByTestId('flow-request-view');
    await poll(() => request.innerText()).toMatch(/DEV-E2E 灭菌器[\s\S]*门封漏气[\s\S]*电气[\s\S]*是[\s\S]*2026-12-24/);
    await poll(() => applicant.page.getByTestId('flow-step').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('主管审批')]),
    );

    // The start form at phone width: one column, nothing wider than the screen.
    const phone = await newPage(browser(), { width: 390, height: 844 });
    phone.page.setDefaultTimeout(15_000);
    await signInAs(phone.page, accounts.applicant);
    await openStartForm(phone.page, key);
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'workflow-forms-start-phone');

    // The manager claims it, sees the request, and must give the plan to approve.
    const approver = await newPage(browser());
    approver.page.setDefaultTimeout(15_000);
    await signInAs(approver.page, accounts.approver);
    await goInApp(approver.page, '/work/work_claim');
    const claimRow = approver.page
      .locator('[data-testid="work-list-claim"]:visible tr.ant-table-row')
      .filter({ hasText: '设备维修申请' });
    await claimRow.locator('[data-testid^="work-claim-"]').click();
    await approver.page.getByTestId('work-tab-todo').click();
    await approver.page
      .locator('[data-testid="work-list-todo"]:visible tr.ant-table-row')
      .filter({ hasText: '设备维修申请' })
      .locator('[data-testid^="work-handle-"]')
      .click();
    await approver.page.getByTestId('flow-task-handle').waitFor();
    await expect(approver.page.getByTestId('flow-request-view').innerText()).resolves.toContain('DEV-E2E 灭菌器');
    await approver.page.getByTestId('flow-pass').click();
    await poll(() => approver.page.locator('.ant-form-item-explain-error').allInnerTexts()).toEqual(['请填写维修方案']);
    await approver.page.getByTestId('form-field-plan').fill('更换门封');
    await approver.page.getByTestId('form-field-cost').fill('350');
    await approver.page.getByTestId('flow-comment').fill('同意维修');
    await screenshot(approver.page, 'workflow-forms-handle-zh');
    await approver.page.getByTestId('flow-pass').click();
    await approver.page.waitForURL('**/work/work_todo');

    // The applicant's 已发 list: finished, the approver's comment in the history.
    await goInApp(applicant.page, '/wel/index');
    await goInApp(applicant.page, '/work/work_send');
    await applicant.page
      .locator('[data-testid="work-list-send"]:visible tr.ant-table-row')
      .filter({ hasText: '设备维修申请' })
      .getByText('详情')
      .click();
    await applicant.page.getByTestId('flow-instance-detail').waitFor();
    await poll(() => applicant.page.getByTestId('flow-instance-state').innerText()).toBe('已办结');
    await poll(() => applicant.page.getByTestId('flow-step').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('同意维修')]),
    );

    // English chrome around the model's own (Chinese) labels.
    const en = await newPage(browser());
    en.page.setDefaultTimeout(15_000);
    await presetSetting(en.page, 'language', 'en');
    await signInAs(en.page, accounts.applicant);
    await openStartForm(en.page, key);
    await expect(en.page.getByTestId('flow-start-submit').innerText()).resolves.toBe('Submit');
    await expect(en.page.getByTestId('flow-start-form').innerText()).resolves.toContain('New request · 设备维修申请');
    await screenshot(en.page, 'workflow-forms-start-en');
    await en.page.getByTestId('flow-start-submit').click();
    await poll(() => en.page.locator('.ant-form-item-explain-error').first().innerText()).toBe('设备 is required');

    // Nothing left running: the deployment and the model go.
    const removed = await callApi<boolean>(
      admin.page,
      `/api/blade-flow/manager/delete-deployment?deploymentIds=${deployed.data[0]?.deploymentId}`,
      {},
    );
    expect(removed.success, removed.msg).toBe(true);
    await callApi(admin.page, `/api/blade-flow/model/remove?ids=${modelId.data}`, {});
    for (const p of [admin, applicant, phone, approver, en]) await p.context.close();
  });
});
