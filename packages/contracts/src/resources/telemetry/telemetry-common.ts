import type { FieldDef, SeriesDef } from '../../resource/define';

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
