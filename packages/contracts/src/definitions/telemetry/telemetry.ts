import { defineResource, type FieldDef } from '../../engine/define';
import { deviceCodeField, telemetrySeries } from './telemetry-common';

/** `quality` of a telemetry point (OPC-style good / bad). */
export const TelemetryQuality = { good: 0, bad: 1 } as const;

/**
 * One value of one model field of one device at one time, as ingestion stored it after scaling
 * (docs/mqtt.md). Not a table: `mes_telemetry` is a view over the acquisition data
 * (`mes_acqdata`, one row per message) with each row's values unnested, so a message is stored
 * once (docs/mqtt.md "Stored once"). A point's id is its message's id plus its position among
 * the message's values (ingestion gives each message a block of consecutive ids).
 */
export const telemetryResource = defineResource({
  code: 'iot',
  title: { zh: '物联网数据', en: 'IoT data' },
  table: 'mes_telemetry',
  api: '/blade-business/iot',
  menu: { group: 'device', sort: 10, icon: 'line-chart', nameEn: 'IoT data' },
  owner: 'tenant',
  audit: false,
  // Spec section 7: page and detail; model-data and model-list are the device module's own routes.
  operations: ['page', 'detail'],
  listRoute: 'page',
  fields: {
    deviceCode: deviceCodeField(),
    field: { kind: 'string', label: { zh: '字段', en: 'Field' }, max: 64, search: true, width: 120 },
    ts: { kind: 'datetime', label: { zh: '采集时间', en: 'Time' }, sort: true, width: 170 },
    numValue: {
      kind: 'decimal',
      label: { zh: '数值', en: 'Value' },
      precision: 24,
      scale: 6,
      nullable: true,
      width: 120,
    },
    textValue: { kind: 'string', label: { zh: '文本值', en: 'Text value' }, max: 255, nullable: true, width: 140 },
    quality: {
      kind: 'int',
      label: { zh: '质量', en: 'Quality' },
      width: 80,
      options: {
        items: [
          { value: TelemetryQuality.good, label: { zh: '正常', en: 'Good' } },
          { value: TelemetryQuality.bad, label: { zh: '异常', en: 'Bad' } },
        ],
      },
    },
  },
  defaultSort: [{ field: 'ts', desc: true }],
  // Ranged, paged and totalled like a series; partitions and retention are the acquisition data's.
  series: { ...telemetrySeries('ts', 'day'), viewOf: 'acqdata' },
});

/**
 * One entry of {@link deviceLatestResource}'s `latest`: the newest value of a field and its time
 * (epoch milliseconds). `v` is a number for numeric, boolean and enum values (the decimal text
 * ingestion stored, as a JSON number), a string for text; `q` only when the quality is not good.
 */
export interface LatestEntry {
  ts: number;
  v: number | string;
  q?: number;
}

/**
 * The newest value of every field of a device (`iot/model-data`): one row per tenant and device,
 * `latest` keyed by field ({@link LatestEntry}). Ingestion merges each batch into it in one
 * statement, field by field, where the incoming point is not older than the stored one. Not a
 * screen of its own.
 */
export const deviceLatestResource = defineResource({
  code: 'iot_device_latest',
  title: { zh: '最新数据', en: 'Latest values' },
  table: 'mes_device_latest',
  api: '/blade-business/iot-device-latest',
  owner: 'tenant',
  // Audit columns kept: the engine's unique indexes are partial on `is_deleted = 0`, and the
  // merge names that index as its conflict target. No generic route: `iot/model-data` reads it.
  operations: [],
  fields: {
    deviceCode: deviceCodeField(false),
    latest: {
      kind: 'json',
      label: { zh: '最新值', en: 'Latest values' },
      schema: { type: 'object' },
      max: 1_000_000,
    },
  },
  indexes: [{ name: 'mes_device_latest_key_uq', fields: ['tenantId', 'deviceCode'], unique: true }],
});

/** `direction` of a logged MQTT message. */
export const MqttDirection = { inbound: 0, outbound: 1 } as const;

/** The columns of a logged MQTT message (the message log and the list over it and acquisition data). */
const mqttMessageFields = {
  topic: { kind: 'string', label: { zh: '主题', en: 'Topic' }, max: 255, search: true, width: 260 },
  clientId: { kind: 'string', label: { zh: '客户端', en: 'Client id' }, max: 128, search: true, width: 140 },
  qos: { kind: 'int', label: { zh: 'QoS', en: 'QoS' }, width: 60 },
  retain: { kind: 'boolean', label: { zh: '保留', en: 'Retain' }, width: 60 },
  direction: {
    kind: 'int',
    label: { zh: '方向', en: 'Direction' },
    width: 80,
    options: {
      items: [
        { value: MqttDirection.inbound, label: { zh: '上行', en: 'Inbound' } },
        { value: MqttDirection.outbound, label: { zh: '下行', en: 'Outbound' } },
      ],
    },
  },
  payload: { kind: 'text', label: { zh: '内容', en: 'Payload' }, list: false, display: 'json', wide: true },
  deviceCode: deviceCodeField(),
  parsedOk: {
    kind: 'boolean',
    label: { zh: '解析成功', en: 'Parsed' },
    search: true,
    width: 90,
  },
  // Searchable: "dead letter" / "死信" finds the messages set aside (docs/mqtt.md "Retry or dead letter").
  error: { kind: 'string', label: { zh: '错误', en: 'Error' }, max: 500, nullable: true, width: 200, search: true },
  createTime: { kind: 'datetime', label: { zh: '接收时间', en: 'Received at' }, sort: true, width: 170 },
} as const satisfies Record<string, FieldDef>;

