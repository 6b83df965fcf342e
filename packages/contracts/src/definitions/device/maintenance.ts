import { defineAggregate } from '../../engine/aggregate';
import { defineChildResource } from '../../engine/children';
import { defineResource, type FieldDef } from '../../engine/define';
import { remarkField, sortField } from '../common-fields';
import { deptResource } from '../system/dept';
import { deviceResource } from './device';
import { productResource } from './product';

const planLabel = { zh: '保养计划', en: 'Maintenance plan' };
const recordLabel = { zh: '保养记录', en: 'Maintenance record' };

const count = (zh: string, en: string, max: number, extra: Partial<FieldDef> = {}) =>
  ({ kind: 'int', label: { zh, en }, range: [0, max], nullable: true, width: 110, ...extra }) as const;

/** One item of a plan's check list (what the technician checks and against what). */
export const maintenancePlanCheckResource = defineChildResource({
  code: 'maintenance_plan_check',
  title: { zh: '检查项', en: 'Check list' },
  table: 'mes_maintenance_plan_check',
  api: '/basic/maintenance-plan-check',
  parent: { field: 'planId', label: planLabel },
  fields: {
    checkName: { kind: 'string', label: { zh: '检查项', en: 'Check' }, max: 128, required: true, width: 200 },
    standard: { kind: 'string', label: { zh: '标准/方法', en: 'Standard / method' }, max: 255, width: 240 },
  },
});

/**
 * A maintenance plan of a product (docs/maintenance.md): every `intervalCycles` finished cycles
 * and/or every `intervalDays` days since a device's last completed maintenance, whichever comes
 * first; the due list warns `noticeCycles` cycles or `noticeDays` days before, and a notice goes
 * to the device's department once per due period.
 */
export const maintenancePlanResource = defineResource({
  code: 'maintenance_plan',
  title: { zh: '保养计划', en: 'Maintenance plans' },
  table: 'mes_maintenance_plan',
  api: '/basic/maintenance-plan',
  owner: 'tenant',
  dialogWidth: 900,
  menu: { group: 'device', sort: 20, icon: 'tool', nameEn: 'Maintenance plans' },
  fields: {
    planName: { kind: 'string', label: { zh: '计划名称', en: 'Plan' }, max: 64, required: true, search: true },
    productId: {
      kind: 'reference',
      label: { zh: '产品', en: 'Product' },
      required: true,
      search: true,
      reference: { to: () => productResource, label: 'productName' },
      width: 140,
    },
    intervalCycles: count('间隔周期数', 'Every N cycles', 1_000_000, { range: [1, 1_000_000] }),
    intervalDays: count('间隔天数', 'Every N days', 3650, { range: [1, 3650] }),
    noticeCycles: count('提前提醒(周期)', 'Notice (cycles before)', 1_000_000, { nullable: false, default: 0 }),
    noticeDays: count('提前提醒(天)', 'Notice (days before)', 365, { nullable: false, default: 0 }),
    sort: sortField(),
    remark: remarkField(),
  },
  children: {
    checks: {
      resource: () => maintenancePlanCheckResource,
      label: { zh: '检查项', en: 'Check list' },
      unique: { fields: ['checkName'], message: { zh: '检查项重复', en: 'A check appears once per plan' } },
    },
  },
  indexes: [
    {
      fields: ['tenantId', 'productId', 'planName'],
      unique: true,
      message: { zh: '该产品已有同名保养计划', en: 'The product has a plan of that name' },
    },
  ],
  defaultSort: [{ field: 'sort' }],
});

/** `result` of a check and of a maintenance (dictionary-free: three fixed values). */
export const MaintenanceCheckResult = { ok: 1, notOk: 2, notApplicable: 3 } as const;
export const MaintenanceResult = { pass: 1, fail: 2 } as const;
/** `state` of a maintenance record: open (the device is under maintenance) or completed. */
export const MaintenanceState = { open: 1, completed: 2 } as const;

