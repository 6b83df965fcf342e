import { and, eq, sql } from 'drizzle-orm';
import {
  DeviceStatus,
  deviceResource,
  plcVariableResource,
  productResource,
  deriveScaling,
  isIdentity,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { device, plcVariable, product, productField } from '../../platform/db/schema';
import { ALL_TOPICS, tenantOfTopic } from '../../platform/cache/change-feed';
import type {
  DeviceDirectory,
  DeviceIdentity,
  KnownDevice,
  ModelDataType,
  ModelField,
} from '../telemetry/device-directory';
import { liveRows, tenantScope } from '../../platform/tenancy/tenant-scope';
import { secretMatches } from '../../platform/crypto/device-credentials';

/** Part of the stored hash: enough to tell one secret from the next, and never the secret. */
const fingerprint = (storedHash: string) => storedHash.slice(0, 16);

/** Resources whose writes change what `find` answers (their `rows:<code>:<tenant>` notices). */
const WATCHED = new Set([deviceResource.code, productResource.code, plcVariableResource.code]);
/** A safety net for writes that bypass the engine (and so publish nothing). */
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 20_000;
const DATA_TYPES = new Set<ModelDataType>(['int', 'float', 'bool', 'string', 'enum']);

interface Entry {
  tenantId: string;
  at: number;
  value: Promise<KnownDevice | undefined>;
}

/**
 * The devices as the MQTT side sees them (platform/mqtt/device-directory.ts). `find` runs per
 * message batch, so its answers are cached per tenant and device code, dropped at once on every
 * process when a product, device or PLC variable of that tenant is written through the engine
 * (the change feed's `rows:<code>:<tenant>`), and after a minute at most otherwise. Nothing is
 * cached while the feed is not listening. `authenticate` is not cached: it runs once per
 * connection and must see a rotation at once. A disabled device (`status` 0) is neither
 * authenticated nor found.
 */
export class PgDeviceDirectory implements DeviceDirectory {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ctx: AppContext) {
    ctx.changes.subscribe((topic) => this.drop(topic));
    ctx.caches.register('device-directory', () => this.entries.clear());
  }

  async authenticate(clientId: string, secret: string): Promise<DeviceIdentity | undefined> {
    if (!secret || secret.length > 256) return undefined;
    const row = await this.signInRow(clientId);
    if (!row || !secretMatches(secret, row.hash ?? '')) return undefined;
    return {
      tenantId: row.tenantId,
      deviceCode: row.deviceCode,
      deviceId: String(row.id),
      credential: fingerprint(row.hash ?? ''),
    };
  }

  async currentCredential(clientId: string): Promise<string | undefined> {
    const row = await this.signInRow(clientId);
    return row?.hash ? fingerprint(row.hash) : undefined;
  }

  /** The enabled, live device with this client id (unique across tenants: the row tells the tenant). */
  private async signInRow(clientId: string) {
    if (!clientId || clientId.length > 64) return undefined;
    const [row] = await this.ctx.db
      .select({
        id: device.id,
        tenantId: device.tenantId,
        deviceCode: device.deviceCode,
        hash: device.mqttSecretHash,
      })
      .from(device)
      .where(and(eq(device.mqttClientId, clientId), sql`${device.status} = ${DeviceStatus.enabled}`, liveRows(device)))
      .limit(1);
    return row;
  }

  find(tenantId: string, deviceCode: string): Promise<KnownDevice | undefined> {
    const key = `${tenantId}|${deviceCode}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < MAX_AGE_MS) return hit.value;
    const value = this.load(tenantId, deviceCode);
    if (this.ctx.changes.isLive()) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      const entry: Entry = { tenantId, at: now, value };
      this.entries.set(key, entry);
      value.catch(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      });
    }
    return value;
  }

  async markOnline(tenantId: string, deviceCode: string, online: boolean, at: Date): Promise<void> {
    // The status and connection times only: not announced, since `find` does not carry them.
    await tenantScope(this.ctx.db, tenantId)
      .update(device)
      .set(
        online
          ? { online: true, lastConnectTime: at, lastActivityTime: at }
          : { online: false, lastDisconnectTime: at },
      )
      .where(eq(device.deviceCode, deviceCode));
  }

  private async load(tenantId: string, deviceCode: string): Promise<KnownDevice | undefined> {
    const scope = tenantScope(this.ctx.db, tenantId);
    const [row] = await scope
      .select(device, { id: device.id, productId: device.productId })
      .where(eq(device.deviceCode, deviceCode), sql`${device.status} = ${DeviceStatus.enabled}`)
      .limit(1);
    // A removed or disabled device is unknown: its telemetry is refused (logged, not stored).
    if (!row || row.productId === null) return undefined;
    const productId = String(row.productId);
    const [owner] = await scope
      .select(product, { inactivitySeconds: product.inactivitySeconds })
      .where(eq(product.id, productId))
      .limit(1);
    if (!owner) return undefined;
    const [modelRows, variables] = await Promise.all([
      scope
        .select(productField, {
          fieldKey: productField.fieldKey,
          dataType: productField.dataType,
          unit: productField.unit,
          precision: productField.precision,
        })
        .where(eq(productField.productId, productId)),
      scope
        .select(plcVariable, {
          name: plcVariable.name,
          multiplier: plcVariable.multiplier,
          offset: plcVariable.offset,
          rawLow: plcVariable.rawLow,
          rawHigh: plcVariable.rawHigh,
          engLow: plcVariable.engLow,
          engHigh: plcVariable.engHigh,
        })
        .where(eq(plcVariable.productId, productId)),
    ]);
    const byName = new Map(variables.map((v) => [v.name, v]));
    const fields = new Map<string, ModelField>();
    for (const m of modelRows) {
      const dataType = DATA_TYPES.has(m.dataType as ModelDataType) ? (m.dataType as ModelDataType) : 'string';
      const field: ModelField = { field: m.fieldKey, dataType, unit: m.unit, precision: m.precision };
      const variable = byName.get(m.fieldKey);
      if (variable) {
        const scaling = deriveScaling(variable);
        if (!isIdentity(scaling)) field.scaling = scaling;
      }
      fields.set(m.fieldKey, field);
    }
    return {
      deviceId: String(row.id),
      tenantId,
      deviceCode,
      productId,
      fields,
      inactivitySeconds: owner.inactivitySeconds,
    };
  }

  private drop(topic: string): void {
    if (topic === ALL_TOPICS) return this.entries.clear();
    const tenant = tenantOfTopic(topic) ?? this.watchedTenant(topic);
    if (tenant === undefined) return;
    if (tenant === '*') return this.entries.clear();
    for (const [key, entry] of this.entries) if (entry.tenantId === tenant) this.entries.delete(key);
  }

  /** The tenant of a `rows:<code>:<tenant>` notice of a watched resource, else undefined. */
  private watchedTenant(topic: string): string | undefined {
    const [kind, code, tenant] = topic.split(':');
    return kind === 'rows' && code !== undefined && WATCHED.has(code) ? tenant : undefined;
  }
}

/** The directory the broker and ingestion use; one per process. */
export const createDeviceDirectory = (ctx: AppContext): DeviceDirectory => new PgDeviceDirectory(ctx);
