import { defineResource } from '../../resource/define';
import { deviceCodeField, telemetrySeries } from './telemetry-common';

/** `quality` of a telemetry point (OPC-style good / bad). */
export const TelemetryQuality = { good: 0, bad: 1 } as const;

/**
 * One value of one model field of one device at one time, as ingestion stored it after scaling
 * (docs/mqtt.md). Written only by ingestion, in batches; read newest first per device and field.
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
  indexes: [
    { name: 'mes_telemetry_device_field_ts_idx', fields: ['tenantId', 'deviceCode', 'field', 'ts'] },
    { name: 'mes_telemetry_tenant_ts_idx', fields: ['tenantId', 'ts'] },
    { name: 'mes_telemetry_ts_idx', fields: ['ts'] },
  ],
  defaultSort: [{ field: 'ts', desc: true }],
  series: telemetrySeries('ts', 'day'),
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

/** Every MQTT message ingestion received, parsed or not, with why it was refused. */
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
  fields: {
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
  },
  indexes: [
    { name: 'mes_mqtt_message_tenant_time_idx', fields: ['tenantId', 'createTime'] },
    { name: 'mes_mqtt_message_time_idx', fields: ['createTime'] },
  ],
  defaultSort: [{ field: 'createTime', desc: true }],
  series: telemetrySeries('createTime', 'day'),
});

/** Why a device went offline. */
export const OnOffReason = { normal: 'normal', lastWill: 'last-will', inactivity: 'inactivity' } as const;

/** Connection periods of devices: a row when one starts (online) and it is closed when the device goes offline. */
export const onOffResource = defineResource({
  code: 'onoff',
  title: { zh: '开关机记录', en: 'On/off records' },
  table: 'mes_onoff',
  api: '/blade-business/onoff',
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
