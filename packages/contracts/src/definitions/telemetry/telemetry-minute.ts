import { defineResource } from '../../engine/define';
import { rollupKey, rollupMeasures, rollupTable, telemetrySeries } from './telemetry-common';

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
  ...rollupTable,
  fields: {
    ...rollupKey,
    minute: { kind: 'datetime', label: { zh: '分钟', en: 'Minute' } },
    ...rollupMeasures,
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
