import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import {
  CODE_BASE_MODES,
  CodeNamePatterns,
  GENERATED_FIELD_KINDS,
  MENU_GROUP_DEFS,
  REGISTRY,
  menuPathOf,
  systemDictionariesOf,
  toSnake,
  type BilingualText,
  type GeneratedFieldKind,
  type GeneratedFile,
} from '@mes/contracts';

/**
 * Writes the resource definition of a code-generator configuration: TypeScript in the shape
 * every hand-written definition has, formatted with the project's Prettier settings. Every name
 * and text that lands in the source is checked here first, whatever the form and submit checked
 * when it was saved; a fault is a `CodeProblem` naming the column.
 */

/** A configuration as stored (`blade_code` with its `columns`). */
export interface CodeConfig {
  codeName: string;
  codeNameEn: string;
  tableName: string;
  tablePrefix: string;
  pkName: string;
  packageName: string;
  baseMode: number;
  menuGroup: string;
  menuSort: number;
  menuIcon: string;
  apiPath: string;
  webPath: string;
  columns: CodeColumn[];
}

export interface CodeColumn {
  columnName: string;
  fieldName: string;
  labelZh: string;
  labelEn: string;
  kind: string;
  length: number | null;
  precision: number | null;
  scale: number | null;
  required: boolean;
  searchable: boolean;
  listed: boolean;
  inForm: boolean;
  dictCode: string;
}

/** Bad input for generation: the message names the configuration and the column. */
export class CodeProblem extends Error {
  constructor(readonly text: BilingualText) {
    super(text.zh);
  }
}

const problem = (zh: string, en: string) => new CodeProblem({ zh, en });

/** Columns the engine adds to every table of its kind (id, tenant, audit); never a field. */
export const ENGINE_COLUMNS = new Set([
  'id',
  'tenant_id',
  'create_user',
  'create_dept',
  'create_time',
  'update_user',
  'update_time',
  'status',
  'is_deleted',
]);

/** Field names the engine's replies already use for every row. */
const ENGINE_FIELDS = new Set([
  'id',
  'tenantId',
  'tenantName',
  'createUser',
  'createDept',
  'createTime',
  'updateUser',
  'updateTime',
  'status',
  'isDeleted',
  'parentName',
  'hasChildren',
  'children',
]);

const matches = (pattern: string, value: string) => new RegExp(pattern).test(value);

/** `gauge_code` → `gaugeCode`; `item_2nd` → `item2nd`. */
export const camelOf = (snake: string) => snake.replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** `gauge_calibration` → `gauge-calibration`. */
const kebabOf = (snake: string) => snake.replace(/_/g, '-');

/** The table without its schema. */
export const bareTable = (tableName: string) => tableName.split('.').pop() ?? tableName;

/** The resource's code: the table name without its schema and prefix (`mes_gauge` − `mes_` → `gauge`). */
export function entityOf(config: Pick<CodeConfig, 'tableName' | 'tablePrefix'>): string {
  const table = bareTable(config.tableName);
  const prefix = config.tablePrefix ?? '';
  return prefix && table.startsWith(prefix) && table.length > prefix.length ? table.slice(prefix.length) : table;
}

/** Where the definition lands and what it exports. */
export function namesOf(config: CodeConfig) {
  const code = entityOf(config);
  const exportName = `${camelOf(code)}Resource`;
  const file = `packages/contracts/src/definitions/${config.packageName}/${kebabOf(code)}.ts`;
  const group = MENU_GROUP_DEFS.find((g) => g.code === config.menuGroup);
  const webPath = config.webPath || `${group?.path ?? ''}/${kebabOf(code)}`;
  return { code, exportName, file, webPath, table: bareTable(config.tableName) };
}

