import { DEFAULT_TENANT_ID, REGISTRY, retentionParams, type ResourceDef } from '@mes/contracts';
import { paramSeedId, postSeedId } from './seed-ids';

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

export const POST_IDS = { ceo: postSeedId('ceo') };

/** Two derived ids could meet (as unlikely as for menus); refuse to start rather than drop a row. */
function distinctIds<R extends { id: string }>(what: string, rows: readonly R[], codeOf: (row: R) => string): void {
  const seen = new Map<string, string>();
  for (const row of rows) {
    const other = seen.get(row.id);
    if (other !== undefined) throw new Error(`seed: ${what} ${codeOf(row)} and ${other} got the same id; rename one`);
    seen.set(row.id, codeOf(row));
  }
}

/**
 * The platform tenant's posts. Ids come from the code (`postSeedId`), so a post may be added
 * anywhere in the list; `sort` is only the display order.
 */
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
  id: postSeedId(postCode),
  postCode,
  postName,
  category,
  sort: i + 1,
}));
distinctIds('post', SEED_POSTS, (p) => p.postCode);

/**
 * `tenant.default.password` gets a random value at first start instead of a fixed default. Guest
 * registration starts closed: an administrator opens it. Ids come from the key (`paramSeedId`),
 * so a parameter may be added anywhere in the list.
 */
export const SEED_PARAMS = (
  [
    ['是否开启注册功能', 'account.registerUser', 'false'],
    ['账号初始密码', 'account.initPassword', '123456'],
    ['登录失败后需验证码的次数(同一地址)', 'account.failCount', '5'],
    ['租户默认管理密码', 'tenant.default.password', undefined],
    ['租户默认账号额度', 'tenant.default.accountNumber', '100'],
    ['租户默认菜单集合', 'tenant.default.menuCode', 'desk,system,authority,resource,report,monitor'],
    ['日志保留天数', 'log.retentionDays', '90'],
    ['数据源允许端口', 'datasource.allowedPorts', '5432-5439'],
    ['登录失败后需验证码的次数(所有地址)', 'account.accountFailCount', '50'],
    ['同一地址登录失败限流次数', 'account.ipFailCount', '20'],
    ['登录失败计数时长(分钟)', 'account.failWindowMinutes', '30'],
    ['登录一律需要验证码', 'account.captchaMode', 'false'],
    // TELEMETRY_RETENTION_PARAM: days of telemetry, MQTT messages and on/off records (series upkeep).
    ['物联网数据保留天数', 'telemetry.retentionDays', '90'],
    // REPORT_KEEP_DAYS_PARAM: days a generated report file is kept (docs/reports.md).
    ['报表文件保留天数', 'report.file.keepDays', '30'],
    // The record retentions (docs/records.md), at their standards' minimums.
    ...retentionParams(REGISTRY.filter((e): e is ResourceDef => 'records' in e)).map(
      (r) => [r.paramName, r.param, String(r.minimumDays)] as const,
    ),
  ] as const
).map(([paramName, paramKey, paramValue]) => ({
  id: paramSeedId(paramKey),
  paramName,
  paramKey,
  paramValue,
}));
distinctIds('parameter', SEED_PARAMS, (p) => p.paramKey);

/** The alias `provisionTenant` gives a tenant's administrator role; seed sync grants new menus to these roles. */
export const TENANT_ADMIN_ROLE_ALIAS = 'admin';

export {
  SEED_MENUS,
  SEED_API_SCOPES,
  SEED_DICTS,
  type SeedMenu,
  type SeedApiScope,
  type SeedDictRow,
} from './seed-menus';

export const ADMIN_USER = {
  id: '1000000000000000601',
  account: 'admin',
  name: '管理员',
  realName: '管理员',
  roleId: ROLE_IDS.administrator,
  deptId: DEPT_IDS.company,
  postId: POST_IDS.ceo,
};
