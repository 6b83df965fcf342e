import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { thisServer } from '../support/server';
import { openMenuScreen } from '../support/shell';

/**
 * SMS sign-in with the development provider: the configuration screen enables it and sends a
 * test message, then a phone signs in with the code the provider wrote to the server log.
 */
const browser = useBrowser();

const PHONE = '13912340001';
const TEST_PHONE = '13912340002';
const ACCOUNT = 'e2e_phone';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

interface DevelopmentLine {
  tag?: string;
  phones?: string[];
  params?: Record<string, string>;
}

/** What the development provider logged for a phone, newest last. */
function loggedFor(phone: string): DevelopmentLine[] {
  return fs
    .readFileSync(thisServer().serverLog, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"sms-development"'))
    .map((line) => JSON.parse(line) as DevelopmentLine)
    .filter((entry) => entry.tag === 'sms-development' && entry.phones?.includes(phone));
}

const rowOf = (page: Page, text: string) =>
  page.locator('[data-testid="crud-table"] tbody tr.ant-table-row').filter({ hasText: text });

describe('SMS sign-in with the development provider', () => {
  it('the configuration screen enables a development configuration and sends a test message', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const saved = await callApi<string>(page, '/api/blade-resource/sms/submit', {
      category: 5,
      smsCode: 'e2e-dev',
      templateId: 'SIGN_IN',
      signName: 'MES',
      remark: '浏览器测试',
    });
    expect(saved.success).toBe(true);
    const info = await callApi<{ roleId: string; deptId: string }>(page, '/api/blade-auth/oauth/user-info');
    const created = await callApi<string>(page, '/api/blade-user/submit', {
      account: ACCOUNT,
      password: md5('Phone#123'),
      name: '手机用户',
      realName: '手机用户',
      userType: 1,
      phone: PHONE,
      roleId: info.data.roleId,
      deptId: info.data.deptId.split(',')[0],
    });
    expect(created.success, created.msg).toBe(true);

    await openMenuScreen(page, '/resource/sms');
    await page.getByTestId('sms-screen').waitFor();
    const row = rowOf(page, 'e2e-dev');
    await row.waitFor();
    await expect.poll(() => row.getByTestId('sms-status').innerText()).toBe('停用');
    await row.getByTestId('sms-enable').click();
    await page.locator('.ant-modal-confirm').locator('.ant-btn-primary').click();
    await expect.poll(() => row.getByTestId('sms-status').innerText(), { timeout: 10_000 }).toBe('启用');
    await expect.poll(() => row.getByTestId('sms-enable').count()).toBe(0);
    await screenshot(page, 'sms-config');

    await row.getByTestId('sms-send').click();
    await page.getByTestId('sms-send-save').click();
    await expect.poll(() => page.getByText('请输入手机号').isVisible()).toBe(true);
    await page.getByTestId('sms-send-phones').fill(TEST_PHONE);
    await page.getByTestId('sms-send-params').fill('{"code":"778899"}');
    await screenshot(page, 'sms-send-dialog');
    await page.getByTestId('sms-send-save').click();
    await expect.poll(() => page.getByText('操作成功').first().isVisible()).toBe(true);
    await expect.poll(() => loggedFor(TEST_PHONE).at(-1)?.params, { timeout: 10_000 }).toEqual({ code: '778899' });
    await context.close();
  });

  it('signs in on the phone tab with the code from the log', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/login');
    await page.getByTestId('login-methods').getByText('手机号').click();
    await page.getByTestId('phone-form').waitFor();

    // The phone is checked before a code is asked for.
    await page.getByTestId('phone-send-code').click();
    await expect.poll(() => page.getByText('手机号不能为空').isVisible()).toBe(true);
    await page.getByTestId('phone-number').fill('1391234');
    await page.getByTestId('phone-send-code').click();
    await expect.poll(() => page.getByText('手机号长度不为11位').isVisible()).toBe(true);
    await page.getByTestId('phone-number').fill('23912340001');
    await page.getByTestId('phone-send-code').click();
    await expect.poll(() => page.getByText('手机号格式不正确').isVisible()).toBe(true);

    await page.getByTestId('phone-number').fill(PHONE);
    await page.getByTestId('phone-submit').click();
    await expect.poll(() => page.getByText('请输入短信验证码').isVisible()).toBe(true);

    const before = loggedFor(PHONE).length;
    await page.getByTestId('phone-send-code').click();
    await expect.poll(() => page.getByTestId('phone-info').textContent()).toContain('验证码已发送');
    await expect.poll(() => page.getByTestId('phone-send-code').textContent()).toMatch(/\d+秒后重新发送/);
    expect(await page.getByTestId('phone-send-code').isDisabled()).toBe(true);
    // The countdown runs (the poll only waits for it to go below 60).
    await expect
      .poll(() => page.getByTestId('phone-send-code').textContent(), { timeout: 5000 })
      .toMatch(/^5\d秒后重新发送$/);
    await expect.poll(() => loggedFor(PHONE).length, { timeout: 10_000 }).toBe(before + 1);
    const code = loggedFor(PHONE).at(-1)?.params?.code as string;
    expect(code).toMatch(/^\d{6}$/);
    await screenshot(page, 'sms-sign-in-sent');

    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByTestId('phone-code').fill(wrong);
    await page.getByTestId('phone-submit').click();
    await expect.poll(() => page.getByTestId('phone-error').textContent()).toBe('验证码不正确或已过期');
    await screenshot(page, 'sms-sign-in-wrong-code');

    await page.getByTestId('phone-code').fill(code);
    await page.getByTestId('phone-submit').click();
    await page.waitForURL('**/wel/index');
    await page.getByTestId('welcome').waitFor();
    const user = await callApi<{ account: string }>(page, '/api/blade-auth/oauth/user-info');
    expect(user.data.account).toBe(ACCOUNT);
    await context.close();
  });
});