/** A text that goes into a string literal: one line, no control characters, not blank. */
function checkText(value: string, what: BilingualText, max: number): void {
  if (!value.trim()) throw problem(`${what.zh}不能为空`, `${what.en} must not be empty`);
  if (value.length > max) throw problem(`${what.zh}最长 ${max} 个字符`, `${what.en} has at most ${max} characters`);
  // A control character (a line break, a NUL) in a label is a mistake, never a wanted label.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(value))
    throw problem(`${what.zh}不能包含换行或控制字符`, `${what.en} must not contain a line break or control character`);
}

/** A string literal for the source: JSON escaping is valid TypeScript; Prettier picks the quotes. */
const lit = (value: string) => JSON.stringify(value);

/** Checks a configuration against the rules of generated source and the live registry. */
export function checkConfig(config: CodeConfig): void {
  // Every refusal names the configuration first: several may be generated at once.
  const of = (zh: string, en: string) => problem(`「${config.codeName}」${zh}`, `"${config.codeName}": ${en}`);
  const named = { zh: `「${config.codeName}」`, en: `"${config.codeName}": ` };
  checkText(config.codeName, { zh: `${named.zh}模块名`, en: `${named.en}the module name` }, 64);
  checkText(config.codeNameEn, { zh: `${named.zh}英文名`, en: `${named.en}the English name` }, 64);
  if (!matches(CodeNamePatterns.tableName, config.tableName))
    throw of(`表名 ${config.tableName} 不合法`, `the table name ${config.tableName} is invalid`);
  if (!matches(CodeNamePatterns.packageName, config.packageName))
    throw of(`模块目录 ${config.packageName} 不合法`, `the module folder ${config.packageName} is invalid`);
  if (!matches(CodeNamePatterns.apiPath, config.apiPath))
    throw of(`接口路径 ${config.apiPath} 不合法`, `the API path ${config.apiPath} is invalid`);
  if (config.webPath && !matches(CodeNamePatterns.webPath, config.webPath))
    throw of(`页面路径 ${config.webPath} 不合法`, `the page path ${config.webPath} is invalid`);
  if (!matches(CodeNamePatterns.icon, config.menuIcon))
    throw of(`菜单图标 ${config.menuIcon} 不合法`, `the menu icon ${config.menuIcon} is invalid`);
  if (!MENU_GROUP_DEFS.some((g) => g.code === config.menuGroup))
    throw of(`菜单分组 ${config.menuGroup} 不存在`, `the menu group ${config.menuGroup} does not exist`);
  if (!Object.values(CODE_BASE_MODES).includes(config.baseMode as 1))
    throw of(`基础模式 ${config.baseMode} 不存在`, `the base mode ${config.baseMode} does not exist`);

  const { code, exportName, webPath, table } = namesOf(config);
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(code) || code.endsWith('_'))
    throw of(
      `去掉前缀后的表名 ${code} 不能作为资源编码(应以小写字母开头)`,
      `the table name without its prefix, ${code}, cannot be a resource code (it must start with a lowercase letter)`,
    );
  for (const entry of REGISTRY) {
    const owner = { zh: `「${entry.title.zh}」`, en: `"${entry.title.en}"` };
    if (entry.code === code)
      throw of(`资源编码 ${code} 已被${owner.zh}使用`, `the resource code ${code} is already used by ${owner.en}`);
    if ('table' in entry && entry.table === table)
      throw of(`表 ${table} 已属于${owner.zh}`, `the table ${table} already belongs to ${owner.en}`);
    if ('api' in entry && entry.api === config.apiPath)
      throw of(
        `接口路径 ${config.apiPath} 已被${owner.zh}使用`,
        `the API path ${config.apiPath} is already used by ${owner.en}`,
      );
    if (menuPathOf(entry) === webPath)
      throw of(`页面路径 ${webPath} 已被${owner.zh}使用`, `the page path ${webPath} is already used by ${owner.en}`);
  }
  if (!/^[a-z][A-Za-z0-9]*$/.test(exportName))
    throw of(`导出名 ${exportName} 不合法`, `the export name ${exportName} is invalid`);

  if (!config.columns.length) throw of('没有字段,请先读取字段', 'there are no fields: read the fields first');
  const dictionaries = new Set(systemDictionariesOf(REGISTRY).map((d) => d.code));
  const fieldNames = new Set<string>();
  const columnNames = new Set<string>();
  for (const column of config.columns) {
    const at = (zh: string, en: string) => of(`列 ${column.columnName}${zh}`, `the column ${column.columnName}${en}`);
    if (!matches(CodeNamePatterns.sqlName, column.columnName))
      throw of(
        `列 ${JSON.stringify(column.columnName)} 不是合法的列名(小写字母、数字和下划线)`,
        `the column ${JSON.stringify(column.columnName)} is not a valid column name (lowercase letters, digits and _)`,
      );
    if (ENGINE_COLUMNS.has(column.columnName) || column.columnName === config.pkName)
      throw at(
        ' 由引擎生成(主键、租户或审计字段),请删除这一行',
        ' is made by the engine (primary key, tenant or audit field): delete this row',
      );
    if (!matches(CodeNamePatterns.fieldName, column.fieldName))
      throw at(
        ` 的属性名 ${JSON.stringify(column.fieldName)} 不是合法的标识符(小写字母开头的驼峰命名)`,
        ` has the property name ${JSON.stringify(column.fieldName)}, which is not a valid identifier (camelCase starting with a lowercase letter)`,
      );
    if (ENGINE_FIELDS.has(column.fieldName))
      throw at(
        ` 的属性名 ${column.fieldName} 是引擎保留的名称`,
        ` has the property name ${column.fieldName}, which the engine reserves`,
      );
    if (fieldNames.has(column.fieldName))
      throw at(` 的属性名 ${column.fieldName} 重复`, ` repeats the property name ${column.fieldName}`);
    if (columnNames.has(column.columnName)) throw at(' 重复', ' appears twice');
    fieldNames.add(column.fieldName);
    columnNames.add(column.columnName);
    const label = { zh: `${named.zh}列 ${column.columnName}`, en: `${named.en}the column ${column.columnName}` };
    checkText(column.labelZh, { zh: `${label.zh} 的中文名`, en: `${label.en}'s Chinese name` }, 64);
    checkText(column.labelEn, { zh: `${label.zh} 的英文名`, en: `${label.en}'s English name` }, 64);
    if (!(GENERATED_FIELD_KINDS as readonly string[]).includes(column.kind))
      throw at(` 的类型 ${column.kind} 不支持`, ` has the unsupported type ${column.kind}`);
    if (column.dictCode) {
      if (!dictionaries.has(column.dictCode))
        throw at(
          ` 的字典 ${column.dictCode} 不是已声明的系统字典`,
          ` uses the dictionary ${column.dictCode}, which is not a declared system dictionary`,
        );
      if (column.kind !== 'int' && column.kind !== 'string')
        throw at(' 使用字典时类型应为整数或字符串', ' uses a dictionary, so its type must be integer or string');
    }
    if (
      column.kind === 'decimal' &&
      column.precision !== null &&
      column.scale !== null &&
      column.scale > column.precision
    )
      throw at(' 的小数位不能大于精度', ' has more decimal places than its precision');
  }
  for (const column of config.columns)
    if (column.dictCode && fieldNames.has(`${column.fieldName}Name`))
      throw of(
        `列 ${column.columnName} 的字典名称 ${column.fieldName}Name 与另一属性重名`,
        `the column ${column.columnName}'s dictionary name ${column.fieldName}Name is the name of another property`,
      );
}

