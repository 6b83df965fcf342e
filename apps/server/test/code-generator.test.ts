import { strFromU8, unzipSync } from 'fflate';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';
import { allowLoopback, setParam } from './support/params';

let t: TestApp;
let admin: string;

const API = '/api/blade-develop/code';

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  await t.ctx.database.pool.query(`
    create table demo_gauge (
      id bigint primary key,
      gauge_code varchar(32) not null,
      gauge_name varchar(64) not null,
      kind integer,
      size_mm numeric(8, 3),
      active boolean not null default true,
      bought_on date,
      checked_at timestamptz,
      notes text,
      extra jsonb,
      owner_id bigint,
      item_2nd varchar(10),
      tenant_id varchar(12),
      create_time timestamptz
    );
    comment on column demo_gauge.gauge_code is '量具编号';
    comment on column demo_gauge.gauge_name is '量具名称';
    create table demo_odd ("Bad Col" text, ok_col text);
  `);
}, 120_000);
afterAll(() => t.close());

const post = (url: string, payload?: Record<string, unknown>) => t.as(admin, { method: 'POST', url, payload });
const get = (url: string) => t.as(admin, { method: 'GET', url });

const gaugeConfig = {
  codeName: '量具管理',
  codeNameEn: 'Gauges',
  tableName: 'demo_gauge',
  tablePrefix: 'demo_',
  packageName: 'mes',
  baseMode: 1,
  menuGroup: 'business',
  apiPath: '/mes/gauge',
};

async function saved(body: Record<string, unknown>): Promise<string> {
  const res = await post(`${API}/submit`, body);
  expect(res.json(), res.body).toMatchObject({ success: true });
  return res.json().data as string;
}

type Column = Record<string, unknown> & { columnName: string };

/** Parses TypeScript and answers its syntax errors (none for valid source). */
const syntaxErrors = (source: string) => {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) => d.messageText);
};

