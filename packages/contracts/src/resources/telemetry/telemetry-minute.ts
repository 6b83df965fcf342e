import { defineResource } from '../../resource/define';
import { deviceCodeField, telemetrySeries } from './telemetry-common';

/**
 * Per-minute rollup of numeric telemetry: count, sum, min and max of each device's field in each
 * UTC minute, upserted by ingestion in the same transaction as the raw points (so it is exact,
 * late points included). `iot/model-list` reads buckets of a minute or more from here instead of
 * aggregating every raw point: a day at 1 Hz is 86,400 raw rows but 1,440 rollup rows.
 */
export const telemetryMinuteResource = defineResource({
  code: 'iot_minute',
  title: { zh: '分钟汇总', en: 'Per-minute rollup' },
  table: 'mes_telemetry_minute',
  api: '/blade-business/iot-minute',
  owner: 'tenant',
  audit: false,
  // No generic route: `iot/model-list` reads it.
  operations: [],
  fields: {
    deviceCode: deviceCodeField(false),
    field: { kind: 'string', label: { zh: '字段', en: 'Field' }, max: 64 },
    minute: { kind: 'datetime', label: { zh: '分钟', en: 'Minute' } },
    points: { kind: 'int', label: { zh: '点数', en: 'Points' } },
    total: { kind: 'decimal', label: { zh: '合计', en: 'Sum' }, precision: 30, scale: 6 },
    low: { kind: 'decimal', label: { zh: '最小值', en: 'Minimum' }, precision: 24, scale: 6 },
    high: { kind: 'decimal', label: { zh: '最大值', en: 'Maximum' }, precision: 24, scale: 6 },
  },
  indexes: [
    {
      name: 'mes_telemetry_minute_key_uq',
      fields: ['tenantId', 'deviceCode', 'field', 'minute'],
      unique: true,
    },
  ],
  series: telemetrySeries('minute', 'month'),
});
