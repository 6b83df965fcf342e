import { eq, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  maintenanceDueResource,
  maintenancePlanResource,
  maintenanceRecordResource,
  MaintenanceState,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { aggregateQueryTable } from '../../engine/aggregate/aggregate-source';
import { registerResource, type ChangeArgs, type RemoveArgs } from '../../engine/resource-routes';
import {
  device,
  maintenancePlan,
  maintenancePlanCheck,
  maintenanceRecord,
  maintenanceRecordCheck,
} from '../../platform/db/schema';
import { nextId } from '../../platform/db/ids';
import { badRequest } from '../../platform/http/errors';
import { txQueryable } from '../../platform/jobs/transaction-executor';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { publishChanges } from '../telemetry/publish-changes';
import { refreshRunState } from '../telemetry/run-state';
import { startMaintenanceDueNotices } from './due-notices';
import { maintenanceDueQuery } from './maintenance-due';
import { MaintenanceMessages } from './messages';

type Tx = ChangeArgs['tx'];

const present = (value: unknown) => value !== undefined && value !== null && value !== '';
const numberOrNull = (value: unknown) => (present(value) ? Number(value) : null);

/** A plan falls due by cycles, by days or both; its notice comes before the interval, not after. */
function checkPlan({ values, existing }: ChangeArgs): void {
  const merged = { ...existing, ...values };
  const cycles = numberOrNull(merged.intervalCycles);
  const days = numberOrNull(merged.intervalDays);
  if (cycles === null && days === null) throw badRequest(MaintenanceMessages.noInterval);
  if (cycles !== null && Number(merged.noticeCycles ?? 0) >= cycles)
    throw badRequest(MaintenanceMessages.noticeCyclesTooLarge);
  if (days !== null && Number(merged.noticeDays ?? 0) >= days) throw badRequest(MaintenanceMessages.noticeDaysTooLarge);
}

/**
 * A record's device is the tenant's and fixed once saved; its plan is one of the device's product;
 * end time and result come together, the end not before the start; `state` and the department
 * follow; a device has one open maintenance at a time.
 */
async function checkRecord({ tx, auth, adding, values, existing }: ChangeArgs): Promise<void> {
  const merged = { ...existing, ...values };
  if (!adding && present(values.deviceId) && String(values.deviceId) !== String(existing?.deviceId))
    throw badRequest(MaintenanceMessages.deviceFixed);
  const scope = tenantScope(tx, auth.tenantId);
  const [target] = await scope
    .select(device, {
      id: device.id,
      productId: device.productId,
      deptId: device.deptId,
      deviceCode: device.deviceCode,
    })
    .where(eq(device.id, String(merged.deviceId)));
  if (!target) throw badRequest(MaintenanceMessages.unknownDevice);
  if (present(merged.planId)) {
    const [plan] = await scope
      .select(maintenancePlan, { productId: maintenancePlan.productId })
      .where(eq(maintenancePlan.id, String(merged.planId)));
    if (!plan || String(plan.productId) !== String(target.productId))
      throw badRequest(MaintenanceMessages.planNotForProduct);
  }
  const ended = present(merged.endTime);
  if (ended && !present(merged.result)) throw badRequest(MaintenanceMessages.resultNeeded);
  if (!ended && present(merged.result)) throw badRequest(MaintenanceMessages.endNeeded);
  if (ended && new Date(merged.endTime as string).getTime() < new Date(merged.startTime as string).getTime())
    throw badRequest(MaintenanceMessages.endBeforeStart);
  values.state = ended ? MaintenanceState.completed : MaintenanceState.open;
  values.deptId = target.deptId ?? null;
  if (!ended) {
    const [open] = await scope
      .select(maintenanceRecord, { id: maintenanceRecord.id })
      .where(
        eq(maintenanceRecord.deviceId, String(target.id)),
        isNull(maintenanceRecord.endTime),
        adding ? undefined : ne(maintenanceRecord.id, String(existing?.id)),
      );
    if (open) throw badRequest(MaintenanceMessages.alreadyOpen(target.deviceCode));
  }
}

/**
 * The device is under maintenance exactly while one of its records is open: set by a record
 * saved without an end, cleared by its completion or removal. Its run state is derived again in
 * the same transaction and its live event sent on commit, as when maintenance is ticked by hand.
 */
async function followDevice(tx: Tx, tenantId: string, deviceId: string): Promise<void> {
  const scope = tenantScope(tx, tenantId);
  const [open] = await scope
    .select(maintenanceRecord, { id: maintenanceRecord.id })
    .where(eq(maintenanceRecord.deviceId, deviceId), isNull(maintenanceRecord.endTime));
  const [row] = await scope
    .update(device)
    .set({ maintenance: Boolean(open), updateTime: new Date() })
    .where(eq(device.id, deviceId))
    .returning({ deviceCode: device.deviceCode });
  if (!row) return;
  const client = txQueryable(tx);
  await publishChanges(client, await refreshRunState(client, [{ tenantId, deviceCode: row.deviceCode }], new Date()));
}

/**
 * A new record of a plan sent without checks gets the plan's check list to fill in; a completed
 * record has every check's result.
 */
async function afterRecordChange({ tx, auth, adding, values, existing, body, id }: ChangeArgs & { id: string }) {
  const merged = { ...existing, ...values };
  const scope = tenantScope(tx, auth.tenantId);
  const sentChecks = Array.isArray(body.checks) && body.checks.length > 0;
  if (adding && !sentChecks && present(merged.planId)) {
    const checks = await scope
      .select(maintenancePlanCheck, { checkName: maintenancePlanCheck.checkName, sort: maintenancePlanCheck.sort })
      .where(eq(maintenancePlanCheck.planId, String(merged.planId)))
      .orderBy(maintenancePlanCheck.sort, maintenancePlanCheck.id);
    if (checks.length)
      await scope.insert(maintenanceRecordCheck).values(
        ...checks.map((c, index) => ({
          id: nextId(),
          recordId: id,
          checkName: c.checkName,
          sort: index,
          createUser: auth.userId,
          updateUser: auth.userId,
        })),
      );
  }
  if (values.state === MaintenanceState.completed) {
    const checks = await scope
      .select(maintenanceRecordCheck, {
        checkName: maintenanceRecordCheck.checkName,
        result: maintenanceRecordCheck.result,
      })
      .where(eq(maintenanceRecordCheck.recordId, id))
      .orderBy(maintenanceRecordCheck.sort, maintenanceRecordCheck.id);
    const missing = checks.findIndex((c) => c.result === null || c.result === undefined);
    if (missing >= 0) throw badRequest(MaintenanceMessages.checkWithoutResult(missing + 1, checks[missing]!.checkName));
  }
  await followDevice(tx, auth.tenantId, String(merged.deviceId));
}

/** Removing an open record ends the device's maintenance (unless another record is open). */
async function afterRecordRemove({ tx, auth, rows }: RemoveArgs): Promise<void> {
  const devices = new Set(rows.map((r) => String(r.deviceId)));
  for (const deviceId of devices) await followDevice(tx, auth.tenantId, deviceId);
}

/**
 * Maintenance (docs/maintenance.md): plans per product with their check lists
 * (`/api/basic/maintenance-plan`), records that set and clear a device's maintenance
 * (`/api/basic/maintenance-record`), the due list (`GET /api/basic/maintenance-due/list`, export)
 * and the sweep that posts a notice before a plan falls due.
 */
export function registerMaintenanceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: maintenancePlanResource,
    table: maintenancePlan,
    hooks: { beforeChange: checkPlan },
  });
  registerResource(app, ctx, {
    def: maintenanceRecordResource,
    table: maintenanceRecord,
    hooks: { beforeChange: checkRecord, afterChange: afterRecordChange, afterRemove: afterRecordRemove },
  });
  registerResource(app, ctx, {
    def: maintenanceDueResource,
    table: aggregateQueryTable(maintenanceDueResource, maintenanceDueQuery()),
  });
  startMaintenanceDueNotices(ctx);
}
