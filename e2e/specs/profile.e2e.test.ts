import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { callApi, newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { png } from '../../test-fixtures/png';
import { setParam } from '../support/params';

const browser = useBrowser();

interface Profile {
  avatar: string;
  name: string;
  realName: string;
  phone: string;
  email: string;
}

/** The `data` of an API call made with the page's session. */
const api = async <T>(page: Page, url: string, body?: unknown): Promise<T> => (await callApi<T>(page, url, body)).data;

/**
 * The browser tests share one admin account: a test that edits the profile puts it back, so that
 * other files still see the seeded name and avatar.
 */
async function keepProfile(page: Page): Promise<() => Promise<void>> {
  const p = await api<Profile>(page, '/api/blade-user/info');
  const original = { avatar: p.avatar, name: p.name, realName: p.realName, phone: p.phone, email: p.email };
  return async () => {
    await api(page, '/api/blade-user/update-info', original);
    expect(await api<Profile>(page, '/api/blade-user/info')).toMatchObject(original);
  };
}

async function openProfile(page: Page) {
  await signIn(page);
  await page.goto('/info/index');
  await page.getByTestId('profile-page').waitFor();
  // The form is enabled once the profile has loaded.
  await expect.poll(() => page.getByTestId('profile-phone').isEnabled()).toBe(true);
}

const phoneError = (page: Page) =>
  page
    .locator('.ant-form-item')
    .filter({ has: page.getByTestId('profile-phone') })
    .locator('.ant-form-item-explain');

describe('profile: personal info', () => {
  it('checks the phone on blur: empty, length, then format', async () => {
    const { context, page } = await newPage(browser());
    await openProfile(page);
    const phone = page.getByTestId('profile-phone');
    const email = page.getByTestId('profile-email');
    for (const [value, msg] of [
      ['', '手机号不能为空'],
      ['1380013800', '手机号长度不为11位'],
      ['23800138000', '手机号格式不正确'],
    ] as const) {
      await phone.fill(value);
      await phone.blur();
      await expect.poll(() => phoneError(page).textContent()).toBe(msg);
    }
    await phone.fill('13800138000');
    await phone.blur();
    await expect.poll(() => phoneError(page).count()).toBe(0);

    await email.fill('not-an-email');
    await email.blur();
    await expect
      .poll(() => page.locator('.ant-form-item').filter({ has: email }).locator('.ant-form-item-explain').textContent())
      .toBe('邮箱格式不正确');
    await context.close();
  });

  it('saves the nickname and the header shows it', async () => {
    const { context, page } = await newPage(browser());
    await openProfile(page);
    const restore = await keepProfile(page);
    await page.getByTestId('profile-name').fill('质检员小王');
    await page.getByTestId('profile-phone').fill('13912345678');
    await page.getByTestId('profile-email').fill('wang@example.com');
    await page.getByTestId('profile-submit').click();
    await page.locator('.ant-message-notice').getByText('修改成功').first().waitFor();
    await expect.poll(() => page.getByTestId('user-menu').textContent()).toContain('质检员小王');

    // Stored on the server, not just in the page.
    await page.reload();
    await expect.poll(() => page.getByTestId('profile-name').inputValue()).toBe('质检员小王');
    expect(await page.getByTestId('profile-phone').inputValue()).toBe('13912345678');
    expect(await page.getByTestId('user-menu').textContent()).toContain('质检员小王');
    await restore();
    await context.close();
  });

  it('refuses an avatar that is too big or not jpg/png before uploading it', async () => {
    const { context, page } = await newPage(browser());
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/oss/endpoint/put-file')) uploads.push(r.url());
    });
    await openProfile(page);
    const input = page.locator('.mes-avatar-upload input[type=file]');

    const typeMessage = '上传头像图片只能是 JPG 或 PNG 格式!';
    const sizeMessage = '上传头像图片大小不能超过 500KB!';
    const big = Buffer.concat([png(2), Buffer.alloc(500 * 1024)]);
    // Alternating, so that each message is shown anew.
    for (const [file, msg] of [
      [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }, typeMessage],
      [{ name: 'big.png', mimeType: 'image/png', buffer: big }, sizeMessage],
      [{ name: 'anim.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') }, typeMessage],
      [{ name: 'big.jpg', mimeType: 'image/jpeg', buffer: big }, sizeMessage],
    ] as const) {
      await input.setInputFiles(file);
      await expect.poll(() => page.getByTestId('avatar-error').textContent()).toBe(msg);
      await page.locator('.ant-message-notice').getByText(msg).first().waitFor();
    }

    expect(uploads).toEqual([]);
    await expect.poll(() => page.getByTestId('avatar-image').count()).toBe(0);
    await context.close();
  });

  it('uploads a small PNG, shows it, and saves it as the avatar', async () => {
    const { context, page } = await newPage(browser());
    await openProfile(page);
    const restore = await keepProfile(page);
    await page
      .locator('.mes-avatar-upload input[type=file]')
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: png(96) });
    const image = page.getByTestId('avatar-image');
    await image.waitFor();
    const src = await image.getAttribute('src');
    expect(src).toMatch(/^\/api\/blade-resource\/oss\/endpoint\/file\/\d{8}\/[0-9a-f]{32}\.png$/);
    // The browser really loaded it (no token needed for an <img>).
    await expect.poll(() => image.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(96);
    // The seeded admin has no phone, and the form requires one.
    await page.getByTestId('profile-phone').fill('13700000000');

    await page.getByTestId('profile-submit').click();
    await page.locator('.ant-message-notice').getByText('修改成功').first().waitFor();
    await expect.poll(() => page.getByTestId('user-menu').locator('img').getAttribute('src')).toBe(src);
    await expect.poll(() => page.locator('.ant-btn-loading').count()).toBe(0);
    await page.mouse.move(1200, 800); // away from the button, so it is shown at rest
    await screenshot(page, 'profile');
    await restore();
    await context.close();
  });
});

