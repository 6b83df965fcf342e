import { and, eq, sql } from 'drizzle-orm';
import {
  deviceResource,
  enumLabelOf,
  enumLabelsOf,
  productResource,
  type EnumEntry,
  type EnumeratedField,
  type LocalText,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { ALL_TOPICS, tenantOfTopic } from '../../platform/cache/change-feed';
import { device, productField } from '../../platform/db/schema';
import { rowsOfSameTenant, tenantRows } from '../../platform/tenancy/tenant-scope';

/** Resources whose writes change the names (their `rows:<code>:<tenant>` notices). */
const WATCHED = new Set([deviceResource.code, productResource.code]);
/** A safety net for writes that bypass the engine (and so publish nothing). */
const MAX_AGE_MS = 60_000;
const MAX_TENANTS = 1_000;

/** The enumerated model fields of each device of a tenant (devices without any are absent). */
type TenantModels = Map<string, EnumeratedField[]>;

interface Entry {
  at: number;
  value: Promise<TenantModels>;
}

/**
 * The names of enumerated model values, for the lists that show telemetry (IoT data, acquisition
 * data, warnings). A page of rows is labelled from one map per tenant — device code to its
 * product's enumerated fields — read by one query and kept until a product or device of the
 * tenant is written through the engine (the change feed), a minute at most otherwise. Nothing
 * is kept while the feed is not listening. Labels are both languages (`{zh, en}`): the reply
 * serves either interface, and the raw value beside it is unchanged.
 */
export class ModelLabels {
  private readonly tenants = new Map<string, Entry>();

  constructor(private readonly ctx: AppContext) {
    ctx.changes.subscribe((topic) => this.drop(topic));
    ctx.caches.register('model-labels', () => this.tenants.clear());
  }

  /** The enumerated fields of the product of `deviceCode` (empty when none or unknown). */
  async fieldsOf(tenantId: string, deviceCode: string): Promise<EnumeratedField[]> {
    return (await this.models(tenantId)).get(deviceCode) ?? [];
  }

  /**
   * Adds `<valueKey>Label` (`{zh, en}`) to each row whose device's model names its value; other
   * rows get null. `field` names the row's model-field key, or is a fixed key.
   */
  async labelRows<R extends Record<string, unknown>>(
    tenantId: string,
    rows: R[],
    keys: { device: string; field: string; value: string | readonly string[]; label: string },
  ): Promise<R[]> {
    if (rows.length === 0) return rows;
    const models = await this.modelsOfRows(tenantId, rows);
    const values = typeof keys.value === 'string' ? [keys.value] : keys.value;
    for (const row of rows) {
      const fields = models(row).get(String(row[keys.device] ?? ''));
      let label: LocalText | undefined;
      if (fields)
        for (const name of values) {
          label = enumLabelOf(fields, String(row[keys.field] ?? ''), row[name]);
          if (label) break;
        }
      (row as Record<string, unknown>)[keys.label] = label ?? null;
    }
    return rows;
  }

  /** Adds `<label>` — a map field key → `{zh, en}` of the named values in `valuesKey` — to each row. */
  async labelValueMaps<R extends Record<string, unknown>>(
    tenantId: string,
    rows: R[],
    keys: { device: string; values: string; label: string },
  ): Promise<R[]> {
    if (rows.length === 0) return rows;
    const models = await this.modelsOfRows(tenantId, rows);
    for (const row of rows) {
      const fields = models(row).get(String(row[keys.device] ?? ''));
      const values = row[keys.values];
      (row as Record<string, unknown>)[keys.label] =
        fields && values && typeof values === 'object' && !Array.isArray(values)
          ? enumLabelsOf(fields, values as Record<string, unknown>)
          : {};
    }
    return rows;
  }

  /**
   * The models of every tenant the rows belong to: the caller's, or each row's own where a
   * platform list spans tenants (rows then carry `tenantId`).
   */
  private async modelsOfRows(
    tenantId: string,
    rows: readonly Record<string, unknown>[],
  ): Promise<(row: Record<string, unknown>) => TenantModels> {
    const tenantOf = (row: Record<string, unknown>) =>
      typeof row.tenantId === 'string' && row.tenantId ? row.tenantId : tenantId;
    const tenants = [...new Set(rows.map(tenantOf))];
    const loaded = new Map(await Promise.all(tenants.map(async (t) => [t, await this.models(t)] as const)));
    return (row) => loaded.get(tenantOf(row)) ?? new Map();
  }

  private models(tenantId: string): Promise<TenantModels> {
    const now = Date.now();
    const hit = this.tenants.get(tenantId);
    if (hit && now - hit.at < MAX_AGE_MS) return hit.value;
    const value = this.load(tenantId);
    if (this.ctx.changes.isLive()) {
      if (this.tenants.size >= MAX_TENANTS) this.tenants.delete(this.tenants.keys().next().value as string);
      const entry: Entry = { at: now, value };
      this.tenants.set(tenantId, entry);
      value.catch(() => {
        if (this.tenants.get(tenantId) === entry) this.tenants.delete(tenantId);
      });
    }
    return value;
  }

  private async load(tenantId: string): Promise<TenantModels> {
    // Only fields that declare names: most tenants' models have a handful, so the map is small.
    const rows = await this.ctx.db
      .select({
        deviceCode: device.deviceCode,
        fieldKey: productField.fieldKey,
        enumeration: productField.enumeration,
      })
      .from(productField)
      .innerJoin(device, rowsOfSameTenant(device, productField, eq(device.productId, productField.productId)))
      .where(
        and(
          tenantRows(productField, tenantId),
          sql`jsonb_typeof(${productField.enumeration}) = 'array'`,
          sql`jsonb_array_length(${productField.enumeration}) > 0`,
        ),
      );
    const models: TenantModels = new Map();
    for (const row of rows) {
      const list = models.get(row.deviceCode) ?? [];
      list.push({ fieldKey: row.fieldKey, enumeration: row.enumeration as EnumEntry[] });
      models.set(row.deviceCode, list);
    }
    return models;
  }

  private drop(topic: string): void {
    if (topic === ALL_TOPICS) return this.tenants.clear();
    const tenant = tenantOfTopic(topic) ?? this.watchedTenant(topic);
    if (tenant === undefined) return;
    if (tenant === '*') return this.tenants.clear();
    this.tenants.delete(tenant);
  }

  private watchedTenant(topic: string): string | undefined {
    const [kind, code, tenant] = topic.split(':');
    return kind === 'rows' && code !== undefined && WATCHED.has(code) ? tenant : undefined;
  }
}

const perContext = new WeakMap<AppContext, ModelLabels>();

/** The process's labels for this context (one cache, one change-feed listener). */
export function modelLabelsOf(ctx: AppContext): ModelLabels {
  let labels = perContext.get(ctx);
  if (!labels) {
    labels = new ModelLabels(ctx);
    perContext.set(ctx, labels);
  }
  return labels;
}
