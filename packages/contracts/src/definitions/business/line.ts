import { defineResource, type ResourceDef } from '../../engine/define';
import { remarkField, sortField } from '../common-fields';
import { deptResource } from '../system/dept';
import { userResource } from '../system/user';
import { barCodeField, baseField } from './logistics-fields';

/**
 * One stop of a line: a clinic node (department category 5) visited for pickup (1 回收) or
 * delivery (2 发放). The rows live in `blade_dept_line`, the link table that `dept/setLines`
 * has always written, so lines keep their stops across the upgrade. Not exported: a stop has no
 * screen and no routes of its own (it is edited inside its line), so it stays out of the
 * registry; the server finds its table in the schema by name.
 */
const lineStopResource = defineResource({
  code: 'line_stop',
  title: { zh: '线路站点', en: 'Line stops' },
  table: 'blade_dept_line',
  api: '/blade-business/line-stop',
  owner: 'tenant',
  operations: [],
  audit: false,
  fields: {
    lineId: { kind: 'id', label: { zh: '线路', en: 'Line' }, form: false, list: false },
    deptId: {
      kind: 'reference',
      label: { zh: '节点', en: 'Node' },
      required: true,
      reference: { to: () => deptResource, label: 'deptName' },
      // The clinic nodes, not the whole department tree.
      options: { url: '/blade-system/dept/getNodes', label: 'deptName', value: 'id' },
    },
    direction: {
      kind: 'int',
      label: { zh: '方向', en: 'Direction' },
      required: true,
      options: { dict: 'line_direction' },
      // The dictionary's two values; a dictionary is not a check, the range is.
      range: [1, 2],
      width: 100,
    },
    sort: { kind: 'int', label: { zh: '顺序', en: 'Order' }, form: false, default: 0 },
  },
});

// The car is defined here, beside the line, because each names the other (a line's default car,
// a car's line): in two files they would import each other. car.ts re-exports it.

/** `08:30` or `08:30,14:00`: the day's departures from the base. */
const DEPARTURES = '^([01]\\d|2[0-3]):[0-5]\\d(,([01]\\d|2[0-3]):[0-5]\\d)*$';

/**
 * A pickup / delivery line of a disinfection base (docs/organisation.md, docs/logistics.md): its
 * name, its base, its ordered stops, and the car, driver and schedule it usually runs with.
 */
export const lineResource = defineResource({
  code: 'line',
  title: { zh: '线路管理', en: 'Lines' },
  table: 'blade_line',
  api: '/blade-business/line',
  listRoute: 'page',
  owner: 'tenant',
  menu: {
    group: 'business',
    sort: 5,
    icon: 'node-index',
    nameEn: 'Lines',
    dictionaries: [
      {
        code: 'week_day',
        name: '星期',
        entries: [
          ['1', '星期一', 'Monday'],
          ['2', '星期二', 'Tuesday'],
          ['3', '星期三', 'Wednesday'],
          ['4', '星期四', 'Thursday'],
          ['5', '星期五', 'Friday'],
          ['6', '星期六', 'Saturday'],
          ['7', '星期日', 'Sunday'],
        ],
      },
    ],
  },
  dialogWidth: 880,
  fields: {
    name: { kind: 'string', label: { zh: '线路名称', en: 'Name' }, max: 64, required: true, search: true },
    base: baseField(false),
    defaultCar: {
      kind: 'reference',
      label: { zh: '默认车辆', en: 'Default car' },
      // The car is one of the line's own base; removing it leaves the line without a default.
      reference: {
        to: (): ResourceDef => carResource,
        label: 'name',
        onRemove: 'clear',
        matches: { field: 'base', targetField: 'base' },
      },
      width: 120,
    },
    driver: {
      kind: 'reference',
      label: { zh: '司机', en: 'Driver' },
      reference: { to: () => userResource, label: 'realName', onRemove: 'clear' },
      width: 100,
    },
    weekdays: {
      kind: 'string',
      label: { zh: '运行日', en: 'Runs on' },
      max: 13,
      control: 'multi-select',
      options: { dict: 'week_day' },
      pattern: {
        regex: '^[1-7](,[1-7])*$',
        message: { zh: '运行日应为星期一至星期日', en: 'Runs on Monday to Sunday only' },
      },
      width: 160,
    },
    departures: {
      kind: 'string',
      label: { zh: '发车时间', en: 'Departures' },
      max: 64,
      pattern: {
        regex: DEPARTURES,
        message: {
          zh: '发车时间格式应为 HH:mm,多个用逗号分隔,例如 08:30,14:00',
          en: 'Departures are HH:mm, comma-separated, e.g. 08:30,14:00',
        },
      },
      width: 120,
    },
    sort: sortField(),
    remark: remarkField(),
  },
  children: {
    stops: {
      resource: () => lineStopResource,
      parentField: 'lineId',
      orderField: 'sort',
      orderGroup: 'direction',
      label: { zh: '站点', en: 'Stops' },
      unique: {
        fields: ['direction', 'deptId'],
        message: {
          zh: '节点重复,同一节点在一条线路的同一方向上只能出现一次',
          en: 'A node appears once per direction of a line',
        },
      },
    },
  },
  indexes: [
    { fields: ['tenantId', 'name'], unique: true, message: { zh: '线路名称已存在', en: 'The line name exists' } },
  ],
  defaultSort: [{ field: 'sort' }],
});

/**
 * A car of a disinfection base that drives its lines (docs/logistics.md). Its base is a base
 * department (category 4) and its line, when it has one, a line of that same base.
 */
export const carResource = defineResource({
  code: 'car',
  title: { zh: '车辆管理', en: 'Cars' },
  table: 'blade_car',
  api: '/blade-business/car',
  listRoute: 'page',
  owner: 'tenant',
  menu: { group: 'business', sort: 6, icon: 'car', nameEn: 'Cars' },
  fields: {
    name: { kind: 'string', label: { zh: '车辆名称', en: 'Name' }, max: 64, required: true, search: true },
    plate: {
      kind: 'string',
      label: { zh: '车牌号', en: 'Plate' },
      max: 16,
      required: true,
      search: true,
      // A mainland plate: province, letter, then five or six letters and digits (new-energy plates have six).
      pattern: {
        regex: '^[\\u4e00-\\u9fa5][A-Z][A-Z0-9]{5,6}$',
        message: {
          zh: '车牌号格式不正确,例如 苏E12345',
          en: 'The plate is not a valid plate, e.g. 苏E12345',
        },
      },
      width: 110,
    },
    barCode: barCodeField(),
    base: baseField(true),
    line: {
      kind: 'reference',
      label: { zh: '线路', en: 'Line' },
      search: true,
      // A line removed leaves its cars without one rather than refusing the removal.
      reference: {
        to: (): ResourceDef => lineResource,
        label: 'name',
        onRemove: 'clear',
        matches: { field: 'base', targetField: 'base' },
      },
      width: 140,
    },
    capacity: {
      kind: 'int',
      label: { zh: '装载量(箱)', en: 'Capacity (boxes)' },
      range: [0, 9999],
      default: 0,
      width: 100,
    },
    sort: sortField(),
    remark: remarkField(),
  },
  indexes: [
    { fields: ['tenantId', 'plate'], unique: true, message: { zh: '车牌号已存在', en: 'The plate exists' } },
    { fields: ['tenantId', 'barCode'], unique: true, message: { zh: '条码已存在', en: 'The bar code exists' } },
  ],
  defaultSort: [{ field: 'sort' }],
});
