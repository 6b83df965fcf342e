import { describe, expect, it } from 'vitest';
import { newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp, presetSetting, tabLabels } from '../support/shell';

const browser = useBrowser();

describe('failed jobs monitor', () => {
  it('opens from 系统监控 for the platform administrator and lists failed jobs (none yet)', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const read = page.waitForResponse((r) => r.url().includes('/api/blade-system/jobs/failed'));
    await goInApp(page, '/monitor/jobs');
    const screen = page.locator('[data-screen="/monitor/jobs"]');
    expect((await read).status()).toBe(200);
    await poll(() => screen.locator('thead').innerText()).toContain('失败时间');
    await poll(() => screen.locator('.ant-empty').count()).toBe(1);
    await poll(() => tabLabels(page)).toContain('失败任务');
    // A name filter goes to the server with the query, page 1.
    const filtered = page.waitForRequest((r) => r.url().includes('/jobs/failed') && r.url().includes('name=log.prune'));
    await screen.getByPlaceholder('请输入任务名称').fill('log.prune');
    await screen.getByPlaceholder('请输入任务名称').press('Enter');
    expect(new URL((await filtered).url()).searchParams.get('current')).toBe('1');
    await screenshot(page, 'monitor-jobs-zh');
    await context.close();
  });

  it('reads in English', async () => {
    const { context, page } = await newPage(browser());
    await presetSetting(page, 'language', 'en');
    await signIn(page);
    await goInApp(page, '/monitor/jobs');
    const screen = page.locator('[data-screen="/monitor/jobs"]');
    await poll(() => screen.locator('thead').innerText()).toContain('Failed at');
    await poll(() => tabLabels(page)).toContain('Failed jobs');
    await screenshot(page, 'monitor-jobs-en');
    await context.close();
  });
});
