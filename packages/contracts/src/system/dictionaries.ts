import type { SystemDictionaryDef } from '../engine/menu-placement';

/**
 * System dictionaries every installation has (CONTRACT.md "Seed data"), in the order their
 * parent rows are sorted. A definition that needs a dictionary of its own declares it in its
 * `menu.dictionaries` instead; the seed adds both (sealed), with ids derived from the codes.
 */
export const SYSTEM_DICTIONARIES: readonly SystemDictionaryDef[] = [
  {
    code: 'sex',
    name: '性别',
    entries: [
      ['1', '男', 'Male'],
      ['2', '女', 'Female'],
      ['3', '未知', 'Unknown'],
    ],
  },
  {
    code: 'notice',
    name: '通知类型',
    entries: [
      ['1', '发布通知', 'Release'],
      ['2', '批转通知', 'Approval'],
      ['3', '转发通知', 'Forwarded'],
      ['4', '指示通知', 'Instruction'],
      ['5', '任免通知', 'Appointment'],
      ['6', '事务通知', 'Affairs'],
    ],
  },
  {
    code: 'menu_category',
    name: '菜单类型',
    entries: [
      ['1', '菜单', 'Menu'],
      ['2', '按钮', 'Button'],
    ],
  },
  {
    code: 'button_func',
    name: '按钮功能',
    entries: [
      ['1', '工具栏', 'Toolbar'],
      ['2', '操作栏', 'Row actions'],
      ['3', '工具操作栏', 'Toolbar and row'],
    ],
  },
  {
    code: 'yes_no',
    name: '是否',
    entries: [
      ['1', '否', 'No'],
      ['2', '是', 'Yes'],
    ],
  },
  {
    code: 'flow',
    name: '流程类型',
    entries: [
      ['1', '请假流程', 'Leave'],
      ['2', '报销流程', 'Expense'],
    ],
  },
  {
    code: 'org_category',
    name: '机构类型',
    entries: [
      ['1', '公司', 'Company'],
      ['2', '部门', 'Department'],
      ['3', '小组', 'Team'],
      ['4', '消毒基地', 'Disinfection base'],
      ['5', '诊所节点', 'Clinic node'],
    ],
  },
  {
    code: 'data_scope_type',
    name: '数据权限',
    entries: [
      ['1', '全部可见', 'All'],
      ['2', '本人可见', 'Own rows'],
      ['3', '所在机构可见', 'Own department'],
      ['4', '所在机构及子级可见', 'Own department and below'],
      ['5', '自定义', 'Custom'],
    ],
  },
  {
    code: 'api_scope_type',
    name: '接口权限',
    entries: [
      ['1', '系统接口', 'System API'],
      ['2', '业务接口', 'Business API'],
    ],
  },
  {
    code: 'post_category',
    name: '岗位类型',
    entries: [
      ['1', '高层', 'Senior'],
      ['2', '中层', 'Middle'],
      ['3', '基层', 'Junior'],
      ['4', '其他', 'Other'],
    ],
  },
  {
    code: 'oss',
    name: '对象存储',
    entries: [
      ['1', 'minio'],
      ['2', '七牛云', 'Qiniu'],
      ['3', '阿里云', 'Aliyun'],
      ['4', '腾讯云', 'Tencent Cloud'],
      ['5', '本地磁盘', 'Local disk'],
    ],
  },
  {
    code: 'sms',
    name: '短信服务',
    entries: [
      ['1', '云片', 'Yunpian'],
      ['2', '七牛云', 'Qiniu'],
      ['3', '阿里云', 'Aliyun'],
      ['4', '腾讯云', 'Tencent Cloud'],
      ['5', '开发环境(日志)', 'Development (log)'],
    ],
  },
  {
    code: 'region',
    name: '行政区划',
    entries: [
      ['0', '国家', 'Country'],
      ['1', '省份/直辖市', 'Province'],
      ['2', '地市', 'City'],
      ['3', '区县', 'District'],
      ['4', '乡镇', 'Township'],
      ['5', '村委', 'Village'],
    ],
  },
  {
    code: 'user_type',
    name: '用户平台',
    entries: [
      ['1', 'WEB'],
      ['2', 'APP'],
      ['3', 'OTHER'],
    ],
  },
  {
    code: 'line_direction',
    name: '线路方向',
    entries: [
      ['1', '回收', 'Pickup'],
      ['2', '发放', 'Delivery'],
    ],
  },
  {
    code: 'device_run_state',
    name: '设备运行状态',
    entries: [
      ['1', '空闲', 'Idle'],
      ['2', '消毒中', 'Disinfecting'],
      ['3', '故障', 'Fault'],
      ['4', '维护', 'Maintenance'],
    ],
  },
  {
    code: 'warning_level',
    name: '告警级别',
    entries: [
      ['1', '紧急', 'Critical'],
      ['2', '重要', 'Major'],
      ['3', '次要', 'Minor'],
      ['4', '提示', 'Warning'],
    ],
  },
  {
    code: 'warning_status',
    name: '告警状态',
    entries: [
      ['1', '告警中未处理', 'Active, unhandled'],
      ['2', '告警中已处理', 'Active, handled'],
      ['3', '已恢复未处理', 'Cleared, unhandled'],
      ['4', '已恢复已处理', 'Cleared, handled'],
    ],
  },
  {
    code: 'disinfection_result',
    name: '消毒结果',
    entries: [
      ['1', '合格', 'Pass'],
      ['2', '不合格', 'Fail'],
      ['3', '中止', 'Aborted'],
    ],
  },
];
