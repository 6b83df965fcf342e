import { CODE_BASE_MODES, CodeNamePatterns } from '@mes/contracts';

/**
 * Code-generator configurations in the BladeX family's shape (Saber's 代码生成 form, SpringBlade's
 * `blade_code`). The family generates Java and Vue into folders: its `packageName` is a Java
 * package (`org.springblade.desk`), `apiPath` / `webPath` are output folders on the developer's
 * disk, `serviceName` names the microservice, `baseMode` / `wrapMode` are yes (1) / no (2), and it
 * has no English title. Ours writes one resource definition (docs/code-generator.md), so such a
 * body is read as the closest configuration of ours instead of being refused field by field:
 *
 * - `codeNameEn` (absent): from the table name without its prefix, `blade_notice` → `Notice`;
 * - `packageName`: the Java package's last segment, `org.springblade.desk` → `desk`;
 * - `apiPath` (a folder): `/<serviceName>/<table without prefix>`, `/blade-desk/notice`;
 * - `webPath` (a folder): empty, i.e. the menu group's path and the resource's code;
 * - `baseMode` 1 (base entity: tenant and audit columns) stays 1, 2 (plain entity) becomes
 *   tenant rows without audit columns (3);
 * - `serviceName` and `wrapMode` are not kept (every generated definition answers display names).
 *
 * What still does not fit (a table name with capitals, say) is answered by the usual checks, each
 * message naming its field. A body of our own shape passes unchanged.
 */
export function codeConfigFromFamily(body: Record<string, unknown>): Record<string, unknown> {
  if (!isFamilyShape(body)) return body;
  const ours = { ...body };
  const serviceName = text(ours.serviceName);
  delete ours.serviceName;
  delete ours.wrapMode;
  const entity = entityOf(text(body.tableName), text(body.tablePrefix));

  // From the table name even when it is not one we can use: its own check then names it.
  const title = titleOf(entity || looseEntityOf(text(body.tableName), text(body.tablePrefix)));
  if (!text(ours.codeNameEn) && title) ours.codeNameEn = title;

  const javaPackage = text(ours.packageName);
  if (javaPackage.includes('.')) ours.packageName = (javaPackage.split('.').pop() ?? '').toLowerCase();

  if (!matches(CodeNamePatterns.apiPath, text(ours.apiPath)) && entity) {
    const service = matches(SEGMENT, serviceName) ? serviceName : text(ours.packageName);
    const path = `/${service}/${entity.replace(/_/g, '-')}`;
    // Left as sent when no path can be made of it: the check then names the API path.
    if (matches(CodeNamePatterns.apiPath, path)) ours.apiPath = path;
  }
  if (!matches(CodeNamePatterns.webPath, text(ours.webPath))) ours.webPath = '';

  if (text(ours.baseMode) === String(FAMILY_NO)) ours.baseMode = CODE_BASE_MODES.tenantPlain;
  return ours;
}

/** The family's yes_no dictionary: 1 yes, 2 no. */
const FAMILY_NO = 2;
/** One segment of our API path. */
const SEGMENT = '^[a-z][a-z0-9-]{0,31}$';

/** Only the family's form sends these: its service name, its wrapper switch, a Java package. */
function isFamilyShape(body: Record<string, unknown>): boolean {
  return 'serviceName' in body || 'wrapMode' in body || text(body.packageName).includes('.');
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
const matches = (pattern: string, value: string) => new RegExp(pattern).test(value);

/** The table's name without its schema and prefix, when it is one of ours to use: `blade_notice` → `notice`. */
function entityOf(tableName: string, prefix: string): string {
  const bare = tableName.includes('.') ? (tableName.split('.').pop() ?? '') : tableName;
  const name = prefix && bare.startsWith(prefix) && bare.length > prefix.length ? bare.slice(prefix.length) : bare;
  return matches('^[a-z][a-z0-9_]{0,31}$', name) ? name : '';
}

/** The table's name without its prefix, whatever its characters: `Blade Notice` → `Blade Notice`. */
function looseEntityOf(tableName: string, prefix: string): string {
  return prefix && tableName.startsWith(prefix) ? tableName.slice(prefix.length) : tableName;
}

/** `gauge_log` → `Gauge log` (at most the field's 64 characters). */
function titleOf(entity: string): string {
  const words = entity
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .join(' ')
    .slice(0, 64);
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}
