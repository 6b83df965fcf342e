import type pg from 'pg';
import { z } from 'zod';
import { OnOffReason, type DeviceLiveEvent } from '@mes/contracts';
import type { Db } from '../../platform/db/database';
import type { OnOffReasonValue, PresenceEvent } from '../../platform/mqtt/topics';
import { nextId } from '../../platform/db/ids';
import { defineJob } from '../../platform/jobs/job-definition';
import { publishChanges } from './publish-changes';
import { raiseOfflineWarnings } from './alarm-store';
import { refreshRunState } from './run-state';

/**
 * Devices' online state kept in PostgreSQL (docs/mqtt.md "Online state and on/off records"): the
 * device row's online flag and connect / disconnect / activity times are the one truth every
 * server process shares. Ingestion applies a batch's presence changes inside the batch's
 * transaction; the inactivity sweep is a durable job that runs once across processes. Each
 * change is a conditional UPDATE of the device row, so when two processes race, the row lock and
 * PostgreSQL's re-check of the condition let exactly one of them record the on/off row.
 *
 * The rows are matched by `(tenant_id, device_code)`, the device's unique key, across tenants:
 * a batch holds several tenants' devices, and the sweep runs for all of them.
 */

export type { OnOffReasonValue };

/** One presence change of a device, in the order the batch received them. */
/** A change of a device's online state (a connection event, or what a message implies). */
export type PresenceChange = PresenceEvent;

/**
 * `last_activity_time` is written at most once per this many seconds per device (a busy device
 * would otherwise rewrite its row every batch); the sweep waits this much longer to make up for it.
 */
export const ACTIVITY_RESOLUTION_SECONDS = 5;

/** The default of a device without a product (the product's own default). */
const DEFAULT_INACTIVITY_SECONDS = 600;

type Query = Pick<pg.PoolClient, 'query'>;

/** Sorted by key: concurrent batches lock device rows in one order, so they cannot deadlock. */
const byKey = <T extends { tenantId: string; deviceCode: string }>(a: T, b: T) =>
  a.tenantId < b.tenantId
    ? -1
    : a.tenantId > b.tenantId
      ? 1
      : a.deviceCode < b.deviceCode
        ? -1
        : a.deviceCode > b.deviceCode
          ? 1
          : 0;

/** A device that came online or went offline, for the live events and the offline warnings. */
export interface PresenceTransition {
  tenantId: string;
  deviceCode: string;
  deptId: string | null;
  online: boolean;
  at: Date;
}

export interface PresenceResult {
  online: number;
  offline: number;
  /** Each change of state, in order per device. */
  transitions: PresenceTransition[];
}

export const deviceLiveEvent = (t: PresenceTransition): DeviceLiveEvent => ({
  type: 'device',
  action: t.online ? 'online' : 'offline',
  tenantId: t.tenantId,
  deptId: t.deptId,
  deviceCode: t.deviceCode,
  at: t.at.toISOString(),
});

/**
 * Applies a batch's presence changes inside the caller's transaction and writes the on/off rows
 * they produce. Returns how many devices came online and went offline, and those changes.
 */
export async function applyPresence(client: Query, changes: readonly PresenceChange[]): Promise<PresenceResult> {
  const perDevice = new Map<string, PresenceChange[]>();
  for (const change of changes) {
    const key = `${change.tenantId}\u0000${change.deviceCode}`;
    const list = perDevice.get(key);
    if (list) list.push(change);
    else perDevice.set(key, [change]);
  }
  const onlyOnline: { tenantId: string; deviceCode: string; first: Date; last: Date }[] = [];
  const mixed: PresenceChange[][] = [];
  for (const list of perDevice.values()) {
    if (list.every((c) => c.online)) {
      let first = list[0]!.at;
      let last = first;
      for (const c of list) {
        if (c.at < first) first = c.at;
        if (c.at > last) last = c.at;
      }
      onlyOnline.push({ tenantId: list[0]!.tenantId, deviceCode: list[0]!.deviceCode, first, last });
    } else mixed.push(list);
  }
  onlyOnline.sort(byKey);
  mixed.sort((a, b) => byKey(a[0]!, b[0]!));
  let online = 0;
  let offline = 0;
  const transitions: PresenceTransition[] = [];
  if (onlyOnline.length) {
    // The usual batch: messages from devices that are online already. Only a device that was
    // offline is locked and changed (and gets its online row); the others' activity time is
    // written when it is older than the resolution, so a busy device's row is not rewritten every batch.
    const result = await client.query<{
      tenant_id: string;
      device_code: string;
      dept_id: string | null;
      first_at: Date;
    }>(
      `with v as (
         select * from unnest($1::varchar[], $2::varchar[], $3::timestamptz[], $4::timestamptz[], $5::bigint[])
           as v(tenant_id, device_code, first_at, last_at, onoff_id)),
       came as (
         update mes_device d set online = true, last_connect_time = v.first_at,
                last_activity_time = greatest(d.last_activity_time, v.last_at)
           from v
          where d.tenant_id = v.tenant_id and d.device_code = v.device_code and d.is_deleted = 0 and not d.online
         returning v.onoff_id, d.tenant_id, d.device_code, d.dept_id, v.first_at),
       recorded as (
         insert into mes_onoff (id, tenant_id, device_code, event, on_time, reason, create_time)
         select onoff_id, tenant_id, device_code, 'online', first_at, $6, first_at from came
         returning 1),
       touched as (
         update mes_device d set last_activity_time = v.last_at
           from v
          where d.tenant_id = v.tenant_id and d.device_code = v.device_code and d.is_deleted = 0 and d.online
            and (d.last_activity_time is null
                 or d.last_activity_time < v.last_at - make_interval(secs => $7::int)))
       select tenant_id, device_code, dept_id::text as dept_id, first_at from came`,
      [
        onlyOnline.map((d) => d.tenantId),
        onlyOnline.map((d) => d.deviceCode),
        onlyOnline.map((d) => d.first),
        onlyOnline.map((d) => d.last),
        onlyOnline.map(() => nextId()),
        OnOffReason.normal,
        ACTIVITY_RESOLUTION_SECONDS,
      ],
    );
    online += result.rows.length;
    for (const r of result.rows)
      transitions.push({
        tenantId: r.tenant_id,
        deviceCode: r.device_code,
        deptId: r.dept_id,
        online: true,
        at: new Date(r.first_at),
      });
  }
  if (mixed.length) {
    const counts = await applyInOrder(client, mixed);
    online += counts.online;
    offline += counts.offline;
    transitions.push(...counts.transitions);
  }
  return { online, offline, transitions };
}

