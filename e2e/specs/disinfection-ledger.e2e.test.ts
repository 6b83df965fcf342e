import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp, presetSetting } from '../support/shell';

const browser = useBrowser();
const SCREEN = '/business/ledger';
const EAST = '1000000000000000302';
const SOUTH = '1000000000000000303';
/** A month of the past that only this spec's records fill. */
const MONTH = { start: '2025-03-01', end: '2025-03-31' };

/**
 * Two devices and their records of March 2025: LG-E2E-1 (east) 3 cycles on the 5th (2 passed,
 * 1 failed) and an aborted one on the 6th; LG-E2E-2 (south) 2 passed cycles on the 5th and a
 * superseded version that must not count. Six cycles in all.
 */
async function seed(): Promise<void> {
  const db = await serverDatabase();
  try {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from mes_device where tenant_id = '000000' and device_code like 'LG-E2E-%'`,
    );
    if (rows[0]?.n) return;
    const devices = [
      { id: '9160000000000000001', code: 'LG-E2E-1', dept: EAST, chairs: 3 },
      { id: '9160000000000000002', code: 'LG-E2E-2', dept: SOUTH, chairs: 5 },
    ];
    for (const d of devices)
      await db.query(
        `insert into mes_device (id, tenant_id, device_code, device_name, product_id, dept_id, chairs, mqtt_client_id)
         values ($1, '000000', $2, $3,
           -- a product that exists, so the screens that group devices by product see an ordinary device
           coalesce((select id from mes_product where tenant_id = '000000' and is_deleted = 0 order by id limit 1), 1),
           $4, $5, $6)`,
        [d.id, d.code, `台账设备${d.code.slice(-1)}`, d.dept, d.chairs, `e2e-${d.code}`],
      );
    const records: [number, string, number, string, string, boolean][] = [
      // device, end (Shanghai), result, concentration, water volume, superseded
      [0, '2025-03-05T09:00:00+08:00', 1, '2.00', '1.00', false],
      [0, '2025-03-05T11:00:00+08:00', 1, '3.00', '1.00', false],
      [0, '2025-03-05T15:00:00+08:00', 2, '1.00', '2.00', false],
      [0, '2025-03-06T09:00:00+08:00', 3, '2.00', '0.50', false],
      [1, '2025-03-05T10:00:00+08:00', 1, '4.00', '1.50', false],
      [1, '2025-03-05T16:00:00+08:00', 1, '4.00', '1.50', false],
      [1, '2025-03-05T16:00:00+08:00', 2, '0.10', '1.50', true],
    ];
    let n = 0;
    for (const [device, end, result, concentration, water, superseded] of records) {
      const d = devices[device] as (typeof devices)[number];
      n += 1;
      const endAt = new Date(end);
      await db.query(
        `insert into mes_disinfection_record (id, tenant_id, record_no, device_id, device_code, dept_id, record_type,
           start_time, end_time, duration_seconds, concentration, water_volume, result, superseded, chain_seq)
         values ($1, '000000', $2, $3, $4, $5, 3, $6, $7, 1800, $8, $9, $10, $11, $12)`,
        [
          String(9_160_000_000_000_000_100n + BigInt(n)),
          `XD-E2E-${n}`,
          d.id,
          d.code,
          d.dept,
          new Date(endAt.getTime() - 1_800_000),
          endAt,
          concentration,
          water,
          result,
          superseded,
          n,
        ],
      );
    }
  } finally {
    await db.end();
  }
}

/** Opens the ledger and asks for March 2025 by day (typed into the range picker, as a user does). */
async function openMarch(page: Page): Promise<void> {
  await goInApp(page, SCREEN);
  const screen = page.locator(`[data-screen="${SCREEN}"]`);
  const inputs = screen.locator('.ant-picker-range input');
  await inputs.first().click();
  await inputs.first().fill(MONTH.start);
  await inputs.first().press('Enter');
  await inputs.last().fill(MONTH.end);
  await inputs.last().press('Enter');
  await poll(() => screen.locator('.ant-table-tbody').innerText()).toContain('LG-E2E-2');
}

const rowTexts = (page: Page) =>
  page.locator(`[data-screen="${SCREEN}"] .ant-table-tbody tr.ant-table-row`).allInnerTexts();

beforeAll(seed);
// The records are written without their chain's hashes: leave no broken chain to other specs that
// verify the tenant's chains (disinfection-records), nor devices to screens that count them.
afterAll(async () => {
  const db = await serverDatabase();
  try {
    await db.query(`delete from mes_disinfection_record where tenant_id = '000000' and device_code like 'LG-E2E-%'`);
    await db.query(`delete from mes_device where tenant_id = '000000' and device_code like 'LG-E2E-%'`);
  } finally {
    await db.end();
  }
});

describe('disinfection ledger', () => {
  it('lists March by day, filters by device, exports the rows as xlsx and prints the register with its totals', async () => {
    const { context, page } = await newPage(browser());
    await signIn(page);
    await openMarch(page);
    const screen = page.locator(`[data-screen="${SCREEN}"]`);
    // Three rows: device 1 on the 5th and the 6th, device 2 on the 5th (the superseded version not counted).
    await poll(async () => (await rowTexts(page)).length).toBe(3);
    const texts = await rowTexts(page);
    expect(texts.find((t) => t.includes('LG-E2E-2'))).toMatch(/2025-03-05[\s\S]*\b2\b/);

    // Filter by device code through the search bar.
    const search = screen.getByTestId('crud-search');
    await search.locator('input[id$="deviceCode"]').fill('LG-E2E-1');
    await search.getByTestId('crud-search-submit').click();
    await poll(async () => (await rowTexts(page)).length).toBe(2);
    expect((await rowTexts(page)).every((t) => t.includes('LG-E2E-1'))).toBe(true);
    await screenshot(page, 'disinfection-ledger-zh');

    // Export: the xlsx downloads and holds the rows listed.
    const [file] = await Promise.all([page.waitForEvent('download'), screen.getByTestId('crud-export').click()]);
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-e2e-')), file.suggestedFilename());
    await file.saveAs(saved);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(saved);
    const sheet = book.worksheets[0];
    const sheetRows: string[] = [];
    sheet?.eachRow((row) => sheetRows.push(JSON.stringify(row.values)));
    expect(sheetRows[0]).toContain('消毒次数');
    expect(sheetRows.slice(1)).toHaveLength(2);
    expect(sheetRows.slice(1).every((r) => r.includes('LG-E2E-1') && r.includes('台账设备1'))).toBe(true);

    // The register: the same rows, bordered, with the totals of the filtered rows.
    await search.getByTestId('crud-search-reset').click();
    await poll(async () => (await rowTexts(page)).length).toBe(3);
    await screen.getByTestId('ledger-print').click();
    const register = page.getByTestId('ledger-register');
    await register.waitFor();
    await expect.poll(() => register.innerText()).toContain('消毒登记台账');
    const table = page.getByTestId('ledger-register-table');
    await poll(() => table.locator('tbody tr').count()).toBe(3);
    const totals = page.getByTestId('ledger-register-totals');
    const total = (field: string) => totals.locator(`[data-field="${field}"]`).innerText();
    expect(await total('cycles')).toBe('6');
    expect(await total('passes')).toBe('4');
    expect(await total('fails')).toBe('1');
    expect(await total('aborts')).toBe('1');
    expect(await total('totalMinutes')).toBe('180.0');
    expect(await total('minConcentration')).toBe('1.00');
    // (2 + 3 + 1 + 2 + 4 + 4) / 6 readings
    expect(await total('avgConcentration')).toBe('2.67');
    expect(await total('waterVolume')).toBe('7.50');
    // Σ volume × concentration: 2 + 3 + 2 + 1 + 6 + 6 mg
    expect(await total('disinfectantMg')).toBe('20.00');
    expect(await register.innerText()).toMatch(/操作人[\s\S]*审核人/);
    expect(await page.getByTestId('ledger-register-range').innerText()).toBe('2025-03-01 至 2025-03-31');
    // Printed, the register is alone on the page with its borders.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.mes-layout, #root').first().isVisible()).toBe(false);
    expect(await table.isVisible()).toBe(true);
    expect(await page.getByTestId('ledger-print-now').isVisible()).toBe(false);
    const border = await table
      .locator('td')
      .first()
      .evaluate((td) => getComputedStyle(td).borderTopStyle);
    expect(border).toBe('solid');
    await screenshot(page, 'disinfection-ledger-register-zh');
    const pdf = await page.pdf({ preferCSSPageSize: true });
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    // The register's own page size: A4 landscape (842 × 595 pt).
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 84[12]\.\d+ 59[45]\.\d+\]/);
    await page.emulateMedia({ media: 'screen' });
    await page.getByTestId('ledger-print-close').click();
    await register.waitFor({ state: 'detached' });

    // By month: one row per device, the month as yyyy-MM.
    await screen.getByTestId('ledger-period').getByText('按月').click();
    await poll(async () => (await rowTexts(page)).length).toBe(2);
    expect((await rowTexts(page)).every((t) => t.includes('2025-03'))).toBe(true);
    await context.close();
  });

  it('shows the ledger and the register in English', async () => {
    const { context, page } = await newPage(browser());
    await presetSetting(page, 'language', 'en');
    await signIn(page);
    await openMarch(page);
    const screen = page.locator(`[data-screen="${SCREEN}"]`);
    await poll(() => screen.locator('.ant-table-thead').innerText()).toContain('Cycles');
    expect(await screen.getByTestId('ledger-range').innerText()).toContain('By day');
    await screenshot(page, 'disinfection-ledger-en');
    await screen.getByTestId('ledger-print').click();
    const register = page.getByTestId('ledger-register');
    await poll(() => register.innerText()).toContain('Disinfection register');
    await poll(() => page.getByTestId('ledger-register-table').locator('tbody tr').count()).toBe(3);
    expect(await page.getByTestId('ledger-register-totals').innerText()).toContain('Total');
    expect(await register.innerText()).toMatch(/Operator[\s\S]*Reviewer/);
    await page.emulateMedia({ media: 'print' });
    await screenshot(page, 'disinfection-ledger-register-en');
    await context.close();
  });
});
