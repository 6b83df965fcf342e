import type { FieldDef, SeriesDef } from '../../engine/define';

/** Parameter holding how many days telemetry, the MQTT message log and on/off records are kept. */
export const TELEMETRY_RETENTION_PARAM = 'telemetry.retentionDays';
export const DEFAULT_TELEMETRY_RETENTION_DAYS = 90;

/** A device-data series: partitioned by `time`, kept {@link TELEMETRY_RETENTION_PARAM} days. */
export const telemetrySeries = (time: string, partition: SeriesDef['partition']): SeriesDef => ({
  time,
  partition,
  retention: { param: TELEMETRY_RETENTION_PARAM, days: DEFAULT_TELEMETRY_RETENTION_DAYS },
});

/** The device a row of device data is about; `listed`: a searchable list column too. */
export const deviceCodeField = (listed = true) =>
  ({
    kind: 'string',
    label: { zh: '设备编号', en: 'Device code' },
    max: 64,
    ...(listed ? { search: true, width: 140 } : {}),
  }) as const satisfies FieldDef;

/**
 * A rollup level's table: tenant-owned, written by ingestion only, with no generic route
 * (`iot/model-list` reads it), keyed by device, field and period.
 */
export const rollupTable = { owner: 'tenant', audit: false, operations: [] } as const;
export const rollupKey = {
  deviceCode: deviceCodeField(false),
  field: { kind: 'string', label: { zh: '字段', en: 'Field' }, max: 64 },
} as const satisfies Record<string, FieldDef>;

/**
 * What a rollup level (`mes_telemetry_minute`, `mes_telemetry_quarter`) keeps of a device's field
 * in each period: how many points, their exact sum, minimum and maximum.
 */
export const rollupMeasures = {
  points: { kind: 'int', label: { zh: '点数', en: 'Points' } },
  total: { kind: 'decimal', label: { zh: '合计', en: 'Sum' }, precision: 30, scale: 6 },
  low: { kind: 'decimal', label: { zh: '最小值', en: 'Minimum' }, precision: 24, scale: 6 },
  high: { kind: 'decimal', label: { zh: '最大值', en: 'Maximum' }, precision: 24, scale: 6 },
} as const satisfies Record<string, FieldDef>;