interface DeviceState {
  tenant_id: string;
  device_code: string;
  dept_id: string | null;
  online: boolean;
  last_connect_time: Date | null;
}

/**
 * Devices that went offline (and maybe online again) within the batch: their rows are locked and
 * the changes replayed in order against the stored state, so a will after an inactivity sweep,
 * or a second process's copy, records nothing twice.
 */
async function applyInOrder(client: Query, devices: PresenceChange[][]): Promise<PresenceResult> {
  const { rows } = await client.query<DeviceState>(
    `select d.tenant_id, d.device_code, d.dept_id::text as dept_id, d.online, d.last_connect_time
       from mes_device d
       join unnest($1::varchar[], $2::varchar[]) as v(tenant_id, device_code)
         on d.tenant_id = v.tenant_id and d.device_code = v.device_code
      where d.is_deleted = 0
      order by d.tenant_id, d.device_code
        for update of d`,
    [devices.map((l) => l[0]!.tenantId), devices.map((l) => l[0]!.deviceCode)],
  );
  const stored = new Map(rows.map((r) => [`${r.tenant_id}\u0000${r.device_code}`, r]));
  const onoff: {
    deptId: string | null;
    tenantId: string;
    deviceCode: string;
    event: 'online' | 'offline';
    onTime: Date | null;
    offTime: Date | null;
    duration: number | null;
    reason: string;
    at: Date;
  }[] = [];
  const finals: {
    tenantId: string;
    deviceCode: string;
    online: boolean;
    connect: Date | null;
    disconnect: Date | null;
    activity: Date | null;
  }[] = [];
  for (const list of devices) {
    const { tenantId, deviceCode } = list[0]!;
    const state = stored.get(`${tenantId}\u0000${deviceCode}`);
    if (!state) continue;
    let isOnline = state.online;
    let since = state.last_connect_time;
    let disconnect: Date | null = null;
    let activity: Date | null = null;
    for (const change of list) {
      if (change.online) {
        activity = change.at;
        if (isOnline) continue;
        isOnline = true;
        since = change.at;
        onoff.push({
          deptId: state.dept_id,
          tenantId,
          deviceCode,
          event: 'online',
          onTime: change.at,
          offTime: null,
          duration: null,
          reason: change.reason,
          at: change.at,
        });
      } else {
        if (!isOnline) continue;
        isOnline = false;
        disconnect = change.at;
        const duration = since ? Math.max(0, Math.round((change.at.getTime() - since.getTime()) / 1000)) : null;
        onoff.push({
          deptId: state.dept_id,
          tenantId,
          deviceCode,
          event: 'offline',
          onTime: since,
          offTime: change.at,
          duration,
          reason: change.reason,
          at: change.at,
        });
      }
    }
    finals.push({ tenantId, deviceCode, online: isOnline, connect: since, disconnect, activity });
  }
  if (finals.length)
    await client.query(
      `update mes_device d
          set online = v.online, last_connect_time = v.connect_at,
              last_disconnect_time = coalesce(v.disconnect_at, d.last_disconnect_time),
              last_activity_time = greatest(d.last_activity_time, v.activity_at)
         from unnest($1::varchar[], $2::varchar[], $3::boolean[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[])
           as v(tenant_id, device_code, online, connect_at, disconnect_at, activity_at)
        where d.tenant_id = v.tenant_id and d.device_code = v.device_code and d.is_deleted = 0`,
      [
        finals.map((f) => f.tenantId),
        finals.map((f) => f.deviceCode),
        finals.map((f) => f.online),
        finals.map((f) => f.connect),
        finals.map((f) => f.disconnect),
        finals.map((f) => f.activity),
      ],
    );
  await insertOnOff(client, onoff);
  return {
    online: onoff.filter((r) => r.event === 'online').length,
    offline: onoff.filter((r) => r.event === 'offline').length,
    transitions: onoff.map((r) => ({
      tenantId: r.tenantId,
      deviceCode: r.deviceCode,
      deptId: r.deptId,
      online: r.event === 'online',
      at: r.at,
    })),
  };
}

