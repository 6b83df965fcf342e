import { DEFAULT_TENANT_ID } from '@mes/contracts';

/**
 * The rows every installation starts with (CONTRACT.md "Seed data"). Ids are fixed so that
 * seeding is idempotent: a row that exists is left as it is, whatever an administrator changed.
 */
export const PLATFORM_TENANT = { id: '1000000000000000001', tenantId: DEFAULT_TENANT_ID, tenantName: '管理组' };

export const SEED_CLIENTS = [
  { id: '1000000000000000101', clientId: 'saber', secret: 'saber_secret' },
  { id: '1000000000000000102', clientId: 'sword', secret: 'sword_secret' },
].map((c) => ({
  ...c,
  authorizedGrantTypes: 'refresh_token,password,captcha,sms,social,qr',
  accessTokenValidity: 3600,
  refreshTokenValidity: 604800,
}));

export const ROLE_IDS = {
  administrator: '1000000000000000201',
  user: '1000000000000000202',
  hr: '1000000000000000203',
  manager: '1000000000000000204',
  boss: '1000000000000000205',
} as const;

export const SEED_ROLES = [
  { id: ROLE_IDS.administrator, parentId: '0', roleName: '超级管理员', roleAlias: 'administrator', sort: 1 },
  { id: ROLE_IDS.user, parentId: '0', roleName: '用户', roleAlias: 'user', sort: 2 },
  { id: ROLE_IDS.hr, parentId: ROLE_IDS.user, roleName: '人事', roleAlias: 'hr', sort: 1 },
  { id: ROLE_IDS.manager, parentId: ROLE_IDS.user, roleName: '经理', roleAlias: 'manager', sort: 2 },
  { id: ROLE_IDS.boss, parentId: ROLE_IDS.user, roleName: '老板', roleAlias: 'boss', sort: 3 },
];

export const DEPT_IDS = { company: '1000000000000000301', east: '1000000000000000302', south: '1000000000000000303' };

export const SEED_DEPTS = [
  {
    id: DEPT_IDS.company,
    parentId: '0',
    ancestors: '0',
    deptCategory: 1,
    deptName: '机械集团',
    fullName: '机械制造集团有限公司',
    sort: 1,
  },
  {
    id: DEPT_IDS.east,
    parentId: DEPT_IDS.company,
    ancestors: `0,${DEPT_IDS.company}`,
    deptCategory: 1,
    deptName: '常州分公司',
    fullName: '机械制造集团常州分公司',
    sort: 1,
  },
  {
    id: DEPT_IDS.south,
    parentId: DEPT_IDS.company,
    ancestors: `0,${DEPT_IDS.company}`,
    deptCategory: 1,
    deptName: '苏州分公司',
    fullName: '机械制造集团苏州分公司',
    sort: 2,
  },
];

export const POST_IDS = { ceo: '1000000000000000401' };

export const SEED_POSTS = (
  [
    ['ceo', '首席执行官', 1],
    ['coo', '首席运营官', 1],
    ['cfo', '首席财务官', 1],
    ['cto', '首席技术官', 1],
    ['cio', '首席信息官', 1],
    ['pm', '技术经理', 2],
    ['hrm', '人力经理', 2],
    ['staff', '普通员工', 3],
  ] as const
).map(([postCode, postName, category], i) => ({
  id: String(1000000000000000401n + BigInt(i)),
  postCode,
  postName,
  category,
  sort: i + 1,
}));

/** `tenant.default.password` gets a random value at first start instead of a fixed default. */
export const SEED_PARAMS = (
  [
    ['是否开启注册功能', 'account.registerUser', 'true'],
    ['账号初始密码', 'account.initPassword', '123456'],
    ['账号错误锁定次数', 'account.failCount', '5'],
    ['租户默认管理密码', 'tenant.default.password', undefined],
    ['租户默认账号额度', 'tenant.default.accountNumber', '100'],
    ['租户默认菜单集合', 'tenant.default.menuCode', 'desk,system,authority,resource,report,monitor'],
    ['日志保留天数', 'log.retentionDays', '90'],
  ] as const
).map(([paramName, paramKey, paramValue], i) => ({
  id: String(1000000000000000501n + BigInt(i)),
  paramName,
  paramKey,
  paramValue,
}));

type DictSpec = readonly [code: string, name: string, entries: readonly (readonly [key: string, value: string])[]];

