/**
 * One value of one field of a device at one instant, as ingestion reads it from a report: the
 * shape the rollups, the latest values and the batch's statements all take. A leaf file, so that
 * the batch reader and the rollups it feeds need not import each other.
 */
export interface TelemetryRow {
  tenantId: string;
  deviceCode: string;
  field: string;
  ts: Date;
  num: string | null;
  text: string | null;
}
