import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { zipSync, strToU8 } from 'fflate';
import { apiScopeCodes, bilingual, codeResource, type GeneratedFile } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ResourceService } from '../../engine/resource-routes';
import { requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import { secretBoxFor } from '../../platform/crypto/secret-box';
import { code as codeTable, datasource } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import { requestLanguage } from '../../platform/http/request-language';
import { idValue, idsParam, paramOf, paramsOf, textParam } from '../../platform/http/request-params';
import { outboundPolicy } from '../../platform/net/outbound-policy';
import { columnRows, readCatalog, type Queryable } from './code-columns';
import { CodeProblem, definitionFile, readmeOf, type CodeColumn, type CodeConfig } from './code-source';
import { codeConfigFromFamily } from './family-code-config';
import { checkDestination, DatasourceMessages, withConnection } from './datasource-connect';
import { allowedPorts } from './datasource-rules';

const base = `/api${codeResource.api}`;
const scopes = { ...apiScopeCodes(codeResource.code), columns: 'code:columns', gen: 'code:gen', copy: 'code:copy' };

/** Most configurations one generation writes: a zip for a screen, not a data export. */
export const MAX_GENERATED = 20;

/** BladeX's `system` names the front end the templates target; this project has one. */
export const SUPPORTED_SYSTEMS = ['', 'mes'];

export const CodeMessages = {
  generated: { zh: '代码生成成功', en: 'Code generated' },
  readFailed: {
    zh: '读取表结构失败,请检查表名和数据源',
    en: 'The table could not be read: check the table name and the datasource',
  },
  badSystem: (system: string) => ({
    zh: `不支持的系统 ${JSON.stringify(system.slice(0, 32))},只支持 mes`,
    en: `Unsupported system ${JSON.stringify(system.slice(0, 32))}: only mes is supported`,
  }),
  copySuffix: '-副本',
} as const;

const text = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const int = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));

/** A configuration as the detail answers it, in the generator's shape. */
function configOf(row: Record<string, unknown>): CodeConfig {
  const columns = Array.isArray(row.columns) ? (row.columns as Record<string, unknown>[]) : [];
  return {
    codeName: text(row.codeName),
    codeNameEn: text(row.codeNameEn),
    tableName: text(row.tableName),
    tablePrefix: text(row.tablePrefix),
    pkName: text(row.pkName) || 'id',
    packageName: text(row.packageName),
    baseMode: Number(row.baseMode),
    menuGroup: text(row.menuGroup),
    menuSort: Number(row.menuSort ?? 0),
    menuIcon: text(row.menuIcon),
    apiPath: text(row.apiPath),
    webPath: text(row.webPath),
    columns: columns.map((c): CodeColumn => ({
      columnName: text(c.columnName),
      fieldName: text(c.fieldName),
      labelZh: text(c.labelZh),
      labelEn: text(c.labelEn),
      kind: text(c.kind),
      length: int(c.length),
      precision: int(c.precision),
      scale: int(c.scale),
      required: c.required === true,
      searchable: c.searchable === true,
      listed: c.listed === true,
      inForm: c.inForm === true,
      dictCode: text(c.dictCode),
    })),
  };
}

/** A column row as the submit takes it. */
const columnBody = (c: CodeColumn, id?: unknown) => ({ ...(id ? { id } : {}), ...c });

/**
 * The code generator (`/blade-develop/code`): configurations with their columns (the engine's
 * list, detail, submit, remove), reading a table's columns from a datasource, copying, and
 * generation as files (`gen-code`) or as a zip with a README (`download`). Platform only.
 */
