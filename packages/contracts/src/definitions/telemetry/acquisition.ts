import { defineResource } from '../../engine/define';
import { deviceCodeField, telemetrySeries } from './telemetry-common';

/** `protocol` of an acquisition report: plain JSON telemetry or Sparkplug B. */
export const AcquisitionProtocol = { json: 'json', sparkplug: 'sparkplug' } as const;

/**
 * One row per report a device sent (docs/mqtt.md "Acquisition data"): a JSON telemetry message,
 * or a Sparkplug B birth or data message, with the values ingestion stored from it (after
 * checking and scaling) and the fields it refused. Written by ingestion in the same transaction
 * as the telemetry; read newest first.
 */
export const acquisitionResource = defineResource({
  code: 'acqdata',
  title: { zh: '采集数据', en: 'Acquisition data' },
  table: 'mes_acqdata',
  api: '/report/acqdata',
  menu: { group: 'report', sort: 10, icon: 'database', nameEn: 'Acquisition data' },
  owner: 'tenant',
  audit: false,
  operations: ['list', 'detail'],
  fields: {
    deviceCode: deviceCodeField(),
    // Sparkplug: the edge node the report came through; JSON: empty.
    gateway: {
      kind: 'string',
      label: { zh: '网关/边缘节点', en: 'Gateway / edge node' },
      max: 64,
      search: true,
      width: 140,
    },
    // Sparkplug: the group id (the tenant id); JSON: empty.
    groupId: { kind: 'string', label: { zh: '分组', en: 'Group' }, max: 64, width: 100 },
    collectTime: { kind: 'datetime', label: { zh: '采集时间', en: 'Collected at' }, sort: true, width: 170 },
    dataValues: {
      kind: 'json',
      label: { zh: '采集值', en: 'Values' },
      schema: { type: 'object' },
      nullable: true,
    },
    errors: { kind: 'string', label: { zh: '错误', en: 'Errors' }, max: 500, nullable: true, width: 200 },
    topic: { kind: 'string', label: { zh: '主题', en: 'Topic' }, max: 255, width: 260 },
    protocol: {
      kind: 'string',
      label: { zh: '协议', en: 'Protocol' },
      max: 16,
      search: true,
      width: 100,
      options: {
        items: [
          { value: AcquisitionProtocol.json, label: { zh: 'JSON', en: 'JSON' } },
          { value: AcquisitionProtocol.sparkplug, label: { zh: 'Sparkplug B', en: 'Sparkplug B' } },
        ],
      },
    },
    // Sparkplug: the payload's seq (0–255); JSON: the payload's `seq` when it carries one.
    seq: { kind: 'int', label: { zh: '序号', en: 'Sequence no.' }, nullable: true, width: 80 },
    // The MQTT message the report came in (docs/mqtt.md "Stored once"): set on the row that stands
    // for the whole message in the message log; empty on rows migrated from before, and on the
    // extra rows of a Sparkplug message whose metrics carry other times (that message keeps a
    // log row of its own).
    clientId: { kind: 'string', label: { zh: '客户端', en: 'Client id' }, max: 128, nullable: true, list: false },
    qos: { kind: 'int', label: { zh: 'QoS', en: 'QoS' }, nullable: true, list: false },
    retain: { kind: 'boolean', label: { zh: '保留', en: 'Retain' }, nullable: true, list: false },
    receiveTime: { kind: 'datetime', label: { zh: '接收时间', en: 'Received at' }, nullable: true, list: false },
  },
  indexes: [
    { name: 'mes_acqdata_device_time_idx', fields: ['tenantId', 'deviceCode', 'collectTime'] },
    { name: 'mes_acqdata_tenant_time_idx', fields: ['tenantId', 'collectTime'] },
    // The MQTT message list's newest first (the `mes_mqtt_message` view).
    { name: 'mes_acqdata_tenant_receive_idx', fields: ['tenantId', 'receiveTime', 'id'] },
    // No index leads with a time: each cost ingestion ~1 µs of PostgreSQL's CPU a message, and no
    // read needs one, since every list of these rows is one tenant's (the definition does not set
    // `platformSeesAllTenants`) and the points-estimate sample reads the primary key
    // (docs/ingest-performance.md "Indexes of `mes_acqdata`").
  ],
  defaultSort: [{ field: 'collectTime', desc: true }],
  series: telemetrySeries('collectTime', 'day'),
});

/**
 * The current Sparkplug B birth of each edge node and device (docs/mqtt.md "Sparkplug B"): the
 * metric aliases and types data messages are read against, and the node's bdSeq. Kept by
 * ingestion in its batch transactions so that every server process, and a restarted one, reads
 * data and deaths against the same births. Tenant = the Sparkplug group; `deviceId` is empty for
 * the node's own birth. Not a screen of its own.
 */
export const sparkplugBirthResource = defineResource({
  code: 'sparkplug_birth',
  title: { zh: 'Sparkplug 出生证书', en: 'Sparkplug births' },
  table: 'mes_sparkplug_birth',
  api: '/report/sparkplug-birth',
  owner: 'tenant',
  // Audit columns kept: the upsert names the engine's unique index, partial on `is_deleted = 0`.
  operations: [],
  fields: {
    edgeNode: { kind: 'string', label: { zh: '边缘节点', en: 'Edge node' }, max: 64 },
    deviceId: { kind: 'string', label: { zh: '设备', en: 'Device' }, max: 64 },
    bdSeq: { kind: 'int', label: { zh: 'bdSeq', en: 'bdSeq' }, nullable: true },
    // [{name, alias?, type?}] of every named metric of the birth.
    metrics: {
      kind: 'json',
      label: { zh: '指标', en: 'Metrics' },
      schema: { type: 'array' },
      max: 1_000_000,
      nullable: true,
    },
    bornAt: { kind: 'datetime', label: { zh: '出生时间', en: 'Born at' } },
  },
  indexes: [{ name: 'mes_sparkplug_birth_key_uq', fields: ['tenantId', 'edgeNode', 'deviceId'], unique: true }],
});