/** One check done in a maintenance, with its result (copied from the plan's list when left empty). */
export const maintenanceRecordCheckResource = defineChildResource({
  code: 'maintenance_record_check',
  title: { zh: '检查结果', en: 'Checks' },
  table: 'mes_maintenance_record_check',
  api: '/basic/maintenance-record-check',
  parent: { field: 'recordId', label: recordLabel },
  fields: {
    checkName: { kind: 'string', label: { zh: '检查项', en: 'Check' }, max: 128, required: true, width: 200 },
    result: {
      kind: 'int',
      label: { zh: '结果', en: 'Result' },
      range: [1, 3],
      nullable: true,
      options: {
        items: [
          { value: MaintenanceCheckResult.ok, label: { zh: '正常', en: 'OK' } },
          { value: MaintenanceCheckResult.notOk, label: { zh: '异常', en: 'Not OK' } },
          { value: MaintenanceCheckResult.notApplicable, label: { zh: '不适用', en: 'N/A' } },
        ],
      },
      width: 110,
    },
    note: { kind: 'string', label: { zh: '说明', en: 'Note' }, max: 255, width: 220 },
  },
});

/** A part replaced in a maintenance. */
export const maintenanceRecordPartResource = defineChildResource({
  code: 'maintenance_record_part',
  title: { zh: '更换配件', en: 'Parts replaced' },
  table: 'mes_maintenance_record_part',
  api: '/basic/maintenance-record-part',
  parent: { field: 'recordId', label: recordLabel },
  fields: {
    partName: { kind: 'string', label: { zh: '配件名称', en: 'Part' }, max: 128, required: true, width: 180 },
    partNo: { kind: 'string', label: { zh: '配件编号', en: 'Part no.' }, max: 64, width: 140 },
    quantity: { kind: 'int', label: { zh: '数量', en: 'Quantity' }, range: [1, 100000], default: 1, width: 90 },
  },
});

/**
 * A maintenance of a device (docs/maintenance.md): saved without an end time it is open and puts
 * the device under maintenance (run state 维护中); saved with its end time and result it is
 * completed, clears the device's maintenance (when no other record of it is open) and starts the
 * plan's next period: cycles and days count again from its end.
 */
export const maintenanceRecordResource = defineResource({
  code: 'maintenance_record',
  title: { zh: '保养记录', en: 'Maintenance records' },
  table: 'mes_maintenance_record',
  api: '/basic/maintenance-record',
  owner: 'tenant',
  dataScope: { deptColumn: 'dept_id' },
  dialogWidth: 1000,
  menu: { group: 'device', sort: 22, icon: 'solution', nameEn: 'Maintenance records' },
  fields: {
    deviceId: {
      kind: 'reference',
      label: { zh: '设备', en: 'Device' },
      required: true,
      search: true,
      reference: { to: () => deviceResource, label: 'deviceName' },
      width: 140,
    },
    planId: {
      kind: 'reference',
      label: planLabel,
      nullable: true,
      search: true,
      reference: { to: () => maintenancePlanResource, label: 'planName', onRemove: 'clear' },
      width: 140,
    },
    deptId: {
      kind: 'reference',
      label: { zh: '所属机构', en: 'Department' },
      form: 'readonly',
      nullable: true,
      search: true,
      reference: { to: () => deptResource, label: 'deptName', onRemove: 'clear' },
      width: 140,
    },
    technician: { kind: 'string', label: { zh: '技术员', en: 'Technician' }, max: 64, required: true, search: true },
    startTime: {
      kind: 'datetime',
      label: { zh: '开始时间', en: 'Started' },
      required: true,
      sort: true,
      search: true,
      width: 160,
    },
    endTime: { kind: 'datetime', label: { zh: '结束时间', en: 'Ended' }, nullable: true, sort: true, width: 160 },
    result: {
      kind: 'int',
      label: { zh: '保养结果', en: 'Result' },
      range: [1, 2],
      nullable: true,
      options: {
        items: [
          { value: MaintenanceResult.pass, label: { zh: '合格', en: 'Pass' } },
          { value: MaintenanceResult.fail, label: { zh: '不合格', en: 'Fail' } },
        ],
      },
      width: 90,
    },
    state: {
      kind: 'int',
      label: { zh: '状态', en: 'State' },
      range: [1, 2],
      default: MaintenanceState.open,
      form: 'readonly',
      search: true,
      options: {
        items: [
          { value: MaintenanceState.open, label: { zh: '保养中', en: 'In progress' } },
          { value: MaintenanceState.completed, label: { zh: '已完成', en: 'Completed' } },
        ],
      },
      width: 90,
    },
    remark: remarkField(),
  },
  children: {
    checks: { resource: () => maintenanceRecordCheckResource, label: { zh: '检查结果', en: 'Checks' } },
    parts: { resource: () => maintenanceRecordPartResource, label: { zh: '更换配件', en: 'Parts replaced' } },
  },
  indexes: [{ fields: ['tenantId', 'deviceId', 'endTime'] }],
  defaultSort: [{ field: 'startTime', desc: true }],
});