describe('code generator', () => {
  let id: string;

  it('reads the columns of a table of the console database, mapping types and comments', async () => {
    id = await saved(gaugeConfig);
    const res = await post(`${API}/columns?id=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json().data as { pkName: string; columns: Column[] };
    expect(detail.pkName).toBe('id');
    const byName = Object.fromEntries(detail.columns.map((c) => [c.columnName, c]));
    // The key and the columns the engine adds are left out.
    expect(Object.keys(byName)).toEqual([
      'gauge_code',
      'gauge_name',
      'kind',
      'size_mm',
      'active',
      'bought_on',
      'checked_at',
      'notes',
      'extra',
      'owner_id',
      'item_2nd',
    ]);
    expect(byName.gauge_code).toMatchObject({
      fieldName: 'gaugeCode',
      labelZh: '量具编号',
      labelEn: 'Gauge code',
      kind: 'string',
      length: 32,
      required: true,
      searchable: true,
    });
    expect(byName.kind).toMatchObject({ kind: 'int', required: false, labelZh: 'Kind' });
    expect(byName.size_mm).toMatchObject({ kind: 'decimal', precision: 8, scale: 3 });
    expect(byName.active).toMatchObject({ kind: 'boolean', required: false });
    expect(byName.bought_on).toMatchObject({ kind: 'date' });
    expect(byName.checked_at).toMatchObject({ kind: 'datetime' });
    expect(byName.notes).toMatchObject({ kind: 'text', listed: false });
    expect(byName.extra).toMatchObject({ kind: 'json', listed: false });
    expect(byName.owner_id).toMatchObject({ kind: 'id', fieldName: 'ownerId' });
    expect(byName.item_2nd).toMatchObject({ kind: 'string', fieldName: 'item2nd', length: 10 });
  });

  it('keeps edited columns when the columns are read again', async () => {
    const detail = (await get(`${API}/detail?id=${id}`)).json().data as { columns: Column[] };
    const columns = detail.columns.map((c) =>
      c.columnName === 'kind' ? { ...c, labelZh: '类型', labelEn: 'Kind\'s \\ "type"', dictCode: 'yes_no' } : c,
    );
    await saved({ id, columns });
    const again = (await post(`${API}/columns?id=${id}`)).json().data as { columns: Column[] };
    expect(again.columns.find((c) => c.columnName === 'kind')).toMatchObject({
      labelZh: '类型',
      labelEn: 'Kind\'s \\ "type"',
      dictCode: 'yes_no',
    });
    expect(again.columns).toHaveLength(11);
  });

  it('generates the definition file and a README, with literals escaped and Prettier formatting', async () => {
    const res = await post(`${API}/gen-code?ids=${id}&system=mes`);
    expect(res.statusCode, res.body).toBe(200);
    const files = res.json().data as { path: string; content: string }[];
    expect(files.map((f) => f.path)).toEqual(['README.md', 'packages/contracts/src/definitions/mes/gauge.ts']);
    const source = files[1]?.content ?? '';
    expect(syntaxErrors(source)).toEqual([]);
    expect(source).toContain('export const gaugeResource = defineResource({');
    expect(source).toContain("code: 'gauge',");
    expect(source).toContain("table: 'demo_gauge',");
    expect(source).toContain("owner: 'tenant',");
    expect(source).toContain("options: { dict: 'yes_no' }");
    expect(source).toContain(`en: 'Kind\\'s \\\\ "type"'`);
    expect(source).toContain("column: 'item_2nd'");
    expect(source).toContain('precision: 8,');
    expect(files[0]?.content).toContain('npm run db:generate');
    expect(files[0]?.content).toContain('`packages/contracts/src/definitions/mes/gauge.ts`');

    const zip = await t.as(admin, { method: 'GET', url: `${API}/download?ids=${id}` });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Object.keys(entries).sort()).toEqual(['README.md', 'packages/contracts/src/definitions/mes/gauge.ts']);
    expect(strFromU8(entries['packages/contracts/src/definitions/mes/gauge.ts'] as Uint8Array)).toBe(source);
  });

  it('copies a configuration with its columns', async () => {
    const res = await post(`${API}/copy?id=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const copy = (await get(`${API}/detail?id=${res.json().data}`)).json().data as Record<string, unknown>;
    expect(copy).toMatchObject({ codeName: '量具管理-副本', tableName: 'demo_gauge', apiPath: '/mes/gauge' });
    expect((copy.columns as Column[]).map((c) => c.columnName)).toHaveLength(11);
    // Both configurations would write the same file: generating them together is refused.
    const both = await post(`${API}/gen-code?ids=${id},${res.json().data}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().msg).toContain('packages/contracts/src/definitions/mes/gauge.ts');
  });

  it('refuses what cannot become source with a 400 naming the column', async () => {
    /** Saves the configuration with one column changed, as the edit dialog would. */
    const withColumn = async (columnName: string, patch: Record<string, unknown>) => {
      const detail = (await get(`${API}/detail?id=${id}`)).json().data as { columns: Column[] };
      const columns = detail.columns.map((c) => (c.columnName === columnName ? { ...c, ...patch } : c));
      return post(`${API}/submit`, { id, columns });
    };
    await withColumn('notes', { labelZh: '备注\n*/ x' });
    const broken = await post(`${API}/gen-code?ids=${id}`);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().msg).toBe('「量具管理」列 notes 的中文名不能包含换行或控制字符');
    await withColumn('notes', { labelZh: '备注' });

    const refused = await withColumn('notes', { fieldName: 'not-valid' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toMatch(/^「字段」第 8 行: 属性名应为/);

    await withColumn('notes', { fieldName: 'createTime' });
    const reserved = await post(`${API}/gen-code?ids=${id}`);
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().msg).toContain('列 notes 的属性名 createTime 是引擎保留的名称');
    await withColumn('notes', { fieldName: 'notes', dictCode: 'no_such' });
    const dict = await post(`${API}/gen-code?ids=${id}`);
    expect(dict.json().msg).toContain('列 notes 的字典 no_such 不是已声明的系统字典');
    await withColumn('notes', { dictCode: '' });
    expect((await post(`${API}/gen-code?ids=${id}`)).statusCode).toBe(200);

    const odd = await saved({ ...gaugeConfig, codeName: '怪表', tableName: 'demo_odd', apiPath: '/mes/odd' });
    const oddColumns = await post(`${API}/columns?id=${odd}`);
    expect(oddColumns.statusCode).toBe(400);
    expect(oddColumns.json().msg).toContain('列 "Bad Col" 的名称不能用于生成代码');

    const missing = await saved({ ...gaugeConfig, codeName: '无表', tableName: 'no_such_table', apiPath: '/mes/none' });
    const noTable = await post(`${API}/columns?id=${missing}`);
    expect(noTable.statusCode).toBe(400);
    expect(noTable.json().msg).toBe('表 no_such_table 不存在,或当前账号无权读取');
  });

  it('refuses a resource the registry already has, an unknown system, and missing ids', async () => {
    const taken = await saved({ ...gaugeConfig, codeName: '车辆', tableName: 'blade_car', tablePrefix: 'blade_' });
    await post(`${API}/columns?id=${taken}`);
    const clash = await post(`${API}/gen-code?ids=${taken}`);
    expect(clash.statusCode).toBe(400);
    expect(clash.json().msg).toContain('资源编码 car 已被「车辆管理」使用');

    const system = await post(`${API}/gen-code?ids=${id}&system=saber`);
    expect(system.statusCode).toBe(400);
    expect(system.json().msg).toContain('不支持的系统 "saber"');
    expect((await post(`${API}/gen-code`)).statusCode).toBe(400);
    expect((await get(`${API}/download`)).statusCode).toBe(400);
    expect((await post(`${API}/columns`)).statusCode).toBe(400);
    expect((await post(`${API}/copy?id=abc`)).statusCode).toBe(400);
  });

  it('reads a table through a saved datasource (password sealed, outbound rules applied)', async () => {
    const url = new URL(inject('pgServerUrl'));
    const { rows } = await t.ctx.database.pool.query<{ name: string }>('select current_database() as name');
    url.pathname = `/${rows[0]?.name}`;
    await allowLoopback(t);
    await setParam(t, 'datasource.allowedPorts', `5432-5439, ${url.port || 5432}`);
    const ds = await post('/api/blade-develop/datasource/submit', {
      name: '测试库',
      url: `postgres://127.0.0.1:${url.port || 5432}${url.pathname}`,
      username: decodeURIComponent(url.username) || 'postgres',
      password: decodeURIComponent(url.password) || 'unused',
    });
    expect(ds.json(), ds.body).toMatchObject({ success: true });
    const viaDs = await saved({
      ...gaugeConfig,
      codeName: '外部量具',
      datasourceId: ds.json().data,
      apiPath: '/mes/x',
    });
    const res = await post(`${API}/columns?id=${viaDs}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().data.columns as Column[]).map((c) => c.columnName)).toContain('gauge_code');
  });
});
