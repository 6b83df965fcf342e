import { describe, expect, it } from 'vitest';
import { crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { goInApp, presetSetting, tabLabels } from '../support/shell';

const browser = useBrowser();

describe('failed jobs monitor', () => {
  it('opens from 系统监控 for the platform administrator and lists the failed jobs the server has', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const read = page.waitForResponse((r) => r.url().includes('/api/blade-system/jobs/failed'));
    await goInApp(page, '/monitor/jobs');
    const screen = page.locator('[data-screen="/monitor/jobs"]');
    const answer = await read;
    expect(answer.status()).toBe(200);
    await poll(() => screen.locator('thead').innerText()).toContain('失败时间');
    // Specs share the server, and another one's job may have failed before this spec ran: the
    // screen shows what the server answered, the empty state only when it has none.
    const { data } = (await answer.json()) as { data: { total: number; records: unknown[] } };
    if (data.total === 0) await poll(() => screen.locator('.ant-empty').count()).toBe(1);
    else await poll(() => screen.locator('.ant-table-row').count()).toBe(data.records.length);
    await poll(() => tabLabels(page)).toContain('失败任务');
    // A name filter goes to the server with the query, page 1.
    const filtered = page.waitForRequest((r) => r.url().includes('/jobs/failed') && r.url().includes('name=log.prune'));
    await screen.getByPlaceholder('请输入任务名称').fill('log.prune');
    await screen.getByPlaceholder('请输入任务名称').press('Enter');
    expect(new URL((await filtered).url()).searchParams.get('current')).toBe('1');
    await screenshot(page, 'monitor-jobs-zh');
    await context.close();
  });

  it('shows a failed job’s payload and error in its view dialog, at 375 px too', async () => {
    const { context, page } = await newPage(browser(), { width: 375, height: 812 });
    await signIn(page);
    // The e2e server has no failed job, and a spec cannot make one fail: the list's answer is
    // replaced in the browser, so nothing is added to the shared database.
    const failed = {
      id: '3f1c2b8e-0000-4000-8000-000000000001',
      name: 'report.render',
      payload: { reportId: 'r-42', format: 'pdf' },
      error: 'template r-42 has no page',
      retryCount: 2,
      retryLimit: 2,
      createTime: '2026-11-20 08:00:00',
      startTime: '2026-11-20 08:10:00',
      failTime: '2026-11-20 08:10:05',
    };
    await page.route('**/api/blade-system/jobs/failed**', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          code: 200,
          success: true,
          msg: '操作成功',
          data: { records: [failed], total: 1, size: 10, current: 1, pages: 1 },
        }),
      }),
    );
    await goInApp(page, '/monitor/jobs');
    const screen = page.locator('[data-screen="/monitor/jobs"]');
    await poll(() => screen.locator('tbody').innerText()).toContain('report.render');
    expect(await screen.locator('tbody').innerText()).toContain('2 / 2');
    // The page itself never scrolls sideways on a phone; the table scrolls in its card.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    await screenshot(page, 'monitor-jobs-zh-375');
    await screen.getByTestId('crud-row-view').first().click();
    const dialog = crudDialog(page);
    // The view dialog shows every field in read-only inputs: the payload as JSON, the error whole.
    const shown = () =>
      dialog.evaluate((el) =>
        Array.from(el.querySelectorAll('textarea, input'))
          .map((f) => (f as HTMLInputElement).value)
          .join('\n'),
      );
    await poll(shown).toContain('template r-42 has no page');
    expect(await shown()).toContain('"reportId": "r-42"');
    expect(await dialog.innerText()).toContain('参数');
    // The whole width once the opening animation is over.
    await poll(async () => (await dialog.boundingBox())?.width).toBe(375);
    await screenshot(page, 'monitor-jobs-zh-375-view');
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
