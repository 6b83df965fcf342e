import { MqttDirection } from '@mes/contracts';
import { nextId, nextIdBlock } from '../../platform/db/ids';
import { valuesJson, type AcquisitionRow, type LogRow } from './batch-rows';
import type { TelemetryRow } from './telemetry-row';

/** A parameterised statement as `pg`'s `query` takes it. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** One column of a batch insert: its name, its PostgreSQL type, and its value in a row. */
type Column<R> = readonly [name: string, type: string, value: (row: R) => unknown];

/**
 * `insert into <table> (…) select * from unnest($1::t[], …)`: a batch as one array parameter per
 * column, so the statement's text (and its plan) is the same for 1 row or 2,000.
 */
function unnestInsert<R>(table: string, columns: readonly Column<R>[], rows: readonly R[], suffix = ''): Statement {
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  return {
    text: `insert into ${table} (${names}) select * from unnest(${arrays})${suffix}`,
    values: columns.map(([, , value]) => rows.map(value)),
  };
}

/**
 * One acquisition-data row per report: the one place a message's values are stored. Its id
 * starts a block of one id per value, the ids of its points in the `mes_telemetry` view.
 */
export const acquisitionInsert = (rows: readonly AcquisitionRow[]) =>
  unnestInsert(
    'mes_acqdata',
    [
      ['id', 'bigint', (r) => nextIdBlock(Object.keys(r.values).length)],
      ['tenant_id', 'varchar', (r) => r.tenantId],
      ['device_code', 'varchar', (r) => r.deviceCode],
      ['gateway', 'varchar', (r) => r.gateway],
      ['group_id', 'varchar', (r) => r.groupId],
      ['collect_time', 'timestamptz', (r) => r.collectTime],
      ['data_values', 'jsonb', (r) => valuesJson(r.values)],
      ['errors', 'varchar', (r) => r.errors],
      ['topic', 'varchar', (r) => r.topic],
      ['protocol', 'varchar', (r) => r.protocol],
      ['seq', 'int', (r) => r.seq],
      ['client_id', 'varchar', (r) => r.message?.clientId ?? null],
      ['qos', 'int', (r) => r.message?.qos ?? null],
      ['retain', 'boolean', (r) => r.message?.retain ?? null],
      ['receive_time', 'timestamptz', (r) => r.message?.receivedAt ?? null],
    ],
    rows,
  );

/**
 * Points as acquisition rows of one value each: what a `mes_telemetry` row was before the series
 * became a view (bench/ingest-bench.ts's bare comparison; ingestion writes whole reports).
 */
export const telemetryInsert = (rows: readonly TelemetryRow[]) =>
  acquisitionInsert(
    rows.map((r) => ({
      tenantId: r.tenantId,
      deviceCode: r.deviceCode,
      gateway: '',
      groupId: '',
      collectTime: r.ts,
      values: { [r.field]: r.num !== null ? r.num : { text: r.text ?? '' } },
      errors: null,
      topic: '',
      protocol: 'json',
      seq: null,
    })),
  );

/** One MQTT message-log row per received message that is not stored as acquisition data. */
export const messageLogInsert = (rows: readonly LogRow[]) =>
  unnestInsert(
    'mes_mqtt_log',
    [
      ['id', 'bigint', () => nextId()],
      ['tenant_id', 'varchar', (r) => r.tenantId],
      ['topic', 'varchar', (r) => r.topic],
      ['client_id', 'varchar', (r) => r.clientId],
      ['qos', 'int', (r) => r.qos],
      ['retain', 'boolean', (r) => r.retain],
      ['direction', 'int', () => MqttDirection.inbound],
      ['payload', 'text', (r) => r.payload],
      ['device_code', 'varchar', (r) => r.deviceCode],
      ['parsed_ok', 'boolean', (r) => r.parsedOk],
      ['error', 'varchar', (r) => r.error],
      ['create_time', 'timestamptz', (r) => r.at],
    ],
    rows,
  );