const DICTS: readonly DictSpec[] = [
  [
    'sex',
    '性别',
    [
      ['1', '男'],
      ['2', '女'],
      ['3', '未知'],
    ],
  ],
  [
    'notice',
    '通知类型',
    [
      ['1', '发布通知'],
      ['2', '批转通知'],
      ['3', '转发通知'],
      ['4', '指示通知'],
      ['5', '任免通知'],
      ['6', '事务通知'],
    ],
  ],
  [
    'menu_category',
    '菜单类型',
    [
      ['1', '菜单'],
      ['2', '按钮'],
    ],
  ],
  [
    'button_func',
    '按钮功能',
    [
      ['1', '工具栏'],
      ['2', '操作栏'],
      ['3', '工具操作栏'],
    ],
  ],
  [
    'yes_no',
    '是否',
    [
      ['1', '否'],
      ['2', '是'],
    ],
  ],
  [
    'flow',
    '流程类型',
    [
      ['1', '请假流程'],
      ['2', '报销流程'],
    ],
  ],
  [
    'org_category',
    '机构类型',
    [
      ['1', '公司'],
      ['2', '部门'],
      ['3', '小组'],
      ['4', '消毒基地'],
      ['5', '诊所节点'],
    ],
  ],
  [
    'data_scope_type',
    '数据权限',
    [
      ['1', '全部可见'],
      ['2', '本人可见'],
      ['3', '所在机构可见'],
      ['4', '所在机构及子级可见'],
      ['5', '自定义'],
    ],
  ],
  [
    'api_scope_type',
    '接口权限',
    [
      ['1', '系统接口'],
      ['2', '业务接口'],
    ],
  ],
  [
    'post_category',
    '岗位类型',
    [
      ['1', '高层'],
      ['2', '中层'],
      ['3', '基层'],
      ['4', '其他'],
    ],
  ],
  [
    'oss',
    '对象存储',
    [
      ['1', 'minio'],
      ['2', '七牛云'],
      ['3', '阿里云'],
      ['4', '腾讯云'],
      ['5', '本地磁盘'],
    ],
  ],
  [
    'sms',
    '短信服务',
    [
      ['1', '云片'],
      ['2', '七牛云'],
      ['3', '阿里云'],
      ['4', '腾讯云'],
      ['5', '开发环境(日志)'],
    ],
  ],
  [
    'region',
    '行政区划',
    [
      ['0', '国家'],
      ['1', '省份/直辖市'],
      ['2', '地市'],
      ['3', '区县'],
      ['4', '乡镇'],
      ['5', '村委'],
    ],
  ],
  [
    'user_type',
    '用户平台',
    [
      ['1', 'WEB'],
      ['2', 'APP'],
      ['3', 'OTHER'],
    ],
  ],
  [
    'line_direction',
    '线路方向',
    [
      ['1', '回收'],
      ['2', '发放'],
    ],
  ],
  [
    'device_run_state',
    '设备运行状态',
    [
      ['1', '空闲'],
      ['2', '消毒中'],
      ['3', '故障'],
      ['4', '维护'],
    ],
  ],
  [
    'warning_level',
    '告警级别',
    [
      ['1', '紧急'],
      ['2', '重要'],
      ['3', '次要'],
      ['4', '提示'],
    ],
  ],
  [
    'warning_status',
    '告警状态',
    [
      ['1', '告警中未处理'],
      ['2', '告警中已处理'],
      ['3', '已恢复未处理'],
      ['4', '已恢复已处理'],
    ],
  ],
  [
    'disinfection_result',
    '消毒结果',
    [
      ['1', '合格'],
      ['2', '不合格'],
      ['3', '中止'],
    ],
  ],
];

export interface SeedDictRow {
  id: string;
  parentId: string;
  code: string;
  dictKey: string;
  dictValue: string;
  sort: number;
  isSealed: number;
}

/** Parents carry `dictKey` -1; children share the parent's code. System dictionaries are sealed. */
export const SEED_DICTS: SeedDictRow[] = DICTS.flatMap(([code, name, entries], d) => {
  const parentId = String(1000000000000100000n + BigInt(d) * 100n);
  return [
    { id: parentId, parentId: '0', code, dictKey: '-1', dictValue: name, sort: d + 1, isSealed: 1 },
    ...entries.map(([dictKey, dictValue], i) => ({
      id: String(BigInt(parentId) + BigInt(i) + 1n),
      parentId,
      code,
      dictKey,
      dictValue,
      sort: i + 1,
      isSealed: 1,
    })),
  ];
});

export { SEED_MENUS, SEED_API_SCOPES, type SeedMenu } from './seed-menus';

export const ADMIN_USER = {
  id: '1000000000000000601',
  account: 'admin',
  name: '管理员',
  realName: '管理员',
  roleId: ROLE_IDS.administrator,
  deptId: DEPT_IDS.company,
  postId: POST_IDS.ceo,
};