/** The properties of one field, in the order hand-written definitions use. */
function fieldSource(column: CodeColumn): string {
  const kind = column.kind as GeneratedFieldKind;
  const parts = [`kind: ${lit(kind)}`, `label: { zh: ${lit(column.labelZh)}, en: ${lit(column.labelEn)} }`];
  if (toSnake(column.fieldName) !== column.columnName) parts.push(`column: ${lit(column.columnName)}`);
  if (kind === 'string') parts.push(`max: ${column.length ?? 255}`);
  if (kind === 'decimal') {
    if (column.precision !== null) parts.push(`precision: ${column.precision}`);
    if (column.scale !== null) parts.push(`scale: ${column.scale}`);
  }
  if (column.required && kind !== 'boolean') parts.push('required: true');
  // An empty number is no number, not 0.
  else if (kind === 'int' || kind === 'decimal') parts.push('nullable: true');
  if (column.dictCode) parts.push(`options: { dict: ${lit(column.dictCode)} }`);
  if (column.searchable) parts.push('search: true');
  const listedByDefault = kind !== 'text' && kind !== 'json' && column.inForm;
  if (column.listed !== listedByDefault) parts.push(`list: ${column.listed}`);
  if (!column.inForm) parts.push('form: false');
  return `${column.fieldName}: { ${parts.join(', ')} },`;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The project's root, where `.prettierrc` is found. */
const ROOT = path.resolve(here, '../../../../..');

/** The definition file of a configuration, formatted as the project formats its own. */
export async function definitionFile(config: CodeConfig): Promise<GeneratedFile> {
  checkConfig(config);
  const { code, exportName, file, webPath, table } = namesOf(config);
  const owner = config.baseMode === CODE_BASE_MODES.platformAudited ? 'platform' : 'tenant';
  const menu = [
    `group: ${lit(config.menuGroup)}`,
    `sort: ${config.menuSort}`,
    `icon: ${lit(config.menuIcon)}`,
    `path: ${lit(webPath)}`,
    ...(owner === 'platform' ? ['platformOnly: true'] : []),
  ];
  const source = [
    "import { defineResource } from '../../engine/define';",
    '',
    `/** Generated by the code generator from the table ${table}. */`,
    `export const ${exportName} = defineResource({`,
    `code: ${lit(code)},`,
    `title: { zh: ${lit(config.codeName)}, en: ${lit(config.codeNameEn)} },`,
    `table: ${lit(table)},`,
    `api: ${lit(config.apiPath)},`,
    `owner: ${lit(owner)},`,
    ...(config.baseMode === CODE_BASE_MODES.tenantPlain ? ['audit: false,'] : []),
    `menu: { ${menu.join(', ')} },`,
    'fields: {',
    ...config.columns.map(fieldSource),
    '},',
    '});',
    '',
  ].join('\n');
  const absolute = path.join(ROOT, file);
  const options = (await resolveConfig(absolute)) ?? {};
  return { path: file, content: await format(source, { ...options, filepath: absolute }) };
}

/** The README of a download: where each file goes and what to run. */
export function readmeOf(configs: CodeConfig[], files: GeneratedFile[]): string {
  const lines = [
    '# Generated code',
    '',
    'Copy each file to the same path in the MES Console project, then run',
    '',
    '```sh',
    'npm run db:generate',
    '```',
    '',
    'It adds each definition to the registry (`packages/contracts/src/definitions/definitions.ts`),',
    'its table to the schema (`apps/server/src/platform/db/schema/resource-tables.ts`) and writes the',
    'migration into `apps/server/drizzle/`; give the migration file and its journal tag a meaningful name.',
    'Nothing else is needed: on the next start the server serves the routes, seeds the menu with its',
    'buttons and API scopes, and the web app shows the generic screen (docs/resources.md).',
    '',
    '| File | Resource | Table | API | Screen |',
    '| ---- | -------- | ----- | --- | ------ |',
  ];
  configs.forEach((config, i) => {
    const { code, webPath, table } = namesOf(config);
    lines.push(
      `| \`${files[i]?.path ?? ''}\` | \`${code}\` | \`${table}\` | \`/api${config.apiPath}\` | \`${webPath}\` |`,
    );
  });
  lines.push(
    '',
    'The migration creates each table in the console database: a table of that name must not exist',
    'there yet (when the configuration read it from the console database itself, rename or drop it first).',
    '',
  );
  return lines.join('\n');
}
