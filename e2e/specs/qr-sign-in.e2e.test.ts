import { describe, expect, it } from 'vitest';
import { newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';

const browser = useBrowser();

describe('QR sign-in', () => {
  it('signs in a second browser once a signed-in user confirms its QR code', async () => {
    const desk = await newPage(browser());
    const phone = await newPage(browser(), { width: 414, height: 896 });

    // The device that wants to sign in shows the QR code.
    await desk.page.goto('/login');
    await desk.page.getByTestId('login-methods').getByRole('tab', { name: '扫码登录' }).click();
    const image = desk.page.getByTestId('qr-image');
    await image.waitFor();
    const link = await image.getAttribute('data-link');
    expect(link).toMatch(/\/qr-confirm\?code=[A-Za-z0-9_-]+$/);
    await poll(() => desk.page.getByTestId('qr-countdown').innerText()).toMatch(/\d+ 秒后过期/);
    expect(await desk.page.getByTestId('qr-status').getAttribute('data-status')).toBe('waiting');
    await screenshot(desk.page, 'qr-login-waiting');

    // The signed-in device opens the link (as a phone's scanner would) and sees who asks.
    await signIn(phone.page);
    await phone.page.goto(link ?? '');
    const confirm = phone.page.getByTestId('qr-confirm-ok');
    await confirm.waitFor();
    await poll(() => phone.page.getByTestId('qr-confirm').innerText()).toContain('000000');
    await poll(() => desk.page.getByTestId('qr-status').getAttribute('data-status')).toBe('scanned');
    await poll(() => desk.page.getByTestId('qr-status').innerText()).toContain('已扫码');
    // Away from the collapsed side menu, whose pop-up opens on hover.
    await phone.page.mouse.move(300, 850);
    await screenshot(phone.page, 'qr-confirm-ask');
    await screenshot(desk.page, 'qr-login-scanned');

    await confirm.click();
    await phone.page.getByTestId('qr-confirm-done').waitFor();
    await screenshot(phone.page, 'qr-confirm-done');

    // The first device signs in as the user who confirmed.
    await desk.page.waitForURL('**/wel/index', { timeout: 15_000 });
    await desk.page.getByTestId('welcome').waitFor();
    const stored = await desk.page.evaluate(() => JSON.parse(localStorage.getItem('mes-userInfo') ?? '{}'));
    expect(stored.content?.account).toBe('admin');
    await screenshot(desk.page, 'qr-login-signed-in');

    // A used code cannot be confirmed again.
    await phone.page.goto(link ?? '');
    await poll(() => phone.page.getByTestId('qr-confirm-failed').innerText()).toContain('二维码无效');

    await desk.context.close();
    await phone.context.close();
  });

  it('stops at a cancelled code and offers a new one', async () => {
    const desk = await newPage(browser());
    const phone = await newPage(browser());
    await desk.page.goto('/login');
    await desk.page.getByTestId('login-methods').getByRole('tab', { name: '扫码登录' }).click();
    const image = desk.page.getByTestId('qr-image');
    await image.waitFor();
    const link = (await image.getAttribute('data-link')) ?? '';

    await signIn(phone.page);
    await phone.page.goto(link);
    await phone.page.getByTestId('qr-confirm-cancel').click();
    await phone.page.getByTestId('qr-confirm-cancelled').waitFor();

    await poll(() => desk.page.getByTestId('qr-status').getAttribute('data-status')).toBe('cancelled');
    await desk.page.getByTestId('qr-refresh').waitFor();
    await screenshot(desk.page, 'qr-login-cancelled');
    await desk.page.getByTestId('qr-refresh').click();
    await poll(() => desk.page.getByTestId('qr-image').getAttribute('data-link')).not.toBe(link);
    expect(await desk.page.getByTestId('qr-status').getAttribute('data-status')).toBe('waiting');

    await desk.context.close();
    await phone.context.close();
  });
});
