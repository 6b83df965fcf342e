import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { MaintenanceDueState, NoticeAudience, noticeResource } from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../app-context';
import { maintenanceDueNotice, notice } from '../../platform/db/schema';
import { nextId } from '../../platform/db/ids';
import { defineJob } from '../../platform/jobs/job-definition';
import { notifyLive } from '../../platform/live/notify-live';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { liveClient, noticeEvent } from '../desk/notice-release';
import { maintenanceDueQuery } from './maintenance-due';
import { MaintenanceMessages } from './messages';

/** The sweep that posts a notice for each device whose plan is due soon or overdue (docs/maintenance.md). */
export const maintenanceDueNoticesJob = defineJob({
  name: 'maintenance.due-notices',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
});

/** Every 10 minutes: a plan counted in days moves by the clock, one counted in cycles by ingestion. */
const SWEEP_CRON = '*/10 * * * *';

interface DueRow extends Record<string, unknown> {
  tenant_id: string;
  device_id: string;
  device_code: string;
  device_name: string;
  dept_id: string | null;
  plan_id: string;
  plan_name: string;
  period_from: Date | string;
  cycles_since: number;
  days_since: number;
  interval_cycles: number | null;
  due_at: Date | string | null;
  due_state: number;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const dayOf = (value: Date | string | null) => (value ? new Date(value).toISOString().slice(0, 10) : '-');

/** The notice's body: what is due, in both languages (readers of either see it as written). */
function noticeContent(row: DueRow): string {
  const overdue = Number(row.due_state) === MaintenanceDueState.overdue;
  const cycles = row.interval_cycles === null ? '-' : `${row.cycles_since} / ${row.interval_cycles}`;
  const lines = [
    `${overdue ? '保养已逾期' : '即将到期保养'}: ${row.plan_name}`,
    `设备: ${row.device_name} (${row.device_code})`,
    `已运行周期: ${cycles}; 已过天数: ${row.days_since}; 到期日期: ${dayOf(row.due_at)}`,
    `${overdue ? 'Maintenance overdue' : 'Maintenance due soon'}: ${row.plan_name}, device ${row.device_code}; cycles ${cycles}, days ${row.days_since}, due ${dayOf(row.due_at)}`,
  ];
  return lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('');
}

/**
 * Posts one notice per device, plan and due period that is due soon or overdue and has had none:
 * the claim row (`mes_maintenance_due_notice`) and the notice commit together, so a period gets
 * exactly one notice however many processes sweep. The notice goes to the device's department
 * (everyone when it has none) and is released at once. Answers how many were posted.
 */
export async function postDueNotices(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.execute<DueRow>(
    sql`select * from (${maintenanceDueQuery()}) as due where due.due_state >= ${sql.raw(String(MaintenanceDueState.soon))}`,
  );
  let posted = 0;
  const tenants = new Set<string>();
  for (const row of rows) {
    const made = await ctx.db.transaction(async (tx) => {
      const noticeId = nextId();
      const scope = tenantScope(tx, row.tenant_id);
      const claimed = await scope
        .insert(maintenanceDueNotice)
        .values({
          deviceId: String(row.device_id),
          planId: String(row.plan_id),
          periodFrom: new Date(row.period_from),
          noticeId,
        })
        .onConflictDoNothing()
        .returning({ noticeId: maintenanceDueNotice.noticeId });
      if (!claimed.length) return false;
      const now = new Date();
      const overdue = Number(row.due_state) === MaintenanceDueState.overdue;
      const title = MaintenanceMessages.noticeTitle(row.device_name, row.device_code, row.plan_name, overdue).slice(
        0,
        255,
      );
      const audienceType = row.dept_id ? NoticeAudience.depts : NoticeAudience.everyone;
      const audienceIds = row.dept_id ? String(row.dept_id) : '';
      // Category 6 事务通知 (dictionary notice): an affair to act on.
      await scope.insert(notice).values({
        id: noticeId,
        title,
        category: 6,
        releaseTime: now,
        audienceType,
        audienceIds,
        content: noticeContent(row),
        createTime: now,
        updateTime: now,
      });
      await notifyLive(liveClient(tx), [
        noticeEvent({ tenantId: row.tenant_id, id: noticeId, title, audienceType, audienceIds }, 'released'),
      ]);
      return true;
    });
    if (made) {
      posted += 1;
      tenants.add(row.tenant_id);
    }
  }
  for (const tenant of tenants) await ctx.totals.changed(noticeResource.code, tenant);
  return posted;
}

/** Registers the sweep (once per context) on the job queue: it runs once across processes. */
export function startMaintenanceDueNotices(ctx: AppContext): void {
  oncePerContext(ctx, maintenanceDueNoticesJob.name, () => {
    ctx.jobs.register(maintenanceDueNoticesJob, async () => ({ posted: await postDueNotices(ctx) }));
    ctx.jobs.schedule(maintenanceDueNoticesJob, SWEEP_CRON, {});
  });
}