async function insertOnOff(
  client: Query,
  rows: readonly {
    tenantId: string;
    deviceCode: string;
    event: string;
    onTime: Date | null;
    offTime: Date | null;
    duration: number | null;
    reason: string;
    at: Date;
  }[],
): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `insert into mes_onoff (id, tenant_id, device_code, event, on_time, off_time, duration_seconds, reason, create_time)
     select * from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[],
                          $6::timestamptz[], $7::int[], $8::varchar[], $9::timestamptz[])`,
    [
      rows.map(() => nextId()),
      rows.map((r) => r.tenantId),
      rows.map((r) => r.deviceCode),
      rows.map((r) => r.event),
      rows.map((r) => r.onTime),
      rows.map((r) => r.offTime),
      rows.map((r) => r.duration),
      rows.map((r) => r.reason),
      rows.map((r) => r.at),
    ],
  );
}

/**
 * The inactivity sweep: every device online whose last activity is older than its product's
 * inactivity timeout (plus the activity resolution) goes offline with an on/off row, reason
 * `inactivity`; then every device offline longer than an `offline` alarm rule of its product
 * allows gets its warning (alarm-store.ts). One transaction, with the devices' and warnings' live
 * events; a device a batch touches meanwhile is re-checked by PostgreSQL after its lock and stays online.
 */
export async function sweepInactiveDevices(db: Db, now: Date): Promise<{ offline: number; warnings: number }> {
  // The pool behind the Drizzle handle (node-postgres driver): the warnings' statements and
  // NOTIFYs are plain parameterised queries shared with ingestion (alarm-store.ts).
  const pool = (db as Db & { $client?: pg.Pool }).$client;
  if (!pool) throw new Error('the inactivity sweep needs the node-postgres pool behind the database handle');
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{
      tenant_id: string;
      device_code: string;
      dept_id: string | null;
      last_connect_time: Date | null;
    }>(
      `update mes_device d set online = false, last_disconnect_time = $1
        where d.online and d.is_deleted = 0
          and coalesce(d.last_activity_time, d.last_connect_time, '-infinity'::timestamptz)
              < $1::timestamptz - make_interval(secs => $2::int + coalesce(
                  (select p.inactivity_seconds from mes_product p where p.id = d.product_id), $3::int))
       returning d.tenant_id, d.device_code, d.dept_id::text as dept_id, d.last_connect_time`,
      [now, ACTIVITY_RESOLUTION_SECONDS, DEFAULT_INACTIVITY_SECONDS],
    );
    await insertOnOff(
      client,
      rows.map((r) => {
        const on = r.last_connect_time === null ? null : new Date(r.last_connect_time);
        return {
          tenantId: r.tenant_id,
          deviceCode: r.device_code,
          event: 'offline',
          onTime: on,
          offTime: now,
          duration: on ? Math.max(0, Math.round((now.getTime() - on.getTime()) / 1000)) : null,
          reason: OnOffReason.inactivity,
          at: now,
        };
      }),
    );
    const warnings = await raiseOfflineWarnings(client, now);
    // Offline, a device's last phase is no cycle under way; an offline warning may be a fault.
    const states = await refreshRunState(
      client,
      [...rows.map((r) => ({ tenantId: r.tenant_id, deviceCode: r.device_code })), ...warnings],
      now,
    );
    await publishChanges(client, [
      ...states,
      ...rows.map((r) =>
        deviceLiveEvent({
          tenantId: r.tenant_id,
          deviceCode: r.device_code,
          deptId: r.dept_id,
          online: false,
          at: now,
        }),
      ),
      ...warnings,
    ]);
    await client.query('commit');
    return { offline: rows.length, warnings: warnings.length };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The inactivity sweep as a durable job: once a minute (cron resolution) across all processes.
 * A missed run is made up by the next one, so it is not retried.
 */
export const deviceInactivityJob = defineJob({
  name: 'device.inactivity',
  payload: z.object({}),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 5 * 60,
});
/** Every minute. */
export const DEVICE_INACTIVITY_CRON = '* * * * *';
