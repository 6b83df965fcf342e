import { describe, expect, it } from 'vitest';
import { callApi, crudDialog, newPage, poll, screenshot, signIn, useBrowser } from '../support/browser';
import { serverDatabase } from '../support/database';
import { goInApp } from '../support/shell';

const browser = useBrowser();
const SCREEN = '/report/warning_escalation';

/** A 64-bit id far above the server's snowflakes, unique per run (exact: bigint arithmetic). */
const rowId = (prefix: bigint) => (prefix * 10n ** 15n + BigInt(Date.now()) * 1000n).toString();

/**
 * Escalation on the real server (docs/warnings.md "Escalation"): a step saved for the
 * administrator's role, a warning nobody handles, the server's own once-a-minute sweep; the
 * notice arrives in the bell without a reload, and the warning's page shows whom it reached.
 */
describe('warning escalation', () => {
  it(
    'a warning past its step reaches the role’s bell, and its page shows the escalation',
    { timeout: 240_000 },
    async () => {
      const db = await serverDatabase();
      const { context, page } = await newPage(browser());
      page.setDefaultTimeout(15_000);
      const stamp = Date.now().toString(36).toUpperCase();
      const warningNo = `E2EESC${stamp}`;
      const warningId = rowId(9_210n);
      let stepId: string | undefined;
      try {
        await signIn(page);
        const info = await callApi<{ roleId: string }>(page, '/api/blade-auth/oauth/user-info');
        const roleId = info.data.roleId.split(',')[0] as string;
        // Level 4 (提示) after one minute, live, no SMS: the step the sweep will use.
        const saved = await callApi<string>(page, '/api/report/warning-escalation/submit', {
          level: 4,
          afterMinutes: 1,
          roleId,
          notifySms: false,
          notifyLive: true,
          remark: `e2e ${stamp}`,
        });
        expect(saved.success, saved.msg).toBe(true);
        stepId = saved.data;
        // Saved three minutes ago: a step escalates the warnings that fell due after it was saved.
        await db.query(`update mes_warning_escalation set create_time = now() - interval '3 minutes' where id = $1`, [
          stepId,
        ]);

        // The engine's screen for the steps, and its form.
        await goInApp(page, SCREEN);
        const screen = page.locator(`[data-screen="${SCREEN}"]`);
        await poll(() => screen.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
        await screenshot(page, 'warning-escalation-list-zh');
        await screen.getByTestId('crud-add').click();
        await crudDialog(page).locator('#crud-form_afterMinutes').waitFor();
        await page.waitForTimeout(300);
        await screenshot(page, 'warning-escalation-form-zh');
        await page.keyboard.press('Escape');

        const unreadBefore = Number(await page.getByTestId('notice').getAttribute('data-unread'));
        await db.query(
          `insert into mes_warning (id, warning_no, device_code, warning_type, level, rule_key, message, start_time,
           last_time, status, repeat_count, tenant_id)
         values ($1, $2, $3, 'threshold', 4, 'threshold:1', $4, now() - interval '2 minutes', now(), 1, 1, '000000')`,
          [warningId, warningNo, `e2e-esc-${stamp}`, `水箱液位低 ${warningNo}`],
        );

        // The server's sweep runs each minute: within two the escalation is recorded.
        await expect
          .poll(
            async () =>
              (await db.query('select count(*)::int n from mes_warning_history where warning_id = $1', [warningId]))
                .rows[0].n,
            { timeout: 150_000, interval: 2_000 },
          )
          .toBe(1);
        // The notice reaches the bell live: its count goes up and the 通知 tab lists it.
        await poll(async () => Number(await page.getByTestId('notice').getAttribute('data-unread'))).toBeGreaterThan(
          unreadBefore,
        );
        await page.getByTestId('notice').click();
        await poll(() => page.getByText(`${warningNo} 超过 1 分钟未处理`).first().isVisible()).toBe(true);
        await screenshot(page, 'warning-escalation-bell-zh');
        await page.keyboard.press('Escape');

        // The warning's page: its history says it was escalated to the role.
        await goInApp(page, `/report/warning/${warningId}`);
        const escalated = page.getByTestId('warning-history-escalated');
        await escalated.waitFor();
        expect(await escalated.innerText()).toMatch(/升级通知 .+ \(超过 1 分钟未处理\)/);
        expect(await escalated.innerText()).toContain('已发通知');
        await page.getByTestId('warning-history').scrollIntoViewIfNeeded();
        await screenshot(page, 'warning-escalation-history-zh');
      } finally {
        if (stepId) await callApi(page, `/api/report/warning-escalation/remove?ids=${stepId}`, {});
        await db.query(
          `delete from blade_notice where id in (select notice_id from mes_warning_history where warning_id = $1)`,
          [warningId],
        );
        await db.query('delete from mes_warning_history where warning_id = $1', [warningId]);
        await db.query('delete from mes_warning where id = $1', [warningId]);
        await db.end();
        await context.close();
      }
    },
  );
});
