import { describe, expect, it } from 'vitest';
import { callApi, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp } from '../support/shell';

const browser = useBrowser();

/** A manual record of one of the seeded demo devices, made through the API. */
async function manualRecord(page: Parameters<typeof callApi>[0]): Promise<string> {
  const db = await serverDatabase();
  try {
    const { rows } = await db.query<{ id: string }>(
      `select id::text from mes_device where tenant_id = '000000' and is_deleted = 0 order by id limit 1`,
    );
    const end = new Date(Date.now() - 3_600_000);
    const stamp = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 19);
    const made = await callApi<string>(page, '/api/blade-business/disinfection/submit', {
      deviceId: rows[0]?.id,
      startTime: stamp(new Date(end.getTime() - 1_800_000)),
      endTime: stamp(end),
      result: 1,
      batchNo: 'E2E-1',
    });
    expect(made.success).toBe(true);
    return made.data;
  } finally {
    await db.end();
  }
}

describe('disinfection records', () => {
  it('lists records without 编辑, shows their versions, and names the row a plain-SQL edit broke', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    const id = await manualRecord(page);
    await goInApp(page, '/business/disinfection');
    const screen = page.locator('[data-screen="/business/disinfection"]');
    await poll(() => screen.locator('.ant-table-tbody').innerText()).toContain('手工录入');
    expect(await screen.getByTestId('crud-row-edit').count()).toBe(0);
    expect(await screen.getByTestId('disinfection-review').count()).toBeGreaterThan(0);
    expect(await screen.getByTestId('disinfection-correct').count()).toBeGreaterThan(0);
    await screenshot(page, 'disinfection-records-zh');

    await screen.getByTestId('disinfection-versions').first().click();
    await poll(() => page.getByTestId('disinfection-versions-table').innerText()).toContain('当前');
    await page.locator('.ant-modal-close').last().click();

    await screen.getByTestId('disinfection-verify').click();
    await poll(() => page.getByTestId('disinfection-verify-result').innerText()).toContain('记录链完整');
    await page.locator('.ant-modal-confirm-btns button').click();

    const db = await serverDatabase();
    try {
      await db.query(`update mes_disinfection_record set batch_no = 'E2E-X' where id = $1`, [id]);
      await screen.getByTestId('disinfection-verify').click();
      await poll(() => page.getByTestId('disinfection-verify-result').innerText()).toContain(id);
      expect(await page.getByTestId('disinfection-verify-result').innerText()).toContain('记录被改动');
      await screenshot(page, 'disinfection-records-verify-broken');
      await page.locator('.ant-modal-confirm-btns button').click();
    } finally {
      // Put the row back as it was hashed: the shared database's chain is whole again.
      await db.query(`update mes_disinfection_record set batch_no = 'E2E-1' where id = $1`, [id]);
      await db.end();
    }
    await context.close();
  });
});
