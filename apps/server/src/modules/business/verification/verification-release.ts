import { asc, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import {
  formatDateTime,
  REQUALIFICATION_RUNS,
  VerificationResult,
  VerificationType,
  type DeviceRelease,
} from '@mes/contracts';
import { device, product, verificationRecord } from '../../../platform/db/schema';
import { tenantRows, tenantScope, type Queryable } from '../../../platform/tenancy/tenant-scope';
import { addDays, dayStart, zoneDay } from '../../welcome/welcome-days';

/** Product category (dictionary product_category) of the pre-vacuum steam sterilisers that need a daily BD test. */
export const BD_CATEGORY = 2;

/**
 * Passing requalification runs in a row, newest first, or null when no requalification is open:
 * a device's first requalification record opens one (after installation, moving or a major
 * repair), and it stays open until the newest REQUALIFICATION_RUNS runs all passed.
 */
function openRequalification(results: readonly number[]): number | null {
  if (!results.length) return null;
  let passes = 0;
  while (passes < results.length && results[passes] === VerificationResult.pass) passes += 1;
  return passes >= REQUALIFICATION_RUNS ? null : passes;
}

/**
 * Today's release of every steam steriliser of the tenant that `devices` (a device data scope on
 * `mes_device`, unqualified columns; undefined: all) shows: released only when today's latest BD
 * test (a current version, "today" a calendar day in the console's zone) passed and no
 * requalification is open. Ordered by device code.
 */
export async function deviceReleases(
  db: Queryable,
  tenantId: string,
  devices: SQL | undefined,
  now: number,
): Promise<DeviceRelease[]> {
  const steam = db
    .select({ id: product.id })
    .from(product)
    .where(tenantRows(product, tenantId, eq(product.category, BD_CATEGORY)));
  const shown = await tenantScope(db, tenantId)
    .select(device, { id: device.id, deviceCode: device.deviceCode, deviceName: device.deviceName })
    .where(devices, inArray(device.productId, steam))
    .orderBy(asc(device.deviceCode));
  if (!shown.length) return [];
  const ids = shown.map((d) => d.id);
  const today = zoneDay(now);
  const current = (type: number, ...more: SQL[]) =>
    tenantRows(
      verificationRecord,
      tenantId,
      inArray(verificationRecord.deviceId, ids),
      eq(verificationRecord.verificationType, type),
      eq(verificationRecord.superseded, false),
      ...more,
    );
  const [bd, requal] = await Promise.all([
    db
      .selectDistinctOn([verificationRecord.deviceId], {
        deviceId: verificationRecord.deviceId,
        result: verificationRecord.result,
        testTime: verificationRecord.testTime,
      })
      .from(verificationRecord)
      .where(
        current(
          VerificationType.bowieDick,
          gte(verificationRecord.testTime, dayStart(today)),
          lt(verificationRecord.testTime, dayStart(addDays(today, 1))),
        ),
      )
      .orderBy(verificationRecord.deviceId, desc(verificationRecord.testTime), desc(verificationRecord.id)),
    // Requalification runs are few (three after each installation or repair).
    db
      .select({ deviceId: verificationRecord.deviceId, result: verificationRecord.result })
      .from(verificationRecord)
      .where(current(VerificationType.requalification))
      .orderBy(verificationRecord.deviceId, desc(verificationRecord.testTime), desc(verificationRecord.id)),
  ]);
  const bdOf = new Map(bd.map((r) => [r.deviceId, r]));
  const requalOf = new Map<string, number[]>();
  for (const r of requal) if (r.deviceId) requalOf.set(r.deviceId, [...(requalOf.get(r.deviceId) ?? []), r.result]);
  return shown.map((d) => {
    const test = bdOf.get(d.id);
    const requalifying = openRequalification(requalOf.get(d.id) ?? []);
    const block =
      requalifying !== null
        ? 'requalifying'
        : !test
          ? 'noBd'
          : test.result !== VerificationResult.pass
            ? 'bdFailed'
            : null;
    return {
      deviceId: d.id,
      deviceCode: d.deviceCode,
      deviceName: d.deviceName,
      released: block === null,
      block,
      bdTime: test ? formatDateTime(test.testTime) : null,
      requalificationPasses: requalifying,
    };
  });
}
