import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  deviceResource,
  enumLabelOf,
  formatDateTime,
  type EnumEntry,
  type FieldLimits,
  TelemetryQuality,
  type LatestEntry,
  type ModelDataItem,
  type ModelDataType,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dataScopeCondition } from '../../engine/resource-access';
import type { AuthContext } from '../../platform/auth/request-auth';
import { device, deviceLatest, plcVariable, productField, telemetry } from '../../platform/db/schema';
import { notFound } from '../../platform/http/errors';
import { rowsOfSameTenant, tenantRows, tenantScope } from '../../platform/tenancy/tenant-scope';
import { IotMessages } from './iot-messages';

/** A device the caller may see: in their tenant and inside their data scope of devices. */
export interface VisibleDevice {
  deviceCode: string;
  productId: string;
}

/** The product of the device `deviceCode` if the caller may see the device, else undefined. */
async function productOfVisible(ctx: AppContext, auth: AuthContext, deviceCode: string): Promise<string | undefined> {
  const scope = await dataScopeCondition(deviceResource, auth, ctx.grants);
  const [found] = await tenantScope(ctx.db, auth.tenantId)
    .select(device, { productId: device.productId })
    .where(eq(device.deviceCode, deviceCode), scope)
    .limit(1);
  return found?.productId ? String(found.productId) : undefined;
}

/**
 * The device of `deviceCode` as the caller may see it, or the same 404 as any detail of a row
 * that does not exist or is not theirs (another tenant's code, a department outside the
 * caller's data scope of devices) — the reply does not tell which.
 */
export async function visibleDevice(ctx: AppContext, auth: AuthContext, deviceCode: string): Promise<VisibleDevice> {
  const productId = await productOfVisible(ctx, auth, deviceCode);
  if (!productId) throw notFound(IotMessages.deviceNotFound(deviceCode));
  return { deviceCode, productId };
}

/**
 * Whether a telemetry row of `deviceCode` is the caller's to see: always, unless a data scope
 * of devices narrows what they see (then the device must be inside it).
 */
export async function telemetryVisible(ctx: AppContext, auth: AuthContext, deviceCode: string): Promise<boolean> {
  if (!(await dataScopeCondition(deviceResource, auth, ctx.grants))) return true;
  return (await productOfVisible(ctx, auth, deviceCode)) !== undefined;
}

/**
 * The telemetry rows of devices inside the caller's data scope of devices, or undefined when no
 * scope narrows them (the tenant condition is the engine's, on the telemetry rows themselves).
 */
export async function visibleTelemetry(ctx: AppContext, auth: AuthContext): Promise<SQL | undefined> {
  const scope = await dataScopeCondition(deviceResource, auth, ctx.grants);
  if (!scope) return undefined;
  const codes = ctx.db
    .select({ code: device.deviceCode })
    .from(device)
    .where(and(tenantRows(device, auth.tenantId), scope));
  return inArray(telemetry.deviceCode, codes);
}

/** One model field of a product, as model-list needs it. */
export interface ModelFieldInfo {
  productId: string;
  dataType: ModelDataType;
  unit: string;
}

/**
 * The device as {@link visibleDevice} finds it, with the model field `field` of its product
 * (undefined when the model has no such key): one query, the device joined to its model field.
 */
export async function visibleDeviceField(
  ctx: AppContext,
  auth: AuthContext,
  deviceCode: string,
  field: string,
): Promise<ModelFieldInfo | undefined> {
  const scope = await dataScopeCondition(deviceResource, auth, ctx.grants);
  const [found] = await ctx.db
    .select({ productId: device.productId, dataType: productField.dataType, unit: productField.unit })
    .from(device)
    .leftJoin(
      productField,
      rowsOfSameTenant(
        productField,
        device,
        eq(productField.productId, device.productId),
        eq(productField.fieldKey, field),
      ),
    )
    .where(and(tenantRows(device, auth.tenantId, eq(device.deviceCode, deviceCode)), scope))
    .limit(1);
  if (!found?.productId) throw notFound(IotMessages.deviceNotFound(deviceCode));
  return found.dataType
    ? { productId: String(found.productId), dataType: found.dataType as ModelDataType, unit: found.unit ?? '' }
    : undefined;
}

const limitValue = (value: string | null) => (value === null || value === '' ? null : Number(value));

/** A PLC variable's four limits, or null when it sets none (or there is no variable). */
export function limitsOf(hh: string | null, h: string | null, l: string | null, ll: string | null): FieldLimits | null {
  const limits = { hh: limitValue(hh), h: limitValue(h), l: limitValue(l), ll: limitValue(ll) };
  return Object.values(limits).some((v) => v !== null) ? limits : null;
}

/**
 * The newest value of every field of the device's model, in model order; a field that never
 * received a value is listed with nulls. One query: the model joined to the device's row of
 * latest values, each field's entry picked out of it by PostgreSQL.
 */
export async function modelData(ctx: AppContext, auth: AuthContext, target: VisibleDevice): Promise<ModelDataItem[]> {
  const rows = await ctx.db
    .select({
      field: productField.fieldKey,
      name: productField.fieldName,
      dataType: productField.dataType,
      unit: productField.unit,
      precision: productField.precision,
      enumeration: productField.enumeration,
      // Null where the left join found no row, or the row no entry of this field.
      entry: sql<LatestEntry | null>`${deviceLatest.latest} -> ${productField.fieldKey}`,
      // The alarm limits of the PLC variable named after the field (unique per product and name).
      limitHh: plcVariable.limitHh,
      limitH: plcVariable.limitH,
      limitL: plcVariable.limitL,
      limitLl: plcVariable.limitLl,
    })
    .from(productField)
    .leftJoin(
      deviceLatest,
      rowsOfSameTenant(deviceLatest, productField, eq(deviceLatest.deviceCode, target.deviceCode)),
    )
    .leftJoin(
      plcVariable,
      rowsOfSameTenant(
        plcVariable,
        productField,
        eq(plcVariable.productId, productField.productId),
        eq(plcVariable.name, productField.fieldKey),
      ),
    )
    .where(tenantRows(productField, auth.tenantId, eq(productField.productId, target.productId)))
    .orderBy(asc(productField.sort), asc(productField.id));
  const now = ctx.clock.now();
  return rows.map(({ entry, limitHh, limitH, limitL, limitLl, ...row }) => {
    const ts = entry ? entry.ts : null;
    const at = ts === null ? null : new Date(ts);
    const dataType = row.dataType as ModelDataType;
    const stored = entry?.v ?? null;
    // Text of a string field, or of an enum sent as text; every other value is stored as a number.
    const text = typeof stored === 'string' && (dataType === 'string' || dataType === 'enum') ? stored : null;
    const value = ts === null ? null : (text ?? (typeof stored === 'number' ? stored : null));
    const enumeration = Array.isArray(row.enumeration) ? (row.enumeration as EnumEntry[]) : [];
    return {
      field: row.field,
      name: row.name,
      dataType,
      unit: row.unit,
      precision: row.precision,
      value,
      valueLabel: enumLabelOf([{ fieldKey: row.field, enumeration }], row.field, value) ?? null,
      enumeration,
      time: at ? formatDateTime(at) : null,
      ts,
      ageSeconds: ts === null ? null : Math.max(0, Math.floor((now - ts) / 1000)),
      quality: entry?.q ?? TelemetryQuality.good,
      limits: limitsOf(limitHh, limitH, limitL, limitLl),
    };
  });
}
