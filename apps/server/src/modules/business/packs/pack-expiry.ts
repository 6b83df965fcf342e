import { and, asc, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { z } from 'zod';
import { PACK_EXPIRY_WARNING_TYPE, packResource, PackState, WarningLevel } from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../../app-context';
import { dept, pack } from '../../../platform/db/schema';
import { defineJob } from '../../../platform/jobs/job-definition';
import { txQueryable } from '../../../platform/jobs/transaction-executor';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { raiseWarning } from '../../telemetry/alarm-store';
import { publishChanges } from '../../telemetry/publish-changes';
import { zoneDay } from '../../welcome/welcome-days';
import { movePacks, NO_PLACE } from './pack-moves';

/** The sweep that moves packs past their validity to `expired` and warns their clinic (docs/packs.md "Expiry"). */
export const packExpiryJob = defineJob({
  name: 'packs.expiry',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
});

/** Every 10 minutes: a pack expires at the start of the day after its expiry date (Asia/Shanghai). */
const SWEEP_CRON = '*/10 * * * *';

/** The states a pack can expire in: sterile on the base's shelf or delivered to a clinic. */
const EXPIRING: readonly PackState[] = [PackState.sterile, PackState.delivered];

/** Who the sweep's moves name, in the history and the audit columns. */
const SWEEP_PERSON = '系统(过期检查)';
const SWEEP_USER = '0';

/**
 * Moves every pack whose expiry date has passed (before today, Asia/Shanghai) from sterile or
 * delivered to `expired`, and raises one major warning at the department that holds it, in the
 * same transaction per pack. The pack row is locked and its state checked again under the lock,
 * so however many processes sweep at once, a pack expires (and warns) once. Answers how many.
 */
export async function sweepExpiredPacks(ctx: AppContext): Promise<number> {
  const now = new Date(ctx.clock.now());
  const today = zoneDay(now.getTime());
  // Every tenant's candidates: the sweep runs for the whole installation.
  const candidates = await ctx.db
    .select({ id: pack.id, tenantId: pack.tenantId })
    .from(pack)
    .where(
      and(
        eq(pack.isDeleted, 0),
        inArray(pack.state, [...EXPIRING]),
        isNotNull(pack.expiryDate),
        lt(pack.expiryDate, today),
      ),
    )
    .orderBy(asc(pack.id));
  let moved = 0;
  const tenants = new Set<string>();
  for (const candidate of candidates) {
    const tenantId = String(candidate.tenantId);
    const done = await ctx.db.transaction(async (tx) => {
      const scope = tenantScope(tx, tenantId);
      const [row] = await scope
        .select(pack, {
          id: pack.id,
          code: pack.code,
          state: pack.state,
          expiryDate: pack.expiryDate,
          deptId: pack.deptId,
        })
        .where(eq(pack.id, candidate.id))
        .for('update', { skipLocked: true });
      // Taken by another sweep (locked), or moved since it was read.
      if (!row || !EXPIRING.includes(row.state as PackState) || !row.expiryDate || row.expiryDate >= today)
        return false;
      await movePacks(
        tx,
        { tenantId, userId: SWEEP_USER },
        SWEEP_PERSON,
        { ids: [String(row.id)], state: PackState.expired, place: { ...NO_PLACE, remark: '超过有效期' } },
        now,
      );
      const [holder] = row.deptId
        ? await scope.select(dept, { name: dept.deptName }).where(eq(dept.id, row.deptId))
        : [];
      const client = txQueryable(tx);
      const event = await raiseWarning(
        client,
        {
          tenantId,
          // A pack is no device: no device code (device lists and filters stay the devices'); the
          // department is the one holding the pack, the trigger is the pack (its code) and the
          // threshold the expiry day it passed. No field: nothing to chart.
          deviceCode: '',
          deviceId: null,
          deptId: row.deptId,
          ruleKey: `pack-expiry:${row.id}`,
          warningType: PACK_EXPIRY_WARNING_TYPE,
          level: WarningLevel.major,
          field: '',
          triggerValue: row.code,
          threshold: row.expiryDate,
          message:
            `器械包 ${row.code} 已于 ${row.expiryDate} 过期${holder ? `(${holder.name})` : ''},请收回重新处理` +
            ` / Pack ${row.code} expired on ${row.expiryDate}; pick it up for reprocessing`,
          at: now,
        },
        now,
      );
      await publishChanges(client, [event]);
      return true;
    });
    if (done) {
      moved += 1;
      tenants.add(tenantId);
    }
  }
  for (const tenant of tenants) await ctx.totals.changed(packResource.code, tenant);
  return moved;
}

/** Registers the sweep (once per context) on the job queue: it runs once across processes. */
export function startPackExpirySweep(ctx: AppContext): void {
  oncePerContext(ctx, packExpiryJob.name, () => {
    ctx.jobs.register(packExpiryJob, async () => ({ expired: await sweepExpiredPacks(ctx) }));
    ctx.jobs.schedule(packExpiryJob, SWEEP_CRON, {});
  });
}
