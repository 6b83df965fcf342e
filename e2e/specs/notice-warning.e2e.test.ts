import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, poll, screenshot, signIn, useBrowser, signInAs } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp, presetSetting } from '../support/shell';

const browser = useBrowser();
const NOTICE = '/api/blade-desk/notice';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const shot = async (page: Page, name: string) => {
  await screenshot(page, name);
};
const openDropdown = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';
const rows = (page: Page) => page.locator('[data-testid="crud-table"] tbody tr.ant-table-row');

/** A 64-bit id far above the server's snowflakes, unique per run and row (exact: bigint arithmetic). */
const rowId = (prefix: bigint, n: number) => (prefix * 10n ** 15n + BigInt(Date.now()) * 1000n + BigInt(n)).toString();

describe('notices', () => {
  it('an administrator writes a formatted notice; another user reads it with the formatting and no script', async () => {
    const admin = await newPage(browser());
    const reader = await newPage(browser());
    const stamp = Date.now().toString(36);
    const title = `e2e通知${stamp}`;
    const account = `nr${stamp}`.slice(0, 10);
    let noticeId: string | undefined;
    let userId: string | undefined;
    // A step that cannot happen fails with its own message before the test's time runs out.
    admin.page.setDefaultTimeout(15_000);
    reader.page.setDefaultTimeout(15_000);
    try {
      await signIn(admin.page);
      const info = await callApi<{ roleId: string; deptId: string }>(admin.page, '/api/blade-auth/oauth/user-info');
      const created = await callApi<string>(admin.page, '/api/blade-user/submit', {
        account,
        password: md5('Reader#123'),
        name: '通知读者',
        realName: '通知读者',
        userType: 1,
        roleId: info.data.roleId,
        deptId: info.data.deptId.split(',')[0],
      });
      expect(created.success, created.msg).toBe(true);
      userId = created.data;

      // The editor: a heading, bold and italic text, a list and a link, from the toolbar.
      await goInApp(admin.page, '/business/notice');
      await admin.page.locator('[data-screen="/business/notice"]').getByTestId('crud-add').click();
      const form = crudDialog(admin.page);
      await form.locator('#crud-form_title').fill(title);

      // The audience: 指定角色 offers the role tree; the reader holds the role picked. Another type
      // starts an empty pick (role ids mean nothing as departments).
      const roleId = info.data.roleId.split(',')[0] as string;
      const role = await callApi<{ roleName: string }>(admin.page, `/api/blade-system/role/detail?id=${roleId}`);
      const audienceType = form.locator('.ant-form-item', { has: admin.page.locator('#crud-form_audienceType') });
      const audience = form.locator('.ant-form-item', { has: admin.page.locator('#crud-form_audienceIds') });
      const chooseType = async (label: string) => {
        await audienceType.locator('.ant-select-selector').click();
        await admin.page.locator(`${openDropdown} .ant-select-item-option`, { hasText: label }).click();
      };
      const pickRole = async () => {
        await audience.locator('.ant-select-selector').click();
        await admin.page
          .locator(`${openDropdown} .ant-select-tree-title`)
          .getByText(role.data.roleName, { exact: true })
          .click();
        // Closes the list by a click beside it (Escape would close the dialog).
        await form.locator('.ant-modal-title').click();
        await poll(() => audience.locator('.ant-select-selection-item').count()).toBe(1);
      };
      expect(await audience.count()).toBe(0);
      await chooseType('指定角色');
      expect(await audience.locator('.ant-select-selection-placeholder').innerText()).toBe('选择接收通知的角色');
      await pickRole();
      await chooseType('指定机构');
      await poll(() => audience.locator('.ant-select-selection-item').count()).toBe(0);
      expect(await audience.locator('.ant-select-selection-placeholder').innerText()).toContain('选择接收通知的机构');
      await chooseType('指定角色');
      await pickRole();
      const body = admin.page.locator('.mes-rich-editor .ProseMirror');
      await body.click();
      await admin.page.getByTestId('notice-tool-h2').click();
      await admin.page.keyboard.type('更换安排');
      await admin.page.keyboard.press('Enter');
      await admin.page.keyboard.type('请在 ');
      await admin.page.getByTestId('notice-tool-bold').click();
      await admin.page.keyboard.type('周一上午');
      await admin.page.getByTestId('notice-tool-bold').click();
      await admin.page.keyboard.type(' 前完成,');
      await admin.page.getByTestId('notice-tool-italic').click();
      await admin.page.keyboard.type('逾期停机');
      await admin.page.getByTestId('notice-tool-italic').click();
      await admin.page.keyboard.press('Enter');
      await admin.page.getByTestId('notice-tool-bullet').click();
      await admin.page.keyboard.type('一号机 <script>window.__typed=1</script>');
      await admin.page.keyboard.press('Enter');
      await admin.page.keyboard.press('Enter');
      await admin.page.getByTestId('notice-tool-link').click();
      await admin.page.getByTestId('notice-link-input').fill('https://example.com/manual');
      await admin.page.getByTestId('notice-link-input').press('Enter');
      await expect.poll(() => body.locator('h2').innerText()).toBe('更换安排');
      await expect.poll(() => body.locator('strong').innerText()).toBe('周一上午');
      await admin.page.waitForTimeout(300);
      await shot(admin.page, 'notice-editor-zh');
      await admin.page.getByTestId('crud-dialog-submit').click();
      await poll(() => rows(admin.page).filter({ hasText: title }).count()).toBe(1);
      const listed = await callApi<{ records: { id: string }[] }>(
        admin.page,
        `${NOTICE}/list?title=${encodeURIComponent(title)}`,
      );
      noticeId = listed.data.records[0]?.id;
      expect(noticeId).toBeTruthy();
      const stored = await callApi<{ content: string; audienceType: number; audienceIds: string }>(
        admin.page,
        `${NOTICE}/detail?id=${noticeId}`,
      );
      expect(stored.data.audienceType).toBe(2);
      expect(stored.data.audienceIds).toBe(roleId);
      expect(stored.data.content).toContain('<h2>更换安排</h2>');
      expect(stored.data.content).toContain('<strong>周一上午</strong>');
      expect(stored.data.content).toContain('<em>逾期停机</em>');
      expect(stored.data.content).toContain('href="https://example.com/manual"');
      // Typed markup is text, never markup.
      expect(stored.data.content).toContain('&lt;script&gt;');

      // A crafted request past the editor: the server's allow-list is the safety line.
      const crafted = await callApi<string>(admin.page, `${NOTICE}/submit`, {
        id: noticeId,
        content: `${stored.data.content}<script>window.__xss=1</script><img src="x" onerror="window.__xss=2"><a href="javascript:window.__xss=3" data-testid="bad-link">坏链接</a>`,
      });
      expect(crafted.success, crafted.msg).toBe(true);
      await shot(admin.page, 'notice-list-zh');

      // 查看: the stored content, formatted and read-only (no toolbar, nothing editable).
      await rows(admin.page).filter({ hasText: title }).getByTestId('crud-row-view').click();
      const viewed = crudDialog(admin.page).locator('.mes-rich-editor-readonly');
      await poll(() => viewed.locator('h2').count()).toBe(1);
      expect(await viewed.locator('h2').innerText()).toBe('更换安排');
      expect(await viewed.locator('strong').innerText()).toBe('周一上午');
      expect(await viewed.locator('[contenteditable="true"]').count()).toBe(0);
      expect(await crudDialog(admin.page).locator('[data-testid^="notice-tool-"]').count()).toBe(0);
      await admin.page.waitForTimeout(300);
      await shot(admin.page, 'notice-view-zh');
      await admin.page.getByTestId('crud-dialog-close').click();

      // The second user opens the reader page.
      await signInAs(reader.page, account, 'Reader#123');
      await goInApp(reader.page, `/business/notice/${noticeId}`);
      const content = reader.page.getByTestId('notice-reader-content');
      await content.waitFor();
      expect(await reader.page.getByTestId('notice-reader-title').innerText()).toBe(title);
      expect(await content.locator('h2').innerText()).toBe('更换安排');
      expect(await content.locator('strong').innerText()).toBe('周一上午');
      expect(await content.locator('em').innerText()).toBe('逾期停机');
      expect(await content.locator('a[href="https://example.com/manual"]').getAttribute('rel')).toBe(
        'noopener noreferrer',
      );
      expect(await content.locator('script, iframe, [onerror], a[href^="javascript"]').count()).toBe(0);
      await reader.page.waitForTimeout(300);
      expect(await reader.page.evaluate(() => (window as { __xss?: number; __typed?: number }).__xss)).toBeUndefined();
      expect(await reader.page.evaluate(() => (window as { __typed?: number }).__typed)).toBeUndefined();
      // Reading marked it read for this user only.
      const inbox = await callApi<{ records: { id: string; read: boolean }[] }>(
        reader.page,
        '/api/blade-desk/notice/inbox?size=50',
      );
      expect(inbox.data.records.find((r) => r.id === noticeId)?.read).toBe(true);
      const adminInbox = await callApi<{ records: { id: string; read: boolean }[] }>(
        admin.page,
        '/api/blade-desk/notice/inbox?size=50',
      );
      expect(adminInbox.data.records.find((r) => r.id === noticeId)?.read).toBe(false);
      await shot(reader.page, 'notice-reader-zh');

      // The reader at phone width, and in English.
      const phone = await newPage(browser(), { width: 375, height: 760 });
      try {
        await presetSetting(phone.page, 'language', 'en');
        await signInAs(phone.page, account, 'Reader#123');
        await goInApp(phone.page, `/business/notice/${noticeId}`);
        await phone.page.getByTestId('notice-reader-content').waitFor();
        expect(await phone.page.getByTestId('notice-back').innerText()).toContain('Back to the notices');
        const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(1);
        await shot(phone.page, 'notice-reader-en-375');
      } finally {
        await phone.context.close();
      }

      // The editor at phone width (the administrator's screen, English).
      const adminPhone = await newPage(browser(), { width: 375, height: 760 });
      try {
        await presetSetting(adminPhone.page, 'language', 'en');
        await signIn(adminPhone.page);
        await goInApp(adminPhone.page, '/business/notice');
        await rows(adminPhone.page).filter({ hasText: title }).getByTestId('crud-row-edit').click();
        await poll(() => adminPhone.page.locator('.mes-rich-editor .ProseMirror h2').count()).toBe(1);
        await adminPhone.page.waitForTimeout(400);
        await shot(adminPhone.page, 'notice-editor-en-375');
      } finally {
        await adminPhone.context.close();
      }

      // A new notice at phone width, in Chinese: the generic dialog fits the screen.
      const zhPhone = await newPage(browser(), { width: 375, height: 760 });
      try {
        await signIn(zhPhone.page);
        await goInApp(zhPhone.page, '/business/notice');
        await zhPhone.page.locator('[data-screen="/business/notice"]').getByTestId('crud-add').click();
        await zhPhone.page.locator('.mes-rich-editor .ProseMirror').waitFor();
        const box = await crudDialog(zhPhone.page).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
        await zhPhone.page.waitForTimeout(400);
        await shot(zhPhone.page, 'notice-add-zh-375');
      } finally {
        await zhPhone.context.close();
      }
    } finally {
      if (noticeId) await callApi(admin.page, `${NOTICE}/remove?ids=${noticeId}`, {});
      if (userId) await callApi(admin.page, `/api/blade-user/remove?ids=${userId}`, {});
      await admin.context.close();
      await reader.context.close();
    }
  });
});