/**
 * Newest first, and the id downwards within one instant: each part of the `mes_mqtt_message`
 * union then gives its rows in that order from one backward index scan, and PostgreSQL merges
 * the parts' first rows instead of sorting the whole range (335 ms against a few for a page of a
 * day of 100,000 messages, docs/series.md).
 */
const MQTT_LIST_ORDER = [
  { field: 'createTime', desc: true },
  { field: 'id', desc: true },
] as const;

/**
 * The MQTT message log's own rows (docs/mqtt.md "Stored once"): every received message that was
 * not stored as acquisition data — status and cycle reports, Sparkplug births and deaths,
 * refused, duplicate and dead-lettered messages. Written by ingestion; read through
 * `mqttMessageResource`. No generic route.
 */
export const mqttLogResource = defineResource({
  code: 'mqtt_log',
  title: { zh: 'MQTT消息日志', en: 'MQTT message log' },
  table: 'mes_mqtt_log',
  api: '/blade-business/mqtt-log',
  owner: 'tenant',
  audit: false,
  operations: [],
  fields: mqttMessageFields,
  // The names the table had as `mes_mqtt_message` (migration 0027 renamed it).
  // The names the table had as `mes_mqtt_message`; the id closes each so that the list's order
  // (newest first, then the id downwards) is one backward scan of a part of the union.
  indexes: [
    { name: 'mes_mqtt_message_tenant_time_idx', fields: ['tenantId', 'createTime', 'id'] },
    { name: 'mes_mqtt_message_time_idx', fields: ['createTime', 'id'] },
  ],
  defaultSort: MQTT_LIST_ORDER,
  series: telemetrySeries('createTime', 'day'),
});

/**
 * Every MQTT message ingestion received, parsed or not, with why it was refused: a view
 * (`mes_mqtt_message`) over the message log's own rows and the acquisition data rows that stand
 * for a stored message, whose payload is rebuilt from the stored values, `ts` and `seq`.
 */
export const mqttMessageResource = defineResource({
  code: 'mqtt',
  title: { zh: 'MQTT消息', en: 'MQTT messages' },
  table: 'mes_mqtt_message',
  api: '/blade-business/mqtt',
  menu: { group: 'report', sort: 20, icon: 'message', nameEn: 'MQTT messages' },
  owner: 'tenant',
  audit: false,
  operations: ['page', 'detail'],
  listRoute: 'page',
  fields: mqttMessageFields,
  defaultSort: MQTT_LIST_ORDER,
  series: { ...telemetrySeries('createTime', 'day'), viewOf: 'mqtt_log' },
});

/** Why a device went offline. */
export const OnOffReason = { normal: 'normal', lastWill: 'last-will', inactivity: 'inactivity' } as const;

/** Connection periods of devices: a row when one starts (online) and it is closed when the device goes offline. */
export const onOffResource = defineResource({
  code: 'onoff',
  title: { zh: '开关机记录', en: 'On/off records' },
  table: 'mes_onoff',
  api: '/blade-business/onoff',
  // The spec's call is `onoff/page`; our screen reads `onoff/list`.
  listAlias: 'page',
  menu: { group: 'business', sort: 20, icon: 'thunderbolt', nameEn: 'On/off records' },
  owner: 'tenant',
  audit: false,
  operations: ['list', 'detail'],
  fields: {
    deviceCode: deviceCodeField(),
    event: {
      kind: 'string',
      label: { zh: '事件', en: 'Event' },
      max: 16,
      search: true,
      width: 90,
      options: {
        items: [
          { value: 'online', label: { zh: '上线', en: 'Online' } },
          { value: 'offline', label: { zh: '离线', en: 'Offline' } },
        ],
      },
    },
    onTime: { kind: 'datetime', label: { zh: '上线时间', en: 'On time' }, nullable: true, width: 170 },
    offTime: { kind: 'datetime', label: { zh: '离线时间', en: 'Off time' }, nullable: true, width: 170 },
    durationSeconds: { kind: 'int', label: { zh: '时长(秒)', en: 'Duration (s)' }, nullable: true, width: 100 },
    reason: {
      kind: 'string',
      label: { zh: '原因', en: 'Reason' },
      max: 16,
      search: true,
      width: 100,
      options: {
        items: [
          { value: OnOffReason.normal, label: { zh: '正常', en: 'Normal' } },
          { value: OnOffReason.lastWill, label: { zh: '遗嘱', en: 'Last will' } },
          { value: OnOffReason.inactivity, label: { zh: '超时', en: 'Inactivity' } },
        ],
      },
    },
    createTime: { kind: 'datetime', label: { zh: '记录时间', en: 'Recorded at' }, sort: true, width: 170 },
  },
  indexes: [
    { name: 'mes_onoff_tenant_time_idx', fields: ['tenantId', 'createTime'] },
    { name: 'mes_onoff_time_idx', fields: ['createTime'] },
  ],
  defaultSort: [{ field: 'createTime', desc: true }],
  series: telemetrySeries('createTime', 'month'),
});
