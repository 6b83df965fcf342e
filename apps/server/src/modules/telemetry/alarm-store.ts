import type pg from 'pg';
import { WARNING_REOPEN_MINUTES, WarningStatus, type WarningAction, type WarningLiveEvent } from '@mes/contracts';
import { nextId } from '../../platform/db/ids';
import { rawTenantRows } from '../../platform/tenancy/raw-tenant-rows';

/**
 * The warnings' rows (`mes_warning`, docs/warnings.md), written inside the caller's transaction.
 * One open row per device and rule key: a raise while one is open counts up its `repeat_count`;
 * a raise within {@link REOPEN_MINUTES} of a clear of a row nobody handled re-opens that row; a
 * clear moves 1 → 3 and 2 → 4. The row decides, not this process's memory, so two processes that
 * both see a device (a shared subscription splits its messages) still keep one row: each raise
 * first takes a transaction lock on its device and rule key.
 */

/**
 * A pool client of ingestion's batch, or a Drizzle transaction (`txQueryable`) of a module that
 * raises a warning with its own write (a failed biological indicator). Statements therefore use
 * each `$n` once.
 */
export interface WarningQueryable {
  query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<{ rows: R[] }>;
}
type Query = WarningQueryable;

/** A cleared warning nobody handled is re-opened by a new raise within this many minutes. */
export const REOPEN_MINUTES = WARNING_REOPEN_MINUTES;

/** What a raise writes. */
export interface WarningInput {
  tenantId: string;
  deviceCode: string;
  deviceId: string | null;
  deptId: string | null;
  ruleKey: string;
  warningType: string;
  level: number;
  field: string;
  triggerValue: string;
  threshold: string;
  message: string;
  at: Date;
}

/** The device a warning belongs to, as every raise names it. */
export type WarningDevice = Pick<WarningInput, 'tenantId' | 'deviceCode' | 'deviceId' | 'deptId'>;
export const warningDevice = (d: WarningDevice): WarningDevice => ({
  tenantId: d.tenantId,
  deviceCode: d.deviceCode,
  deviceId: d.deviceId,
  deptId: d.deptId,
});

interface EventRow {
  id: string;
  warning_no: string;
  tenant_id: string;
  dept_id: string | null;
  device_code: string;
  level: number;
  status: number;
  message: string;
}

const RETURNING = `returning id::text, warning_no, tenant_id, dept_id::text, device_code, level, status, message`;

export const liveEventOf = (row: EventRow, action: WarningAction, at: Date): WarningLiveEvent => ({
  type: 'warning',
  action,
  tenantId: row.tenant_id,
  deptId: row.dept_id,
  warningId: row.id,
  warningNo: row.warning_no,
  deviceCode: row.device_code,
  level: row.level,
  status: row.status,
  message: row.message,
  at: at.toISOString(),
});

const SHANGHAI = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/**
 * `W` + yyyyMMddHHmmss (Asia/Shanghai) + the new row's id's last 10 digits: ids made within the
 * same second differ in them (a second is ~4·10^9 ids apart at most), so numbers do not repeat.
 */
export function warningNo(id: string, at: Date): string {
  const parts = Object.fromEntries(SHANGHAI.formatToParts(at).map((p) => [p.type, p.value]));
  return `W${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}${id.slice(-10).padStart(10, '0')}`;
}

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** Raises (or repeats, or re-opens) the warning of a device and rule. */
export async function raiseWarning(client: Query, input: WarningInput, now: Date): Promise<WarningLiveEvent> {
  await client.query('select pg_advisory_xact_lock(hashtext($1))', [
    `warning/${input.tenantId}/${input.deviceCode}/${input.ruleKey}`,
  ]);
  const { rows: found } = await client.query<{ id: string; status: number }>(
    `select id::text, status from mes_warning
      where ${rawTenantRows(1)} and device_code = $2 and rule_key = $3
        and (status in (1, 2) or (status = 3 and end_time >= $4::timestamptz - make_interval(mins => $5::int)))
      order by (status in (1, 2)) desc, start_time desc
      limit 1`,
    [input.tenantId, input.deviceCode, input.ruleKey, input.at, REOPEN_MINUTES],
  );
  const existing = found[0];
  const triggerValue = clip(input.triggerValue, 64);
  if (existing) {
    const { rows } = await client.query<EventRow>(
      `update mes_warning
          set repeat_count = repeat_count + 1, last_time = $2, trigger_value = $3, threshold = $4, message = $5,
              status = case when status = 3 then 1 else status end,
              end_time = case when status = 3 then null else end_time end,
              clear_time = case when status = 3 then null else clear_time end,
              update_time = $6
        where id = $1
        ${RETURNING}`,
      [existing.id, input.at, triggerValue, clip(input.threshold, 64), clip(input.message, 500), now],
    );
    return liveEventOf(rows[0]!, 'repeated', input.at);
  }
  const id = nextId();
  const { rows } = await client.query<EventRow>(
    `insert into mes_warning (id, warning_no, device_id, device_code, dept_id, warning_type, level, rule_key, field,
                              trigger_value, threshold, message, start_time, last_time, status, repeat_count,
                              tenant_id, create_time, update_time)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 1, $16, $17, $18)
     ${RETURNING}`,
    [
      id,
      warningNo(id, input.at),
      input.deviceId,
      input.deviceCode,
      input.deptId,
      input.warningType,
      input.level,
      input.ruleKey,
      input.field,
      triggerValue,
      clip(input.threshold, 64),
      clip(input.message, 500),
      input.at,
      input.at,
      WarningStatus.activeUnhandled,
      input.tenantId,
      now,
      now,
    ],
  );
  return liveEventOf(rows[0]!, 'raised', input.at);
}

