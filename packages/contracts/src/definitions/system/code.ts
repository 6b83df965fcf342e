import { defineResource, type FieldDef, type LocalText, type PatternRule, type ResourceDef } from '../../engine/define';
import { MENU_GROUP_DEFS } from '../../engine/menu-groups';
import { remarkField } from '../common-fields';
import { datasourceResource } from './datasource';

/**
 * The code generator's configurations (`/blade-develop/code`, BladeX's `blade_code`): which table
 * of which datasource becomes which resource definition, and its columns as they will be
 * generated. Generation writes one definition file (docs/code-generator.md).
 */

/** The field kinds the generator writes; `reference`, `ids` and `secret` need a person's choice. */
export const GENERATED_FIELD_KINDS = [
  'string',
  'text',
  'int',
  'decimal',
  'boolean',
  'id',
  'date',
  'datetime',
  'json',
] as const;
export type GeneratedFieldKind = (typeof GENERATED_FIELD_KINDS)[number];

const KIND_LABELS: Record<GeneratedFieldKind, LocalText> = {
  string: { zh: '字符串', en: 'String' },
  text: { zh: '长文本', en: 'Text' },
  int: { zh: '整数', en: 'Integer' },
  decimal: { zh: '小数', en: 'Decimal' },
  boolean: { zh: '是否', en: 'Boolean' },
  id: { zh: '编号(64 位)', en: 'Id (64-bit)' },
  date: { zh: '日期', en: 'Date' },
  datetime: { zh: '时间', en: 'Date and time' },
  json: { zh: 'JSON', en: 'JSON' },
};

/**
 * What lands in generated source as a name is one of these shapes, checked in the form, on
 * submit and again when the source is written (the server's messages name the column).
 */
export const CodeNamePatterns = {
  /** A SQL column or table name the generator can use as is: lower case, digits, `_`. */
  sqlName: '^[a-z_][a-z0-9_]{0,62}$',
  /** A table, optionally with its schema. */
  tableName: '^([a-z_][a-z0-9_]{0,62}\\.)?[a-z_][a-z0-9_]{0,62}$',
  /** A field of the definition: a TypeScript identifier in camelCase. */
  fieldName: '^[a-z][A-Za-z0-9]{0,62}$',
  /** A folder under `packages/contracts/src/definitions/`. */
  packageName: '^[a-z][a-z0-9-]{0,31}$',
  /** `/mes/gauge`: two or three lower-case segments. */
  apiPath: '^(/[a-z][a-z0-9-]{0,31}){2,3}$',
  /** `/business/gauge`: one to three lower-case segments. */
  webPath: '^(/[a-z][a-z0-9-]{0,31}){1,3}$',
  /** A system dictionary code. */
  dictCode: '^[a-z][a-z0-9_]{0,63}$',
  icon: '^[a-z][a-z0-9-]{0,31}$',
} as const;

const rule = (regex: string, zh: string, en: string): PatternRule => ({ regex, message: { zh, en } });

/** Base mode (BladeX `baseMode`): who owns the generated rows and whether they carry audit columns. */
export const CODE_BASE_MODES = {
  /** `owner: 'tenant'`, audit columns. */
  tenantAudited: 1,
  /** `owner: 'platform'`, audit columns. */
  platformAudited: 2,
  /** `owner: 'tenant'`, no audit columns (`audit: false`). */
  tenantPlain: 3,
} as const;

const yesNo = (label: LocalText, extra: Partial<FieldDef> = {}): FieldDef => ({
  kind: 'boolean',
  label,
  default: false,
  width: 70,
  ...extra,
});

