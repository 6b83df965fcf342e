import { apiScopeCodes, permissionCodes } from '@mes/contracts';

/** A screen of the side menu, with its buttons and the API scopes its routes need. */
interface ScreenSpec {
  code: string;
  name: string;
  path: string;
  source: string;
  /** Extra buttons beyond add / edit / delete / view / export: [code suffix, name]. */
  buttons?: readonly (readonly [string, string])[];
  /** Without the generic add / edit / delete buttons (read-only screens). */
  readOnly?: boolean;
  /** Extra API scopes beyond read and write: [code suffix, name, path pattern]. */
  scopes?: readonly (readonly [string, string, string])[];
  api: string;
  /** Only the platform tenant uses it; new tenants' admin roles are not granted it. */
  platformOnly?: boolean;
}

interface GroupSpec {
  code: string;
  name: string;
  path: string;
  source: string;
  /** Position in the side menu, in spec section 1 order (ids follow the list position instead). */
  sort: number;
  screens: readonly ScreenSpec[];
}

/** The menu groups of spec section 1 that exist so far; later areas add theirs here. */
export const MENU_GROUPS: readonly GroupSpec[] = [
  {
    code: 'system',
    name: '系统管理',
    path: '/system',
    source: 'setting',
    sort: 1,
    screens: [
      {
        code: 'user',
        name: '用户管理',
        path: '/system/user',
        source: 'user',
        api: '/api/blade-user',
        buttons: [
          ['role', '角色配置'],
          ['reset', '密码重置'],
          ['platform', '平台配置'],
          ['unlock', '账号解封'],
          ['audit', '注册审核'],
        ],
        scopes: [
          ['grant', '用户角色配置', '/api/blade-user/grant'],
          ['reset', '用户密码重置', '/api/blade-user/reset-password'],
          ['platform', '用户平台配置', '/api/blade-user/update-platform'],
          ['unlock', '用户账号解封', '/api/blade-user/unlock'],
          ['audit', '用户注册审核', '/api/blade-user/audit-{pass,refuse}'],
        ],
      },
      {
        code: 'dept',
        name: '部门管理',
        path: '/system/dept',
        source: 'apartment',
        api: '/api/blade-system/dept',
        scopes: [['lines', '线路节点配置', '/api/blade-system/dept/setLines']],
      },
      { code: 'post', name: '岗位管理', path: '/system/post', source: 'idcard', api: '/api/blade-system/post' },
      {
        code: 'dict',
        name: '系统字典',
        path: '/system/dict',
        source: 'book',
        api: '/api/blade-system/dict',
        platformOnly: true,
      },
      { code: 'dictbiz', name: '业务字典', path: '/system/dictbiz', source: 'read', api: '/api/blade-system/dict-biz' },
      {
        code: 'menu',
        name: '菜单管理',
        path: '/system/menu',
        source: 'menu',
        api: '/api/blade-system/menu',
        platformOnly: true,
      },
      {
        code: 'topmenu',
        name: '顶部菜单',
        path: '/system/topmenu',
        source: 'appstore',
        api: '/api/blade-system/topmenu',
        buttons: [['setting', '菜单配置']],
        scopes: [['grant', '顶部菜单配置', '/api/blade-system/topmenu/grant']],
      },
      {
        code: 'param',
        name: '参数管理',
        path: '/system/param',
        source: 'tool',
        api: '/api/blade-system/param',
        platformOnly: true,
      },
      {
        code: 'tenant',
        name: '租户管理',
        path: '/system/tenant',
        source: 'team',
        api: '/api/blade-system/tenant',
        platformOnly: true,
        buttons: [
          ['setting', '授权配置'],
          ['datasource', '数据源配置'],
        ],
        scopes: [
          ['setting', '租户授权配置', '/api/blade-system/tenant/setting'],
          ['datasource', '租户数据源配置', '/api/blade-system/tenant/datasource'],
        ],
      },
      {
        code: 'client',
        name: '应用管理',
        path: '/system/client',
        source: 'api',
        api: '/api/blade-system/client',
        platformOnly: true,
      },
      {
        code: 'region',
        name: '行政区划',
        path: '/system/region',
        source: 'environment',
        api: '/api/blade-system/region',
        platformOnly: true,
      },
    ],
  },
  {
    code: 'authority',
    name: '权限管理',
    path: '/authority',
    source: 'safety',
    sort: 2,
    screens: [
      {
        code: 'role',
        name: '角色管理',
        path: '/authority/role',
        source: 'team',
        api: '/api/blade-system/role',
        buttons: [['setting', '权限设置']],
        scopes: [['grant', '角色权限设置', '/api/blade-system/role/grant']],
      },
      {
        code: 'data_scope',
        name: '数据权限',
        path: '/authority/datascope',
        source: 'database',
        api: '/api/blade-system/data-scope',
        platformOnly: true,
      },
      {
        code: 'api_scope',
        name: '接口权限',
        path: '/authority/apiscope',
        source: 'api',
        api: '/api/blade-system/api-scope',
        platformOnly: true,
      },
    ],
  },
  {
    code: 'tool',
    name: '研发工具',
    path: '/tool',
    source: 'tool',
    sort: 9,
    screens: [
      {
        code: 'datasource',
        name: '数据源管理',
        path: '/tool/datasource',
        source: 'database',
        api: '/api/blade-develop/datasource',
        platformOnly: true,
        buttons: [['test', '连接测试']],
        scopes: [['test', '数据源连接测试', '/api/blade-develop/datasource/test']],
      },
    ],
  },
  {
    code: 'resource',
    name: '资源管理',
    path: '/resource',
    source: 'cloud',
    sort: 3,
    screens: [
      {
        code: 'sms',
        name: '短信配置',
        path: '/resource/sms',
        source: 'message',
        api: '/api/blade-resource/sms',
        buttons: [
          ['enable', '启用'],
          ['send', '发送测试'],
        ],
        scopes: [['send', '短信发送', '/api/blade-resource/sms/endpoint/**']],
      },
      {
        code: 'oss',
        name: '对象存储',
        path: '/resource/oss',
        source: 'cloud-upload',
        api: '/api/blade-resource/oss',
        buttons: [
          ['enable', '启用'],
          ['debug', '上传调试'],
        ],
      },
      {
        code: 'attach',
        name: '附件管理',
        path: '/resource/attach',
        source: 'paper-clip',
        api: '/api/blade-resource/attach',
        buttons: [
          ['upload', '上传'],
          ['download', '下载'],
        ],
      },
      {
        code: 'social',
        name: '第三方登录',
        path: '/resource/social',
        source: 'link',
        api: '/api/blade-resource/social',
      },
    ],
  },
  {
    code: 'report',
    name: '统计报表',
    path: '/report',
    source: 'bar-chart',
    sort: 6,
    screens: [
      {
        code: 'operlog',
        name: '操作日志',
        path: '/report/operlog',
        source: 'audit',
        api: '/api/report/operlog',
        readOnly: true,
      },
    ],
  },
  {
    code: 'monitor',
    name: '系统监控',
    path: '/monitor',
    source: 'fund',
    sort: 8,
    screens: [
      {
        code: 'log_api',
        name: '接口日志',
        path: '/monitor/log/api',
        source: 'api',
        api: '/api/blade-log/api',
        readOnly: true,
      },
      {
        code: 'log_usual',
        name: '通用日志',
        path: '/monitor/log/usual',
        source: 'file-text',
        api: '/api/blade-log/usual',
        readOnly: true,
      },
      {
        code: 'log_error',
        name: '错误日志',
        path: '/monitor/log/error',
        source: 'bug',
        api: '/api/blade-log/error',
        readOnly: true,
      },
      {
        code: 'log_login',
        name: '登录日志',
        path: '/monitor/log/login',
        source: 'login',
        api: '/api/blade-log/login',
        readOnly: true,
      },
    ],
  },
];