export function registerCodeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service: ResourceService = registerResource(app, ctx, {
    def: codeResource,
    table: codeTable,
    hooks: { fromWire: codeConfigFromFamily },
  });

  /** Runs `work` on the configuration's datasource: its own, or the console's database. */
  async function onDatasource<T>(datasourceId: unknown, work: (db: Queryable) => Promise<T>): Promise<T> {
    const id = text(datasourceId);
    const guard = async <R>(run: () => Promise<R>): Promise<R> => {
      try {
        return await run();
      } catch (e) {
        if (e instanceof CodeProblem) throw badRequest(e.text);
        throw badRequest(CodeMessages.readFailed);
      }
    };
    if (!id || id === '0') return guard(() => work(ctx.database.pool as unknown as Queryable));
    const [saved] = await ctx.db
      .select({ url: datasource.url, username: datasource.username, password: datasource.password })
      .from(datasource)
      .where(and(eq(datasource.id, id), eq(datasource.isDeleted, 0)));
    if (!saved) throw badRequest(bilingual('rowNotFound'));
    let password = '';
    try {
      password = saved.password ? secretBoxFor(ctx.dataDir).open(saved.password) : '';
    } catch {
      throw badRequest(DatasourceMessages.undecryptable);
    }
    const rules = { policy: await outboundPolicy(ctx.db), ports: await allowedPorts(ctx.db) };
    const checked = await checkDestination({ url: saved.url, username: saved.username, password }, rules);
    if ('error' in checked) throw badRequest(checked.error);
    const answer = await guard(async () => withConnection(checked, (client) => work(client as unknown as Queryable)));
    if (!answer) throw badRequest(DatasourceMessages.cannotConnect);
    return answer.value;
  }

  /**
   * Fills the configuration's columns from its table: a column already configured keeps what
   * was edited (labels, kind, flags), a new one gets the defaults, one no longer in the table
   * goes. The primary key becomes `pkName`. Saved through the engine (checks, operation log).
   */
  app.post(`${base}/columns`, { config: { apiScope: scopes.columns } }, async (request) => {
    const auth = requireAuth(request);
    const id = idValue(paramOf(request, 'id'), 'id');
    const stored = await service.detail(id, auth);
    const { table, fresh } = await onDatasource(stored.datasourceId, async (db) => {
      const read = await readCatalog(db, text(stored.tableName));
      return { table: read, fresh: columnRows(read) };
    });
    const storedColumns = Array.isArray(stored.columns) ? (stored.columns as Record<string, unknown>[]) : [];
    const byName = new Map(storedColumns.map((c) => [text(c.columnName), c]));
    const kept = configOf({ columns: storedColumns }).columns;
    const columns = fresh.map((column) => {
      const before = byName.get(column.columnName);
      const edited = kept.find((c) => c.columnName === column.columnName);
      return before && edited ? columnBody(edited, before.id) : columnBody(column);
    });
    await service.submit({ id, pkName: table.primaryKey[0] ?? 'id', columns }, auth);
    return ok(await service.detail(id, auth));
  });

  /** A new configuration with the same settings and columns (BladeX `copy`). */
  app.post(`${base}/copy`, { config: { apiScope: scopes.copy } }, async (request) => {
    const auth = requireAuth(request);
    const stored = await service.detail(idValue(paramOf(request, 'id'), 'id'), auth);
    const config = configOf(stored);
    const { columns, ...settings } = config;
    const saved = await service.submit(
      {
        ...settings,
        datasourceId: stored.datasourceId ?? null,
        remark: text(stored.remark),
        codeName: `${config.codeName.slice(0, 64 - CodeMessages.copySuffix.length)}${CodeMessages.copySuffix}`,
        columns: columns.map((c) => columnBody(c)),
      },
      auth,
    );
    return ok(saved.id);
  });

  /** The files of the configurations `ids`, README first. */
  async function generate(request: Parameters<typeof requireAuth>[0], auth: AuthContext): Promise<GeneratedFile[]> {
    const params = paramsOf(request);
    const system = textParam(request, 'system')?.trim() ?? '';
    if (!SUPPORTED_SYSTEMS.includes(system)) throw badRequest(CodeMessages.badSystem(system));
    const ids = idsParam(params, 'ids', true, MAX_GENERATED);
    const configs: CodeConfig[] = [];
    for (const id of ids) configs.push(configOf(await service.detail(id, auth)));
    const files: GeneratedFile[] = [];
    try {
      for (const config of configs) {
        const file = await definitionFile(config);
        const twin = files.find((f) => f.path === file.path);
        if (twin)
          throw new CodeProblem({
            zh: `「${config.codeName}」生成的文件 ${file.path} 与另一个配置相同`,
            en: `"${config.codeName}" generates the file ${file.path}, as another configuration does`,
          });
        files.push(file);
      }
    } catch (e) {
      if (e instanceof CodeProblem) throw badRequest(e.text);
      throw e;
    }
    return [{ path: 'README.md', content: readmeOf(configs, files) }, ...files];
  }

  /**
   * BladeX writes the files into the server's folders; here they come back to the caller (the
   * preview shows them, `download` zips them), so no request ever writes to the server's disk.
   */
  app.post(`${base}/gen-code`, { config: { apiScope: scopes.gen } }, async (request) => {
    const auth = requireAuth(request);
    return ok(await generate(request, auth), CodeMessages.generated[requestLanguage(request)]);
  });

  app.get(`${base}/download`, { config: { apiScope: scopes.gen } }, async (request, reply) => {
    const auth = requireAuth(request);
    const files = await generate(request, auth);
    const zip = zipSync(Object.fromEntries(files.map((f) => [f.path, strToU8(f.content)])), { level: 6 });
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', 'attachment; filename="mes-code.zip"')
      .send(Buffer.from(zip));
  });
}