/** One column of a configuration: what it becomes in the generated definition. */
export const codeColumnResource = defineResource({
  code: 'code_column',
  title: { zh: '字段配置', en: 'Columns' },
  table: 'blade_code_column',
  api: '/blade-develop/code-column',
  owner: 'platform',
  operations: [],
  fields: {
    codeId: { kind: 'id', label: { zh: '代码配置', en: 'Configuration' }, form: false, list: false },
    columnName: {
      kind: 'string',
      label: { zh: '列名', en: 'Column' },
      max: 63,
      required: true,
      pattern: rule(
        CodeNamePatterns.sqlName,
        '列名只能包含小写字母、数字和下划线,且不以数字开头',
        'A column name holds lower-case letters, digits and _, and does not start with a digit',
      ),
      width: 140,
    },
    fieldName: {
      kind: 'string',
      label: { zh: '属性名', en: 'Field' },
      max: 63,
      required: true,
      pattern: rule(
        CodeNamePatterns.fieldName,
        '属性名应为小写字母开头的驼峰标识符(如 gaugeCode)',
        'A field name is a camelCase identifier starting with a lower-case letter (e.g. gaugeCode)',
      ),
      width: 140,
    },
    labelZh: { kind: 'string', label: { zh: '中文名', en: 'Label (zh)' }, max: 64, required: true, width: 120 },
    labelEn: { kind: 'string', label: { zh: '英文名', en: 'Label (en)' }, max: 64, required: true, width: 120 },
    kind: {
      kind: 'string',
      label: { zh: '类型', en: 'Kind' },
      max: 16,
      required: true,
      default: 'string',
      options: { items: GENERATED_FIELD_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] })) },
      pattern: rule(`^(${GENERATED_FIELD_KINDS.join('|')})$`, '类型不正确', 'Unknown kind'),
      width: 110,
    },
    length: {
      kind: 'int',
      label: { zh: '长度', en: 'Length' },
      range: [1, 10485760],
      nullable: true,
      width: 80,
    },
    precision: { kind: 'int', label: { zh: '精度', en: 'Precision' }, range: [1, 38], nullable: true, width: 70 },
    scale: { kind: 'int', label: { zh: '小数位', en: 'Scale' }, range: [0, 38], nullable: true, width: 70 },
    required: yesNo({ zh: '必填', en: 'Required' }),
    searchable: yesNo({ zh: '查询', en: 'Search' }),
    listed: yesNo({ zh: '列表', en: 'List' }, { default: true }),
    inForm: yesNo({ zh: '表单', en: 'Form' }, { default: true }),
    dictCode: {
      kind: 'string',
      label: { zh: '字典', en: 'Dictionary' },
      max: 64,
      pattern: rule(
        CodeNamePatterns.dictCode,
        '字典编码只能包含小写字母、数字和下划线',
        'A dictionary code holds lower-case letters, digits and _',
      ),
      width: 120,
    },
    sort: { kind: 'int', label: { zh: '顺序', en: 'Order' }, form: false, default: 0 },
  },
  indexes: [{ fields: ['codeId'] }],
});