export interface SeedMenu {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: 1 | 2;
  action: number;
}

export interface SeedApiScope {
  id: string;
  menuId: string;
  resourceCode: string;
  scopeName: string;
  scopePath: string;
  scopeType: number;
}

const GENERIC_BUTTONS = [
  ['add', '新增', 1],
  ['edit', '修改', 2],
  ['remove', '删除', 3],
  ['view', '查看', 2],
  ['export', '导出', 1],
] as const;

/** Ids are derived from positions, so seeding stays idempotent as long as entries are appended. */
function build() {
  const menus: SeedMenu[] = [];
  const scopes: SeedApiScope[] = [];
  const platformOnly = new Set<string>();
  MENU_GROUPS.forEach((group, g) => {
    const groupId = String(1000000000000200000n + BigInt(g) * 10000n);
    menus.push({
      id: groupId,
      parentId: '0',
      code: group.code,
      name: group.name,
      alias: 'menu',
      path: group.path,
      source: group.source,
      sort: group.sort,
      category: 1,
      action: 0,
    });
    group.screens.forEach((screen, s) => {
      const screenId = String(BigInt(groupId) + BigInt(s + 1) * 100n);
      menus.push({
        id: screenId,
        parentId: groupId,
        code: screen.code,
        name: screen.name,
        alias: 'menu',
        path: screen.path,
        source: screen.source,
        sort: s + 1,
        category: 1,
        action: 0,
      });
      if (screen.platformOnly) platformOnly.add(screenId);
      const codes = permissionCodes(screen.code);
      const buttons: (readonly [string, string, number])[] = GENERIC_BUTTONS.filter(
        ([key]) => !screen.readOnly || key === 'view' || key === 'export',
      ).map(([key, name, action]) => [codes[key], name, action] as const);
      for (const [suffix, name] of screen.buttons ?? []) buttons.push([`${screen.code}_${suffix}`, name, 2]);
      buttons.forEach(([code, name, action], b) => {
        const id = String(BigInt(screenId) + BigInt(b + 1));
        menus.push({
          id,
          parentId: screenId,
          code,
          name,
          alias: code.slice(screen.code.length + 1),
          path: screen.path,
          source: '',
          sort: b + 1,
          category: 2,
          action,
        });
        if (screen.platformOnly) platformOnly.add(id);
      });
      const apiCodes = apiScopeCodes(screen.code);
      const screenScopes: [string, string, string][] = [
        [apiCodes.read, `${screen.name}查询`, `${screen.api}/{list,page,detail,tree,export}`],
        [apiCodes.write, `${screen.name}维护`, `${screen.api}/{submit,remove}`],
        ...(screen.scopes ?? []).map(
          ([suffix, name, path]) => [`${screen.code}:${suffix}`, name, path] as [string, string, string],
        ),
      ];
      screenScopes.forEach(([resourceCode, scopeName, scopePath], i) => {
        scopes.push({
          id: String(BigInt(screenId) + 50n + BigInt(i)),
          menuId: screenId,
          resourceCode,
          scopeName,
          scopePath,
          scopeType: 1,
        });
      });
    });
  });
  return { menus, scopes, platformOnly };
}

const built = build();
export const SEED_MENUS: readonly SeedMenu[] = built.menus;
export const SEED_API_SCOPES: readonly SeedApiScope[] = built.scopes;
/** Menu ids a new tenant's admin role is not granted. */
export const PLATFORM_ONLY_MENU_IDS: ReadonlySet<string> = built.platformOnly;