/** `dueState` of a due-list row. */
export const MaintenanceDueState = { ok: 1, soon: 2, overdue: 3 } as const;

/** `GET /api` + this: the due list, one row per device and plan of its product. */
export const MAINTENANCE_DUE_ROUTE = '/basic/maintenance-due/list';

const readonlyCount = (zh: string, en: string) => ({ kind: 'int', label: { zh, en }, width: 100 }) as const;

/**
 * 保养到期: per device and plan of its product, the last completed maintenance, cycles and days
 * since (since the device was added when it never had one), when the plan falls due and whether it
 * is due soon (within the plan's notice) or overdue. Read from a query (modules/maintenance).
 */
export const maintenanceDueResource = defineAggregate({
  code: 'maintenance_due',
  title: { zh: '保养到期', en: 'Maintenance due' },
  api: '/basic/maintenance-due',
  owner: 'tenant',
  dataScope: { deptColumn: 'dept_id' },
  source: { query: true, key: 'text' },
  operations: ['list', 'export'],
  menu: { group: 'device', sort: 21, icon: 'alert', nameEn: 'Maintenance due' },
  // The state and the due date first: what the list is read for.
  fields: {
    deviceId: {
      kind: 'reference',
      label: { zh: '设备', en: 'Device' },
      search: true,
      reference: { to: () => deviceResource, label: 'deviceName' },
      width: 140,
    },
    deviceCode: { kind: 'string', label: { zh: '设备编号', en: 'Device code' }, max: 64, search: true, sort: true },
    planId: {
      kind: 'reference',
      label: planLabel,
      search: true,
      reference: { to: () => maintenancePlanResource, label: 'planName' },
      width: 140,
    },
    dueState: {
      kind: 'int',
      label: { zh: '到期状态', en: 'Due state' },
      search: true,
      sort: true,
      options: {
        items: [
          { value: MaintenanceDueState.ok, label: { zh: '正常', en: 'OK' } },
          { value: MaintenanceDueState.soon, label: { zh: '即将到期', en: 'Due soon' } },
          { value: MaintenanceDueState.overdue, label: { zh: '已逾期', en: 'Overdue' } },
        ],
      },
      width: 100,
    },
    dueAt: { kind: 'datetime', label: { zh: '到期时间', en: 'Due at' }, nullable: true, sort: true, width: 160 },
    cyclesLeft: readonlyCount('剩余周期', 'Cycles left'),
    cyclesSince: readonlyCount('已运行周期', 'Cycles since'),
    daysSince: readonlyCount('已过天数', 'Days since'),
    lastMaintenance: {
      kind: 'datetime',
      label: { zh: '上次保养', en: 'Last maintenance' },
      nullable: true,
      width: 160,
    },
    deptId: {
      kind: 'reference',
      label: { zh: '所属机构', en: 'Department' },
      search: true,
      reference: { to: () => deptResource, label: 'deptName' },
      width: 140,
    },
    intervalCycles: { ...readonlyCount('间隔周期数', 'Every N cycles'), list: false },
    intervalDays: { ...readonlyCount('间隔天数', 'Every N days'), list: false },
  },
  defaultSort: [{ field: 'dueState', desc: true }, { field: 'deviceCode' }],
});

/** One row of the due list as the route sends it. */
export interface MaintenanceDueRow {
  id: string;
  deviceId: string;
  deviceCode: string;
  deptId: string | null;
  planId: string;
  lastMaintenance: string | null;
  cyclesSince: number;
  daysSince: number;
  intervalCycles: number | null;
  intervalDays: number | null;
  cyclesLeft: number | null;
  dueAt: string | null;
  dueState: number;
}
