import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthTestServer } from '../../apps/server/test/support/oauth-test-server';
import { callApi, launchBrowser, newPage, poll, screenshot, signIn, traceFailures } from '../support/browser';
import { setParam } from '../support/params';

let browser: Browser;
/** A local OpenID Connect provider the server and the browser both reach. */
let provider: OAuthTestServer;
traceFailures();
beforeAll(async () => {
  browser = await launchBrowser();
  provider = await new OAuthTestServer({ 'e2e-client': 'e2e-client-secret' }).start();
});
afterAll(async () => {
  await browser.close();
  await provider.stop();
});

const ACCOUNT = 'e2e_guest';
const PASSWORD = 'Guest#2024';

const rows = (page: Page) => page.locator('[data-testid="crud-table"] tbody tr.ant-table-row');
const rowOf = (page: Page, text: string) => rows(page).filter({ hasText: text });

async function signInAs(page: Page, account: string, password: string) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

describe('guest registration', () => {
  it('offers 注册账号 only while an administrator has registration on', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page);
    // The OpenID Connect provider of a later test listens on 127.0.0.1: the platform allows it.
    await setParam(admin.page, 'security.outbound.allow', '127.0.0.1');
    // Off (the seeded default; the spec files share one server, so it is set here explicitly).
    await setParam(admin.page, 'account.registerUser', 'false');

    const visitor = await newPage(browser);
    await visitor.page.goto('/login');
    await visitor.page.getByTestId('login-username').waitFor();
    // Give the page time to ask the server.
    await visitor.page.waitForLoadState('networkidle');
    expect(await visitor.page.getByTestId('register-link').count()).toBe(0);

    await setParam(admin.page, 'account.registerUser', 'true');
    await admin.context.close();
    await visitor.page.reload();
    await visitor.page.getByTestId('register-link').waitFor();
    await visitor.context.close();
  });

  it('registers, waits for approval on the user screen, then signs in', async () => {
    const guest = await newPage(browser);
    await guest.page.goto('/login');
    await guest.page.getByTestId('register-link').click();
    await guest.page.getByTestId('register-account').waitFor();
    await guest.page.getByTestId('register-name').fill('访客甲');
    await guest.page.getByTestId('register-account').fill(ACCOUNT);
    await guest.page.getByTestId('register-password').fill(PASSWORD);
    await guest.page.getByTestId('register-password2').fill(PASSWORD);
    await screenshot(guest.page, 'guest-register-dialog');
    await guest.page.getByTestId('register-submit').click();

    const notice = guest.page.locator('.ant-modal-confirm');
    await poll(() => notice.innerText()).toContain('注册申请已提交,请耐心等待管理员通过!');
    expect(await notice.locator('.ant-modal-confirm-title').innerText()).toBe('注册提示');
    await screenshot(guest.page, 'guest-register-submitted');
    await notice.locator('.ant-btn-primary').click();
    await guest.page.waitForURL('**/login');

    // Registering the same account again gets the same reply: nobody learns which accounts exist.
    await guest.page.getByTestId('register-link').click();
    await guest.page.getByTestId('register-account').fill(ACCOUNT);
    await guest.page.getByTestId('register-password').fill(PASSWORD);
    await guest.page.getByTestId('register-password2').fill(PASSWORD);
    await guest.page.getByTestId('register-submit').click();
    await poll(() => notice.innerText()).toContain('注册申请已提交,请耐心等待管理员通过!');
    await notice.locator('.ant-btn-primary').click();
    await guest.page.waitForURL('**/login');

    // Pending: the sign-in says so.
    await signInAs(guest.page, ACCOUNT, PASSWORD);
    await poll(() => guest.page.getByTestId('login-error').innerText()).toBe('账号正在等待管理员审核');

    // The administrator finds the pending account and approves it.
    const admin = await newPage(browser);
    await signIn(admin.page);
    await admin.page.waitForFunction(() => {
      const stored = JSON.parse(localStorage.getItem('mes-menuAll') ?? '{}') as { content?: unknown[] };
      return (stored.content?.length ?? 0) > 0;
    });
    await admin.page.goto('/system/user');
    await admin.page.getByTestId('user-screen').waitFor();
    await poll(() => rowOf(admin.page, 'admin').count()).toBeGreaterThan(0);
    await admin.page.getByTestId('user-only-pending').click();
    await poll(() => rowOf(admin.page, 'admin').count()).toBe(0);
    const row = rowOf(admin.page, ACCOUNT);
    await poll(() => row.count()).toBe(1);
    expect(await row.getByTestId('user-status-pending').innerText()).toBe('待审核');
    await screenshot(admin.page, 'guest-pending-on-user-screen');

    await row.locator('.ant-checkbox-input').check();
    await admin.page.getByTestId('user-audit-pass').click();
    await admin.page.getByTestId('user-audit-roles').waitFor();
    await screenshot(admin.page, 'guest-audit-dialog');
    await admin.page.getByTestId('user-audit-save').click();
    await admin.page.locator('.ant-message-notice', { hasText: '操作成功' }).first().waitFor();
    // Approved: no longer in the pending list; shown as 正常 in the full list.
    await poll(() => rowOf(admin.page, ACCOUNT).count()).toBe(0);
    await admin.page.getByTestId('user-only-pending').click();
    await poll(() => rowOf(admin.page, ACCOUNT).innerText()).toContain('正常');
    await screenshot(admin.page, 'guest-approved');

    // The guest signs in.
    await signInAs(guest.page, ACCOUNT, PASSWORD);
    await guest.page.waitForURL('**/wel/index');
    await guest.page.getByTestId('welcome').waitFor();

    await guest.context.close();
    await admin.context.close();
  });

  it('lets a first-time third-party user register from the callback page, or link an account', async () => {
    const admin = await newPage(browser);
    await signIn(admin.page);
    const added = await callApi<string>(admin.page, '/api/blade-resource/social/submit', {
      source: 'corp',
      name: '企业账号',
      category: 'oidc',
      clientId: 'e2e-client',
      clientSecret: 'e2e-client-secret',
      authorizeUrl: `${provider.baseUrl}/authorize`,
      tokenUrl: `${provider.baseUrl}/token`,
      userInfoUrl: `${provider.baseUrl}/userinfo`,
    });
    expect(added.success, added.msg).toBe(true);

    const viaProvider = async (page: Page) => {
      await page.goto('/login');
      await page.getByTestId('login-methods').getByRole('tab', { name: '第三方账号' }).click();
      await page.getByTestId('social-corp').click();
      await page.waitForURL('**/oauth/callback?**');
    };

    // A new provider account: register from the callback page; the account waits for approval.
    provider.user = { id: 'e2e-sub-1', login: 'social.guest', name: '外部访客', email: '', avatar: '' };
    const guest = await newPage(browser);
    await viaProvider(guest.page);
    await poll(() => guest.page.getByTestId('oauth-not-linked').innerText()).toContain('外部访客');
    await screenshot(guest.page, 'social-callback-not-linked');
    await guest.page.getByTestId('social-register').click();
    await guest.page.getByTestId('register-account').fill('social_guest');
    await guest.page.getByTestId('register-password').fill(PASSWORD);
    await guest.page.getByTestId('register-password2').fill(PASSWORD);
    await guest.page.getByTestId('register-submit').click();
    const notice = guest.page.locator('.ant-modal-confirm');
    await poll(() => notice.innerText()).toContain('注册申请已提交,请耐心等待管理员通过!');
    await notice.locator('.ant-btn-primary').click();
    await guest.page.waitForURL('**/login');

    await viaProvider(guest.page);
    await poll(() => guest.page.getByTestId('oauth-callback-error').innerText()).toBe('账号正在等待管理员审核');

    const page = await callApi<{ records: { id: string }[] }>(admin.page, '/api/blade-user/page?account=social_guest');
    const approved = await callApi(admin.page, `/api/blade-user/audit-pass?ids=${page.data.records[0]?.id}`, {});
    expect(approved.success, approved.msg).toBe(true);
    await viaProvider(guest.page);
    await guest.page.waitForURL('**/wel/index');
    await guest.page.getByTestId('welcome').waitFor();

    // Another provider account links to an existing account with its password.
    provider.user = { id: 'e2e-sub-2', login: 'boss', name: '老板', email: '', avatar: '' };
    const linker = await newPage(browser);
    await viaProvider(linker.page);
    await linker.page.getByTestId('social-link-account').fill(ACCOUNT);
    await linker.page.getByTestId('social-link-password').fill('wrong');
    await linker.page.getByTestId('social-link-submit').click();
    await poll(() => linker.page.getByTestId('social-link-error').innerText()).toBe('用户名或密码不正确');
    await linker.page.getByTestId('social-link-password').fill(PASSWORD);
    await linker.page.getByTestId('social-link-submit').click();
    await linker.page.waitForURL('**/wel/index');
    const stored = await linker.page.evaluate(() => JSON.parse(localStorage.getItem('mes-userInfo') ?? '{}'));
    expect(stored.content?.account).toBe(ACCOUNT);

    await admin.context.close();
    await guest.context.close();
    await linker.context.close();
  });
});
