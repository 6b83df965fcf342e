import { defineResource } from '../../engine/define';
import { remarkField } from '../common-fields';
import { deptResource } from '../system/dept';
import { productResource } from './product';

/** The API path of the secret rotation (`POST ?id=`): the reply carries the new secret once. */
export const DEVICE_ROTATE_SECRET_PATH = '/basic/device/rotate-secret';

/** What `rotate-secret` answers: shown once, never stored in clear. */
export interface DeviceSecretReply {
  deviceCode: string;
  tenantId: string;
  clientId: string;
  secret: string;
  /** `mes/{tenantId}/{deviceCode}`: the device publishes under this prefix only. */
  topicPrefix: string;
}

/** `status` of a device: a disabled device cannot sign in to MQTT and its telemetry is refused. */
export const DeviceStatus = { enabled: 1, disabled: 0 } as const;

const readonlyTime = (zh: string, en: string) =>
  ({ kind: 'datetime', label: { zh, en }, form: 'readonly', nullable: true, width: 160 }) as const;

/**
 * A device: one disinfector or steriliser in a clinic, keyed by `deviceCode` in every telemetry
 * topic. It proves itself to the broker with `mqttClientId` (generated, unique across tenants) and a
 * secret of which only the SHA-256 is kept (docs/devices.md).
 */
export const deviceResource = defineResource({
  // Not `device`: that is the menu group's code.
  code: 'device_info',
  title: { zh: '设备管理', en: 'Devices' },
  table: 'mes_device',
  api: '/basic/device',
  owner: 'tenant',
  // A device belongs to its department: lists, details and the IoT calls follow the data scope.
  dataScope: { deptColumn: 'dept_id' },
  dialogWidth: 880,
  menu: {
    group: 'device',
    sort: 2,
    icon: 'control',
    path: '/device/device',
    buttons: [{ action: 'secret', name: { zh: '密钥', en: 'MQTT secret' } }],
    scopes: [{ action: 'secret', name: '设备密钥', path: `/api${DEVICE_ROTATE_SECRET_PATH}` }],
  },
  fields: {
    deviceCode: {
      kind: 'string',
      label: { zh: '设备编号', en: 'Device code' },
      max: 64,
      required: true,
      search: true,
      sort: true,
      // A topic level: no '/', '+', '#' or spaces.
      pattern: {
        regex: '^[A-Za-z0-9_-]{1,64}$',
        message: { zh: '设备编号只能包含字母、数字、_ 和 -', en: 'Letters, digits, _ and - only' },
      },
      width: 140,
    },
    deviceName: { kind: 'string', label: { zh: '设备名称', en: 'Name' }, max: 64, required: true, search: true },
    productId: {
      kind: 'reference',
      label: { zh: '产品', en: 'Product' },
      required: true,
      search: true,
      reference: { to: () => productResource, label: 'productName' },
      width: 140,
    },
    // At 1440 px the run state, status and presence stay beside the action column: the department,
    // chairs, dates and times (`listPriority: 'low'`) show from 1600 px, and always in the view.
    deptId: {
      kind: 'reference',
      label: { zh: '所属机构', en: 'Department' },
      search: true,
      // A device stands in a clinic (node, category 5) or a disinfection base (4): dictionary org_category.
      reference: { to: () => deptResource, label: 'deptName', where: { field: 'deptCategory', in: [4, 5] } },
      width: 140,
      listPriority: 'low',
    },
    chairs: {
      kind: 'int',
      label: { zh: '服务牙椅数', en: 'Chairs served' },
      range: [0, 999],
      default: 0,
      width: 100,
      listPriority: 'low',
    },
    installDate: {
      kind: 'date',
      label: { zh: '安装日期', en: 'Installed on' },
      nullable: true,
      width: 110,
      listPriority: 'low',
    },
    location: { kind: 'string', label: { zh: '安装位置', en: 'Location' }, max: 128, list: false },
    serialNo: { kind: 'string', label: { zh: '出厂序列号', en: 'Serial no.' }, max: 64, search: true, list: false },
    firmware: { kind: 'string', label: { zh: '固件版本', en: 'Firmware' }, max: 32, list: false },
    // Derived from the device's data by its product's rules (docs/devices.md "Run state"); only
    // maintenance is set by hand, through `maintenance`.
    runState: {
      kind: 'int',
      label: { zh: '运行状态', en: 'Run state' },
      default: 1,
      range: [1, 4],
      options: { dict: 'device_run_state' },
      form: 'readonly',
      search: true,
      width: 100,
    },
    maintenance: {
      kind: 'boolean',
      label: { zh: '维护中', en: 'Under maintenance' },
      default: false,
      list: false,
    },
    status: {
      kind: 'int',
      label: { zh: '状态', en: 'Status' },
      range: [0, 1],
      default: DeviceStatus.enabled,
      options: {
        items: [
          { value: DeviceStatus.enabled, label: { zh: '启用', en: 'Enabled' } },
          { value: DeviceStatus.disabled, label: { zh: '停用', en: 'Disabled' } },
        ],
      },
      search: true,
      width: 80,
    },
    online: { kind: 'boolean', label: { zh: '在线', en: 'Online' }, form: 'readonly', search: true, width: 80 },
    lastConnectTime: { ...readonlyTime('最近上线', 'Last connect'), listPriority: 'low' },
    lastDisconnectTime: { ...readonlyTime('最近离线', 'Last disconnect'), list: false },
    lastActivityTime: { ...readonlyTime('最近活动', 'Last activity'), listPriority: 'low' },
    mqttClientId: {
      kind: 'string',
      label: { zh: 'MQTT 客户端 ID', en: 'MQTT client id' },
      max: 64,
      form: 'readonly',
      list: false,
    },
    // SHA-256 (hex) of the current secret; '' until the first rotation. Written by the module only.
    mqttSecretHash: { kind: 'secret', label: { zh: 'MQTT 密钥', en: 'MQTT secret' }, max: 64, form: false },
    remark: remarkField(),
  },
  indexes: [
    {
      fields: ['tenantId', 'deviceCode'],
      unique: true,
      message: { zh: '设备编号已存在', en: 'The device code exists' },
    },
    // The broker authenticates by client id alone, before it knows the tenant.
    {
      fields: ['mqttClientId'],
      unique: true,
      message: { zh: 'MQTT 客户端 ID 已存在', en: 'The MQTT client id exists' },
    },
    // Removing a product looks for its devices.
    { fields: ['tenantId', 'productId'] },
  ],
  defaultSort: [{ field: 'deviceCode' }],
});
