import type { SystemDictionaryDef } from '../resource/menu-placement';

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
      ['1', '男'],
      ['2', '女'],
      ['3', '未知'],
    ],
  },
  {
    code: 'notice',
    name: '通知类型',
    entries: [
      ['1', '发布通知'],
      ['2', '批转通知'],
      ['3', '转发通知'],
      ['4', '指示通知'],
      ['5', '任免通知'],
      ['6', '事务通知'],
    ],
  },
  {
    code: 'menu_category',
    name: '菜单类型',
    entries: [
      ['1', '菜单'],
      ['2', '按钮'],
    ],
  },
  {
    code: 'button_func',
    name: '按钮功能',
    entries: [
      ['1', '工具栏'],
      ['2', '操作栏'],
      ['3', '工具操作栏'],
    ],
  },
  {
    code: 'yes_no',
    name: '是否',
    entries: [
      ['1', '否'],
      ['2', '是'],
    ],
  },
  {
    code: 'flow',
    name: '流程类型',
    entries: [
      ['1', '请假流程'],
      ['2', '报销流程'],
    ],
  },
  {
    code: 'org_category',
    name: '机构类型',
    entries: [
      ['1', '公司'],
      ['2', '部门'],
      ['3', '小组'],
      ['4', '消毒基地'],
      ['5', '诊所节点'],
    ],
  },
  {
    code: 'data_scope_type',
    name: '数据权限',
    entries: [
      ['1', '全部可见'],
      ['2', '本人可见'],
      ['3', '所在机构可见'],
      ['4', '所在机构及子级可见'],
      ['5', '自定义'],
    ],
  },
  {
    code: 'api_scope_type',
    name: '接口权限',
    entries: [
      ['1', '系统接口'],
      ['2', '业务接口'],
    ],
  },
  {
    code: 'post_category',
    name: '岗位类型',
    entries: [
      ['1', '高层'],
      ['2', '中层'],
      ['3', '基层'],
      ['4', '其他'],
    ],
  },
  {
    code: 'oss',
    name: '对象存储',
    entries: [
      ['1', 'minio'],
      ['2', '七牛云'],
      ['3', '阿里云'],
      ['4', '腾讯云'],
      ['5', '本地磁盘'],
    ],
  },
  {
    code: 'sms',
    name: '短信服务',
    entries: [
      ['1', '云片'],
      ['2', '七牛云'],
      ['3', '阿里云'],
      ['4', '腾讯云'],
      ['5', '开发环境(日志)'],
    ],
  },
  {
    code: 'region',
    name: '行政区划',
    entries: [
      ['0', '国家'],
      ['1', '省份/直辖市'],
      ['2', '地市'],
      ['3', '区县'],
      ['4', '乡镇'],
      ['5', '村委'],
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
      ['1', '回收'],
      ['2', '发放'],
    ],
  },
  {
    code: 'device_run_state',
    name: '设备运行状态',
    entries: [
      ['1', '空闲'],
      ['2', '消毒中'],
      ['3', '故障'],
      ['4', '维护'],
    ],
  },
  {
    code: 'warning_level',
    name: '告警级别',
    entries: [
      ['1', '紧急'],
      ['2', '重要'],
      ['3', '次要'],
      ['4', '提示'],
    ],
  },
  {
    code: 'warning_status',
    name: '告警状态',
    entries: [
      ['1', '告警中未处理'],
      ['2', '告警中已处理'],
      ['3', '已恢复未处理'],
      ['4', '已恢复已处理'],
    ],
  },
  {
    code: 'disinfection_result',
    name: '消毒结果',
    entries: [
      ['1', '合格'],
      ['2', '不合格'],
      ['3', '中止'],
    ],
  },
];