describe('profile: change password', () => {
  it('shows the server message for a wrong old password, and changes it (then back)', async () => {
    const { context, page } = await newPage(browser());
    await openProfile(page);
    await page.getByRole('tab', { name: '修改密码' }).click();

    await page.getByTestId('password-old').fill('not-my-password');
    await page.getByTestId('password-new').fill('Changed#456');
    await page.getByTestId('password-confirm').fill('Changed#457');
    await page.getByTestId('password-submit').click();
    await expect
      .poll(() =>
        page
          .locator('.ant-form-item')
          .filter({ has: page.getByTestId('password-confirm') })
          .textContent(),
      )
      .toContain('两次密码输入不一致');

    await page.getByTestId('password-confirm').fill('Changed#456');
    await page.getByTestId('password-submit').click();
    await expect.poll(() => page.getByTestId('password-error').textContent()).toBe('原密码不正确');
    await screenshot(page, 'profile-password');

    // Change it for real and back, so that the other browser tests keep the admin password.
    const admin = inject('adminPassword');
    const steps: [string, string][] = [
      [admin, 'Changed#456'],
      ['Changed#456', admin],
    ];
    for (const [from, to] of steps) {
      await page.getByTestId('password-old').fill(from);
      await page.getByTestId('password-new').fill(to);
      await page.getByTestId('password-confirm').fill(to);
      await page.getByTestId('password-submit').click();
      await expect.poll(() => page.getByTestId('password-old').inputValue()).toBe('');
      expect(await page.getByTestId('password-error').count()).toBe(0);
    }
    await context.close();
  });
});

describe('registration dialog', () => {
  it('checks the account, then the passwords, and reports the server reply', async () => {
    // Registration is off by default: the administrator turns it on first.
    const admin = await newPage(browser());
    await signIn(admin.page);
    await setParam(admin.page, 'account.registerUser', 'true');
    await admin.context.close();

    const { context, page } = await newPage(browser());
    await page.goto('/login');
    await page.getByTestId('register-link').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.locator('.ant-modal-title').textContent()).toBe('账号注册');
    // Tenant mode is off: no tenant field.
    expect(await page.getByTestId('register-tenant').count()).toBe(0);

    await page.getByTestId('register-name').fill('张三');
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('register-error').textContent()).toBe('请先输入账号名称');

    await page.getByTestId('register-account').fill('zhangsan');
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('register-error').textContent()).toBe('请先输入密码');

    await page.getByTestId('register-password').fill('Secret#123');
    await page.getByTestId('register-password2').fill('Secret#124');
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('register-error').textContent()).toBe('两次密码输入不一致');
    await screenshot(page, 'register');

    // A refusal the server gives (success false, its msg) is shown and the dialog stays. An
    // existing account is not such a refusal: the reply never tells whether an account exists.
    await page.getByTestId('register-account').fill('bad account!');
    await page.getByTestId('register-password2').fill('Secret#123');
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('register-error').textContent()).not.toBe('两次密码输入不一致');
    expect(await page.getByTestId('register-error').textContent()).toBe('账号只能包含字母、数字和 _ . @ -');
    expect(await dialog.first().isVisible()).toBe(true);
    await screenshot(page, 'register-failed');

    await page.getByTestId('register-account').fill('admin');
    await page.getByTestId('register-submit').click();
    await expect
      .poll(() => page.locator('.ant-modal-confirm').innerText())
      .toContain('注册申请已提交,请耐心等待管理员通过!');
    await context.close();
  });
});
