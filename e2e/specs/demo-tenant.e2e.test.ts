import { describe, expect, it } from 'vitest';
import type { DemoTenantStatus, WelcomeOverview } from '@mes/contracts';
import { callApi, newPage, screenshot, signIn, useBrowser } from '../support/browser';
import { DEMO_STATE, demoState, demoTenant } from '../support/demo';

/**
 * The demo tenant's first-start card (docs/demo.md): on a fresh install the platform
 * administrator ticks 创建演示租户 (off by default) and confirms; the job fills the tenant while
 * the card shows its progress; the demo administrator then signs in with the password shown once
 * and finds a living console: devices and a month of cycles on the welcome page.
 */
const browser = useBrowser();
const STATE = DEMO_STATE;

describe('demo tenant on first start', () => {
  let password = '';
  let tenantId = '';

  it('is offered once to the platform administrator, unticked, and filled by a job', async () => {
    const { context, page } = await newPage(browser());
    try {
      await signIn(page);
      // Specs share a server: when another one (demo-judgement.e2e) seeded the demo first, the
      // offer is gone, as it must be once used; what is left to see is that it stays gone and
      // that the tenant it made signs in (the next test).
      if ((await demoState(page)).state !== 'offered') {
        ({ tenantId, password } = await demoTenant(page));
        await page.getByTestId('welcome').waitFor();
        await page.getByTestId('wel-fig-cycles-total').waitFor();
        expect(await page.getByTestId('wel-demo').count()).toBe(0);
        return;
      }
      const card = page.getByTestId('wel-demo');
      await card.waitFor();
      const tick = card.getByRole('checkbox', { name: '创建演示租户' });
      expect(await tick.isChecked()).toBe(false);
      expect(await page.getByTestId('wel-demo-confirm').isDisabled()).toBe(true);
      await screenshot(page, 'demo-tenant-offer');

      await tick.check();
      await page.getByTestId('wel-demo-confirm').click();
      password = (await page.getByTestId('wel-demo-password-value').innerText()).trim();
      expect(password).toMatch(/^\S{16}$/);
      // Progress while the job runs, then its end; the month takes a while on a shared machine.
      await page.getByTestId('wel-demo-done').waitFor({ timeout: 240_000 });
      const state = await callApi<DemoTenantStatus>(page, STATE);
      expect(state.data).toMatchObject({ state: 'done' });
      tenantId = state.data.tenantId ?? '';
      expect(tenantId).toMatch(/^\d{6}$/);
      expect(await page.getByTestId('wel-demo-sign-in-url').innerText()).toContain(`/login?tenantId=${tenantId}`);
      await screenshot(page, 'demo-tenant-done');

      // Once done, the card never comes back.
      await page.reload();
      await page.getByTestId('welcome').waitFor();
      await page.getByTestId('wel-fig-cycles-total').waitFor();
      expect(await page.getByTestId('wel-demo').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('lets the demo administrator sign in and see the devices and the month of cycles', async () => {
    expect(password).not.toBe('');
    const { context, page } = await newPage(browser());
    try {
      await page.goto(`/login?tenantId=${tenantId}`);
      expect(await page.getByTestId('login-link-tenant').inputValue()).toBe(tenantId);
      await page.getByTestId('login-username').fill('admin');
      await page.getByTestId('login-password').fill(password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL('**/wel/index');
      await page.getByTestId('welcome').waitFor();
      // The tenant shown in the account card is the demo tenant; no offer card for it.
      await expect.poll(() => page.getByTestId('wel-account').innerText()).toContain(tenantId);
      const overview = await callApi<WelcomeOverview>(page, '/api/blade-desk/dashboard/overview');
      expect(overview.data.devices.total).toBe(10);
      expect(overview.data.cycles.total).toBeGreaterThan(1000);
      const shown = async (testId: string) =>
        (await page.getByTestId(testId).locator('.ant-statistic-content-value').innerText()).replace(/,/g, '');
      await expect.poll(() => shown('wel-device-counts-total'), { timeout: 15_000 }).toBe('10');
      await expect
        .poll(() => shown('wel-fig-cycles-total'), { timeout: 15_000 })
        .toBe(String(overview.data.cycles.total));
      expect(await page.getByTestId('wel-demo').count()).toBe(0);
      await screenshot(page, 'demo-tenant-welcome');
    } finally {
      await context.close();
    }
  }, 120_000);
});