/** Ends the open warning of a device and rule (1 → 3, 2 → 4); nothing when none is open. */
export async function clearWarning(
  client: Query,
  key: { tenantId: string; deviceCode: string; ruleKey: string },
  at: Date,
  now: Date,
): Promise<WarningLiveEvent[]> {
  const { rows } = await client.query<EventRow>(
    `update mes_warning
        set status = case when status = 1 then 3 else 4 end, end_time = $4, clear_time = $5, update_time = $5
      where ${rawTenantRows(1)} and device_code = $2 and rule_key = $3 and status in (1, 2)
      ${RETURNING}`,
    [key.tenantId, key.deviceCode, key.ruleKey, at, now],
  );
  return rows.map((row) => liveEventOf(row, 'cleared', at));
}

/** Ends the open offline warnings of devices that came back online. */
export async function clearOfflineWarnings(
  client: Query,
  devices: readonly { tenantId: string; deviceCode: string; at: Date }[],
  now: Date,
): Promise<WarningLiveEvent[]> {
  if (!devices.length) return [];
  const { rows } = await client.query<EventRow & { at: Date }>(
    `update mes_warning w
        set status = case when w.status = 1 then 3 else 4 end, end_time = v.at, clear_time = $4, update_time = $4
       from unnest($1::varchar[], $2::varchar[], $3::timestamptz[]) as v(tenant_id, device_code, at)
      where w.tenant_id = v.tenant_id and w.device_code = v.device_code and w.warning_type = 'offline'
        and w.is_deleted = 0 and w.status in (1, 2)
      returning w.id::text, w.warning_no, w.tenant_id, w.dept_id::text, w.device_code, w.level, w.status, w.message, v.at`,
    [devices.map((d) => d.tenantId), devices.map((d) => d.deviceCode), devices.map((d) => d.at), now],
  );
  return rows.map((row) => liveEventOf(row, 'cleared', new Date(row.at)));
}

/**
 * Offline warnings of devices offline longer than an `offline` rule of their product allows
 * (inactivity sweep, once a minute across processes): a device with the rule's warning open gets
 * nothing; one whose warning cleared unhandled within {@link REOPEN_MINUTES} gets it re-opened.
 */
export async function raiseOfflineWarnings(client: Query, now: Date): Promise<WarningLiveEvent[]> {
  const { rows: due } = await client.query<{
    tenant_id: string;
    device_code: string;
    device_id: string;
    dept_id: string | null;
    device_name: string;
    rule_id: string;
    level: number;
    duration_seconds: number;
    since: Date;
  }>(
    `select d.tenant_id, d.device_code, d.id::text as device_id, d.dept_id::text as dept_id, d.device_name,
            r.id::text as rule_id, r.level, r.duration_seconds,
            coalesce(d.last_disconnect_time, d.last_activity_time, d.last_connect_time) as since
       from mes_device d
       join mes_product_alarm_rule r
         on r.tenant_id = d.tenant_id and r.product_id = d.product_id and r.rule_type = 'offline'
        and r.is_deleted = 0 and r.status = 1
      where not d.online and d.is_deleted = 0 and d.status = 1
        and coalesce(d.last_disconnect_time, d.last_activity_time, d.last_connect_time) is not null
        and coalesce(d.last_disconnect_time, d.last_activity_time, d.last_connect_time)
            <= $1::timestamptz - make_interval(secs => r.duration_seconds)
        and not exists (select 1 from mes_warning w
                         where w.tenant_id = d.tenant_id and w.device_code = d.device_code
                           and w.rule_key = 'offline:' || r.id and w.is_deleted = 0 and w.status in (1, 2))
      order by d.tenant_id, d.device_code`,
    [now],
  );
  const events: WarningLiveEvent[] = [];
  for (const row of due) {
    const minutes = Math.round(row.duration_seconds / 6) / 10;
    events.push(
      await raiseWarning(
        client,
        {
          tenantId: row.tenant_id,
          deviceCode: row.device_code,
          deviceId: row.device_id,
          deptId: row.dept_id,
          ruleKey: `offline:${row.rule_id}`,
          warningType: 'offline',
          level: Math.min(4, Math.max(1, row.level)),
          field: '',
          triggerValue: '',
          threshold: String(row.duration_seconds),
          message: `设备「${row.device_name}」(${row.device_code})离线已超过 ${row.duration_seconds >= 60 ? `${minutes} 分钟` : `${row.duration_seconds} 秒`}`,
          at: new Date(row.since),
        },
        now,
      ),
    );
  }
  return events;
}

/** The rule keys with an open warning (status 1 or 2), per device, for a process that starts evaluating them. */
export async function openRuleKeys(
  db: Query,
  devices: readonly { tenantId: string; deviceCode: string }[],
): Promise<{ tenant_id: string; device_code: string; rule_key: string }[]> {
  if (!devices.length) return [];
  const { rows } = await db.query<{ tenant_id: string; device_code: string; rule_key: string }>(
    `select w.tenant_id, w.device_code, w.rule_key
       from unnest($1::varchar[], $2::varchar[]) as k(tenant_id, device_code)
       join mes_warning w on w.tenant_id = k.tenant_id and w.device_code = k.device_code
      where w.is_deleted = 0 and w.status in (1, 2)`,
    [devices.map((d) => d.tenantId), devices.map((d) => d.deviceCode)],
  );
  return rows;
}
