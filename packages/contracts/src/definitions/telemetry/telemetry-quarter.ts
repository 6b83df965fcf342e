import { defineResource } from '../../engine/define';
import { rollupKey, rollupMeasures, rollupTable, telemetrySeries } from './telemetry-common';

/**
 * Per-quarter-hour rollup of numeric telemetry: the same count, sum, min and max as the per-minute
 * rollup (`mes_telemetry_minute`), per UTC quarter hour, upserted by ingestion in the same
 * transaction right after the minutes. `iot/model-list` reads buckets of 15 minutes or more from
 * here: every round bucket width from 15 minutes up is a multiple of 15 minutes, and a quarter row
 * stands for 15 minute rows (a 30-day chart: 2,880 rows instead of 43,200). Not hourly: the widths
 * between 15 minutes and an hour (30 min: 7 to 41 days at 1,000 points) would not be served.
 */
export const telemetryQuarterResource = defineResource({
  code: 'iot_quarter',
  title: { zh: '十五分钟汇总', en: 'Per-quarter-hour rollup' },
  table: 'mes_telemetry_quarter',
  api: '/blade-business/iot-quarter',
  ...rollupTable,
  fields: {
    ...rollupKey,
    quarter: { kind: 'datetime', label: { zh: '十五分钟', en: 'Quarter hour' } },
    ...rollupMeasures,
  },
  indexes: [
    {
      name: 'mes_telemetry_quarter_key_uq',
      fields: ['tenantId', 'deviceCode', 'field', 'quarter'],
      unique: true,
    },
  ],
  series: telemetrySeries('quarter', 'month'),
});