describe('warnings', () => {
  it('filters by level and handles one with a result', async () => {
    const db = await serverDatabase();
    const stamp = Date.now().toString(36).toUpperCase();
    const numbers = [1, 2, 3].map((n) => `E2E${stamp}-${n}`);
    const { context, page } = await newPage(browser());
    page.setDefaultTimeout(15_000);
    try {
      // Three warnings of the platform tenant: 紧急, 重要, 次要, all unhandled.
      for (const [i, no] of numbers.entries())
        await db.query(
          `insert into mes_warning (id, warning_no, device_code, warning_type, level, rule_key, field, trigger_value,
             threshold, message, start_time, last_time, status, repeat_count, tenant_id)
           values ($1, $2, $3, 'threshold', $4, 'threshold:1', 'chlorine', '0.12', '0.3', $5,
             now() - interval '10 minutes', now(), 1, 1, '000000')`,
          [rowId(9_100n, i), no, `e2e-dev-${stamp}`, i + 1, `有效氯过低 ${no}`],
        );
      // The chlorine reading of their device around them: falling under the threshold 0.3. A
      // report is stored once, as an acquisition row (mes_telemetry is a view of its values).
      for (let i = 0; i < 20; i++)
        await db.query(
          `insert into mes_acqdata (id, device_code, collect_time, data_values, topic, protocol, receive_time, tenant_id)
           values ($1, $2, now() - make_interval(mins => $3), jsonb_build_object('chlorine', $4::numeric), '', 'json',
                   now() - make_interval(mins => $3), '000000')`,
          [rowId(9_200n, i), `e2e-dev-${stamp}`, 19 - i, (0.6 - i * 0.025).toFixed(3)],
        );
      await signIn(page);
      await goInApp(page, '/report/warning');
      const screen = page.locator('[data-screen="/report/warning"]');
      await screen.locator('#crud-search_warningNo').fill(`E2E${stamp}`);
      await screen.getByTestId('crud-search-submit').click();
      await poll(() => rows(page).count()).toBe(3);
      await shot(page, 'warning-list-zh');

      // Level 紧急 only.
      await screen
        .locator('.ant-form-item', { has: page.locator('#crud-search_level') })
        .locator('.ant-select-selector')
        .click();
      await page.locator(`${openDropdown} .ant-select-item-option`, { hasText: '紧急' }).click();
      await screen.getByTestId('crud-search-submit').click();
      await poll(() => rows(page).count()).toBe(1);
      const row = rows(page).filter({ hasText: numbers[0] as string });
      expect(await row.getByTestId('warning-level-tag').getAttribute('data-level')).toBe('1');
      expect(await row.getByTestId('warning-status-tag').getAttribute('data-status')).toBe('1');

      // 处理: the result is required.
      await row.getByTestId('warning-row-handle').click();
      await page.getByTestId('warning-handle-save').click();
      await poll(() => page.getByText('请输入处理结果').isVisible()).toBe(true);
      await page.getByTestId('warning-handle-result').fill('已更换消毒液,浓度恢复正常');
      await page.waitForTimeout(300);
      await shot(page, 'warning-handle-dialog-zh');
      await page.getByTestId('warning-handle-save').click();
      await poll(() => row.getByTestId('warning-status-tag').getAttribute('data-status')).toBe('2');
      expect(await row.getByTestId('warning-row-handle').count()).toBe(0);
      const stored = await db.query('select status, handle_result from mes_warning where warning_no = $1', [
        numbers[0],
      ]);
      expect(stored.rows[0]).toEqual({ status: 2, handle_result: '已更换消毒液,浓度恢复正常' });

      // Its page: the fields and the chart's frame.
      await row.getByTestId('crud-row-view').click();
      await page.getByTestId('warning-detail').waitFor();
      expect(await page.getByTestId('warning-field-handleResult').innerText()).toBe('已更换消毒液,浓度恢复正常');
      await page.getByTestId('warning-around-chart').locator('canvas').waitFor();
      await page.waitForTimeout(800);
      await shot(page, 'warning-detail-zh');

      // English at phone width: the list and a detail.
      const phone = await newPage(browser(), { width: 375, height: 760 });
      try {
        await presetSetting(phone.page, 'language', 'en');
        await signIn(phone.page);
        await goInApp(phone.page, '/report/warning');
        await poll(() => rows(phone.page).count()).toBeGreaterThan(0);
        // Dictionary labels in the interface language: a level reads Critical, not 紧急.
        const levels = () => rows(phone.page).getByTestId('warning-level-tag').allInnerTexts();
        await poll(async () =>
          (await levels()).filter((l) => !['Critical', 'Major', 'Minor', 'Warning'].includes(l)),
        ).toEqual([]);
        expect((await levels()).length).toBeGreaterThan(0);
        await shot(phone.page, 'warning-list-en-375');
        const second = await db.query('select id from mes_warning where warning_no = $1', [numbers[1]]);
        await goInApp(phone.page, `/report/warning/${second.rows[0].id}`);
        await phone.page.getByTestId('warning-detail').waitFor();
        await phone.page.getByTestId('warning-detail-handle').waitFor();
        await phone.page.getByTestId('warning-around-chart').locator('canvas').waitFor();
        await phone.page.waitForTimeout(800);
        await shot(phone.page, 'warning-detail-en-375');
        // The app scrolls inside its content area: the chart is photographed scrolled into view.
        await phone.page.getByTestId('warning-around-chart').scrollIntoViewIfNeeded();
        await shot(phone.page, 'warning-chart-en-375');
      } finally {
        await phone.context.close();
      }
    } finally {
      await db.query('delete from mes_warning where warning_no = any($1)', [numbers]);
      await db.query('delete from mes_acqdata where device_code = $1', [`e2e-dev-${stamp}`]);
      await db.end();
      await context.close();
    }
  });
});
