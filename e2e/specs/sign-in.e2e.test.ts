import { describe, expect, inject, it } from 'vitest';
import { newPage, screenshot, signIn, signInThroughForm, useBrowser } from '../support/browser';
import { setParam } from '../support/params';

const browser = useBrowser();

describe('sign-in page', () => {
  it('is titled 登录, refuses a wrong password with the server message, and signs in', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/login');
    await expect.poll(() => page.title()).toContain('登录');
    await screenshot(page, 'login');
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('用户名或密码不正确');
    expect(page.url()).toContain('/login');

    await signIn(page);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('mes-token') ?? '{}'));
    expect(stored).toMatchObject({ dataType: 'string' });
    expect(typeof stored.datetime).toBe('number');
    expect(stored.content.length).toBeGreaterThan(20);
    await screenshot(page, 'home');
    await context.close();
  });

  it('the password never travels in clear', async () => {
    const { context, page } = await newPage(browser());
    const bodies: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/oauth/token')) bodies.push(r.postData() ?? '');
    });
    await signInThroughForm(page, 'admin', inject('adminPassword'));
    expect(bodies.join('')).not.toContain('E2e#Admin123');
    expect(bodies.join('')).toMatch(/password=[0-9a-f]{32}/);
    await context.close();
  });

  it('each sign-in method tab shows its own form, and the account form comes back', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/login');
    await page.getByTestId('login-methods').getByText('手机号').click();
    await expect.poll(() => page.getByTestId('phone-form').isVisible()).toBe(true);
    expect(await page.getByTestId('login-form').count()).toBe(0);
    await page.getByTestId('login-methods').getByText('账号密码').click();
    await expect.poll(() => page.getByTestId('login-form').isVisible()).toBe(true);
    await context.close();
  });
});

describe('captcha on the sign-in page', () => {
  it('after repeated failures for an account the server asks for the captcha; the page shows it and sends it', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/login');
    await page.getByTestId('login-username').fill('e2e-captcha');
    await page.getByTestId('login-password').fill('wrong-password');
    const submit = async () => {
      const reply = page.waitForResponse((r) => r.url().includes('/oauth/token'));
      await page.getByTestId('login-submit').click();
      return (await reply).request();
    };
    for (let i = 0; i < 4; i++) await submit();
    expect(await page.getByTestId('login-captcha').count()).toBe(0);
    await submit(); // the fifth failure reaches account.failCount
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('请输入验证码');
    await expect.poll(() => page.getByTestId('login-captcha').locator('img').count()).toBe(1);
    await screenshot(page, 'login-captcha');

    // The captcha is now required by the form, then sent with grant_type=captcha.
    await page.getByTestId('login-submit').click();
    await expect
      .poll(() => page.getByTestId('login-captcha').locator('xpath=ancestor::label').getByRole('alert').textContent())
      .toBe('请输入验证码');
    await page.getByTestId('login-captcha-code').fill('zzzz');
    const sent = await submit();
    expect(sent.postData()).toContain('grant_type=captcha');
    expect(sent.headers()['captcha-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.headers()['captcha-code']).toBe('zzzz');
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('验证码不正确');
    expect(page.url()).toContain('/login');
    await context.close();
  });

  it('in captcha mode the page shows the captcha before the first attempt', async () => {
    const admin = await newPage(browser());
    await signIn(admin.page);
    await setParam(admin.page, 'account.captchaMode', 'true');
    try {
      const { context, page } = await newPage(browser());
      await page.goto('/login');
      await expect.poll(() => page.getByTestId('login-captcha').locator('img').count()).toBe(1);
      await context.close();
    } finally {
      await setParam(admin.page, 'account.captchaMode', 'false');
    }
    const { context, page } = await newPage(browser());
    const options = page.waitForResponse((r) => r.url().includes('/oauth/sign-in-options'));
    await page.goto('/login');
    expect((await (await options).json()).data).toEqual({ captchaMode: false });
    await page.getByTestId('login-username').waitFor();
    expect(await page.getByTestId('login-captcha').count()).toBe(0);
    await context.close();
    await admin.context.close();
  });
});

describe('navigation guard', () => {
  it('without a token every route goes to /login; public routes stay', async () => {
    const { context, page } = await newPage(browser());
    await page.goto('/wel/index');
    await page.waitForURL('**/login');
    await page.goto('/404');
    expect(page.url()).toMatch(/\/404$/);
    await context.close();
  });

  it('signed in: / goes to /wel/index, /login goes home, unknown paths go to /404', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.goto('/');
    await page.waitForURL('**/wel/index');
    await page.goto('/login');
    await page.waitForURL('**/wel/index');
    await page.goto('/no/such/screen');
    await page.waitForURL('**/404');
    await context.close();
  });

  it('an empty stored token signs out locally', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await page.evaluate(() =>
      localStorage.setItem('mes-token', JSON.stringify({ dataType: 'string', content: '', datetime: Date.now() })),
    );
    await page.goto('/wel/index');
    await page.waitForURL('**/login');
    await context.close();
  });

  it('a 401 from the server signs out and opens /login', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    // Revoke the session behind the page's back, then make it call the API.
    await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem('mes-token') ?? '{}').content as string;
      await fetch('/api/blade-auth/oauth/logout', { headers: { 'Blade-Auth': `bearer ${token}` } });
    });
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('mes-token'))).toBeNull();
    await context.close();
  });
});