/** A code-generator configuration (BladeX `blade_code`) with its columns. */
export const codeResource = defineResource({
  code: 'code',
  title: { zh: '代码生成', en: 'Code generator' },
  table: 'blade_code',
  api: '/blade-develop/code',
  menu: {
    group: 'tool',
    sort: 2,
    icon: 'code',
    platformOnly: true,
    buttons: [
      { action: 'columns', name: { zh: '读取字段', en: 'Read columns' } },
      { action: 'gen', name: { zh: '代码生成', en: 'Generate' }, position: 3 },
      { action: 'copy', name: { zh: '复制', en: 'Copy' } },
    ],
    scopes: [
      { action: 'columns', name: '代码生成读取字段', path: '/api/blade-develop/code/columns' },
      {
        action: 'gen',
        name: '代码生成',
        path: '/api/blade-develop/code/{gen-code,download}',
      },
      { action: 'copy', name: '代码生成复制', path: '/api/blade-develop/code/copy' },
    ],
    dictionaries: [
      {
        code: 'code_base_mode',
        name: '代码生成基础模式',
        entries: [
          [String(CODE_BASE_MODES.tenantAudited), '租户数据,含审计字段', 'Tenant rows with audit columns'],
          [String(CODE_BASE_MODES.platformAudited), '平台数据,含审计字段', 'Platform rows with audit columns'],
          [String(CODE_BASE_MODES.tenantPlain), '租户数据,无审计字段', 'Tenant rows without audit columns'],
        ],
      },
    ],
  },
  owner: 'platform',
  operations: ['list', 'detail', 'submit', 'remove'],
  dialogWidth: 1280,
  fields: {
    codeName: {
      kind: 'string',
      label: { zh: '模块名', en: 'Title (zh)' },
      max: 64,
      required: true,
      search: true,
      width: 140,
    },
    codeNameEn: {
      kind: 'string',
      label: { zh: '英文名', en: 'Title (en)' },
      max: 64,
      required: true,
      // Says what to fill: the family's form has no such field, and 英文名 alone names no place.
      requiredMessage: {
        zh: '请输入模块的英文名称(菜单和页面的英文标题,如 Gauges)',
        en: 'Please enter the English title of the module (its menu and screen title, e.g. Gauges)',
      },
      width: 140,
    },
    datasourceId: {
      kind: 'reference',
      label: { zh: '数据源', en: 'Datasource' },
      // None: the console's own database.
      reference: { to: (): ResourceDef => datasourceResource, label: 'name' },
      width: 120,
    },
    tableName: {
      kind: 'string',
      label: { zh: '表名', en: 'Table' },
      max: 127,
      required: true,
      search: true,
      pattern: rule(
        CodeNamePatterns.tableName,
        '表名只能包含小写字母、数字和下划线(可带模式名,如 public.mes_gauge)',
        'A table name holds lower-case letters, digits and _ (optionally schema.table)',
      ),
      width: 140,
    },
    tablePrefix: {
      kind: 'string',
      label: { zh: '表前缀', en: 'Table prefix' },
      max: 32,
      pattern: rule(
        '^[a-z0-9_]*$',
        '表前缀只能包含小写字母、数字和下划线',
        'A prefix holds lower-case letters, digits and _',
      ),
      list: false,
    },
    pkName: {
      kind: 'string',
      label: { zh: '主键名', en: 'Primary key' },
      max: 63,
      default: 'id',
      pattern: rule(
        CodeNamePatterns.sqlName,
        '主键名只能包含小写字母、数字和下划线',
        'A key name holds lower-case letters, digits and _',
      ),
      list: false,
    },
    packageName: {
      kind: 'string',
      label: { zh: '模块目录', en: 'Area folder' },
      max: 32,
      required: true,
      default: 'business',
      pattern: rule(
        CodeNamePatterns.packageName,
        '模块目录只能包含小写字母、数字和 -,且以字母开头',
        'An area folder holds lower-case letters, digits and -, starting with a letter',
      ),
      width: 100,
    },
    baseMode: {
      kind: 'int',
      label: { zh: '基础模式', en: 'Base mode' },
      required: true,
      default: CODE_BASE_MODES.tenantAudited,
      options: { dict: 'code_base_mode' },
      list: false,
    },
    menuGroup: {
      kind: 'string',
      label: { zh: '菜单分组', en: 'Menu group' },
      max: 32,
      required: true,
      default: 'business',
      options: { items: MENU_GROUP_DEFS.map((g) => ({ value: g.code, label: g.title })) },
      pattern: rule(`^(${MENU_GROUP_DEFS.map((g) => g.code).join('|')})$`, '菜单分组不存在', 'Unknown menu group'),
      width: 100,
    },
    menuSort: {
      kind: 'int',
      label: { zh: '菜单排序', en: 'Menu position' },
      range: [0, 9999],
      default: 50,
      list: false,
    },
    menuIcon: {
      kind: 'string',
      label: { zh: '菜单图标', en: 'Menu icon' },
      max: 32,
      default: 'table',
      pattern: rule(
        CodeNamePatterns.icon,
        '图标名只能包含小写字母、数字和 -',
        'An icon name holds lower-case letters, digits and -',
      ),
      list: false,
    },
    apiPath: {
      kind: 'string',
      label: { zh: '接口路径', en: 'API path' },
      max: 100,
      required: true,
      pattern: rule(
        CodeNamePatterns.apiPath,
        '接口路径应为两到三段小写路径,如 /mes/gauge',
        'An API path has two or three lower-case segments, e.g. /mes/gauge',
      ),
      width: 140,
    },
    webPath: {
      kind: 'string',
      label: { zh: '页面路径', en: 'Screen path' },
      max: 100,
      pattern: rule(
        CodeNamePatterns.webPath,
        '页面路径应为一到三段小写路径,如 /business/gauge(留空则为 分组路径/资源编码)',
        'A screen path has one to three lower-case segments, e.g. /business/gauge (empty: group path/resource code)',
      ),
      list: false,
    },
    remark: remarkField(),
  },
  children: {
    columns: {
      resource: () => codeColumnResource,
      parentField: 'codeId',
      orderField: 'sort',
      label: { zh: '字段', en: 'Columns' },
      max: 200,
      unique: {
        fields: ['fieldName'],
        message: { zh: '属性名重复', en: 'The field name is used twice' },
      },
    },
  },
  defaultSort: [{ field: 'codeName' }],
});

/** One file `gen-code` answers (the preview lists them; the zip holds them). */
export interface GeneratedFile {
  /** From the project's root, with `/`. */
  path: string;
  content: string;
}
