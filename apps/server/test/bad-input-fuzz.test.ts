import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contracts from '@mes/contracts';
import { FAMILY_LOGOUT_PATH, isSubmittable, type FieldDef, type ResourceDef } from '@mes/contracts';
import type { ApiRouteInfo } from '../src/app';
import { param } from '../src/platform/db/schema';
import { basic, createTestApp, type TestApp } from './support/test-app';

/**
 * Sends every API route values no client should send (NUL bytes, numbers beyond any column,
 * overlong text, lists and objects for scalars, broken JSON, foreign content types) as the
 * platform administrator, as a tenant administrator and, for public routes, anonymously. No
 * reply may be a 5xx, and a refused write must leave its table as it was.
 */
let t: TestApp;
let platformAdmin: string;
let tenantAdmin: string;
const TENANT = '100001';

const NUL = 'a\u0000b';
const DIGITS_20 = '99999999999999999999';
const ABOVE_INT8 = '9223372036854775808';
const ABOVE_INT4 = '2147483648';
const LONG_QUERY = 'x'.repeat(1_000);
const LONG_BODY = 'x'.repeat(20_000);

/** Routes that would end the caller's session. */
const SKIPPED = new Set(['/api/blade-auth/oauth/logout', FAMILY_LOGOUT_PATH]);
const TOKEN_ROUTE = '/api/blade-auth/oauth/token';

/** Parameter names the hand-written routes read (ids, paging, tenant, codes, sign-in fields). */
const COMMON_NAMES = [
  'id',
  'ids',
  'current',
  'size',
  'tenantId',
  'code',
  'parentId',
  'parentCode',
  'name',
  'account',
  'domain',
  'userId',
  'userIds',
  'roleIds',
  'deptId',
  'menuIds',
  'topMenuId',
  'topMenuIds',
  'dataScopeIds',
  'apiScopeIds',
  'datasourceId',
  'kind',
  'category',
  'source',
  'state',
  'phone',
  'oldPassword',
  'newPassword',
  'newPassword1',
  // The business routes' own (pack moves and look-ups, load release, recalls, ledger, curves).
  'codes',
  'loadId',
  'loadNo',
  'lineId',
  'carId',
  'patientCase',
  'chairNo',
  'clinician',
  'remark',
  'action',
  'deviceCode',
  'period',
  'startDate',
  'endDate',
  'first',
];

const resourceDefs = (Object.values(contracts) as unknown[]).filter(
  (v): v is ResourceDef =>
    typeof v === 'object' && v !== null && 'code' in v && 'table' in v && 'api' in v && 'fields' in v,
);

/** The resource whose API prefix is the longest one the route starts with. */
function defOf(url: string): ResourceDef | undefined {
  return resourceDefs.filter((d) => url.startsWith(`/api${d.api}/`)).sort((a, b) => b.api.length - a.api.length)[0];
}

/** The operations the resource engine answers; their parameters are the definition's fields. */
const GENERIC_OPERATIONS = new Set(['list', 'page', 'detail', 'submit', 'remove', 'export', 'tree', 'enable']);
const CORE_NAMES = ['id', 'ids', 'current', 'size', 'tenantId', 'parentId', 'ascs', 'descs', 'createTime_dategt'];

/**
 * Parameter names worth trying on a route: a generic resource route reads its definition's
 * fields (and ids and paging); a hand-written route gets the common names as well.
 */
function namesOf(route: ApiRouteInfo): string[] {
  const def = defOf(route.url);
  const fields = def ? Object.keys(def.fields) : [];
  const generic = def !== undefined && GENERIC_OPERATIONS.has(route.url.split('/').at(-1) ?? '');
  return [...new Set([...(generic ? CORE_NAMES : COMMON_NAMES), ...fields])];
}

interface Caller {
  label: string;
  token: string | undefined;
  tenantId: string;
}

const failures: string[] = [];

/** Causes of server errors by error id, read from the app's error-level log lines. */
const causes = new Map<string, string>();
const errorLogger = pino(
  { level: 'error' },
  {
    write(line: string) {
      const entry = JSON.parse(line) as { errorId?: string; err?: { message?: string; stack?: string } };
      if (!entry.errorId) return;
      const where =
        entry.err?.stack
          ?.split('\n')
          .find((l) => l.includes('/src/'))
          ?.trim() ?? '';
      causes.set(entry.errorId, `${entry.err?.message ?? ''} ${where}`.slice(0, 300));
    },
  },
);

/** Prints every failure (the assertion's diff cuts long lists) and expects none. */
function expectNoFailures() {
  if (failures.length) console.log(`${failures.length} failures:\n${failures.join('\n')}`);
  // The first few suffice for the assertion's diff; the whole list is printed above.
  expect(failures.slice(0, 20)).toEqual([]);
}

async function send(caller: Caller, options: InjectOptions): Promise<LightMyRequestResponse> {
  const headers = { ...(options.headers as Record<string, string> | undefined) };
  if (caller.token) headers['blade-auth'] = `bearer ${caller.token}`;
  const res = await t.app.inject({ ...options, headers });
  // Readiness answers 503 by design while no MQTT broker runs (this file starts none), whatever the input.
  const notReady = String(options.url).startsWith('/api/health/ready') && res.statusCode === 503;
  if (res.statusCode >= 500 && !notReady) {
    const what = typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload ?? '');
    const errorId = /错误编号 (\d+)/.exec(res.body)?.[1] ?? '';
    failures.push(
      `${caller.label} ${options.method} ${String(options.url).slice(0, 160)} ${what.slice(0, 80)} → ${res.statusCode} ${causes.get(errorId) ?? res.body.slice(0, 160)}`,
    );
  }
  return res;
}

/** A 4xx, or a 200 whose envelope says it failed. */
function refused(res: LightMyRequestResponse): boolean {
  if (res.statusCode >= 400) return true;
  if (!String(res.headers['content-type'] ?? '').includes('json')) return false;
  return (res.json() as { success?: boolean }).success === false;
}

/** The URL with each `:param` replaced (by `value` when given, else by 1). */
const pathOf = (route: ApiRouteInfo, value = '1') => route.url.replace(/:(\w+)/g, () => value);

/** Row count and content hash of a table, to tell whether a refused request changed it. */
async function fingerprint(table: string): Promise<string> {
  const { rows } = await t.database.pool.query<{ n: number; h: string | null }>(
    `select count(*)::int as n, md5(string_agg(r::text, '|' order by r::text)) as h from "${table}" r`,
  );
  return `${rows[0]?.n}:${rows[0]?.h}`;
}

const enc = encodeURIComponent;

/** Names whose values are numbers somewhere: they also get a 20-digit number. */
const NUMERIC_NAME = /^(ids?|current|size|status|category|kind|sort|.*Ids?|.*Type|.*Level|.*Number)$/;

/**
 * Query strings, each giving one parameter one bad value. The light battery (second caller)
 * keeps only the values that reach the database, where the caller's tenant makes a difference.
 */
function queryBattery(route: ApiRouteInfo, light: boolean): string[] {
  const out = [
    'current=-1',
    'current=0',
    `current=${DIGITS_20}`,
    `size=${DIGITS_20}`,
    'size=-5',
    'current=1.5&size=1e3',
  ];
  const names = namesOf(route);
  for (const name of names) {
    const n = enc(name);
    out.push(`${n}=${ABOVE_INT8}`);
    if (NUMERIC_NAME.test(name) || isNumericField(route, name)) out.push(`${n}=${DIGITS_20}`);
    if (!light) out.push(`${n}=${enc(NUL)}`);
  }
  if (!light) {
    // NUL in a name; a surrogate half and bytes that are not UTF-8 at all, percent-encoded.
    out.push(`${enc('a\u0000')}=1`, 'name=%ED%A0%80', 'name=%FF%FE', '%ED%A0%80=1');
    // Every parameter at once: repeated (a list for a scalar), and overlong.
    out.push(names.map((name) => `${enc(name)}=1&${enc(name)}=2`).join('&'));
    out.push(names.map((name) => `${enc(name)}=${LONG_QUERY}`).join('&'));
    for (const name of CORE_NAMES) out.push(`${enc(name)}=1&${enc(name)}=2`);
  }
  return out.map((q) => `?${q}`);
}

const isNumericField = (route: ApiRouteInfo, name: string) => {
  const kind = defOf(route.url)?.fields[name]?.kind;
  return kind === 'int' || kind === 'decimal' || kind === 'id' || kind === 'ids';
};

/** JSON bodies, each giving one parameter a value of the wrong shape. */
function bodyBattery(route: ApiRouteInfo, light: boolean): unknown[] {
  const out: unknown[] = [];
  const names = namesOf(route);
  const all = (value: unknown) => Object.fromEntries(names.map((name) => [name, value]));
  for (const name of names) {
    out.push({ [name]: ABOVE_INT8 });
    if (!light) out.push({ [name]: NUL });
  }
  out.push({ [`a\u0000`]: 1 }, { deep: { deeper: [{ x: NUL }] } });
  if (!light) {
    // Every parameter at once with a value of the wrong shape, or far beyond any column.
    for (const value of [Number(DIGITS_20), [{ a: 1 }], true, { nested: 1 }, LONG_BODY]) out.push(all(value));
    for (const name of CORE_NAMES) out.push({ [name]: [{ a: 1 }] }, { [name]: true }, { [name]: Number(DIGITS_20) });
  }
  return out;
}

/** Bodies whose encoding is wrong rather than a value. */
const RAW_BODIES: { type: string; payload: string }[] = [
  { type: 'application/json', payload: '{"id":' },
  { type: 'application/json', payload: '[1,2]' },
  { type: 'application/json', payload: '"text"' },
  { type: 'application/json', payload: 'null' },
  { type: 'application/json', payload: '{"id":"\\u0000"}' },
  { type: 'application/json', payload: '{"name":"\\ud800"}' },
  { type: 'application/json', payload: `{"id":${'['.repeat(5_000)}${']'.repeat(5_000)}}` },
  { type: 'application/json', payload: '['.repeat(100_000) },
  { type: 'text/plain', payload: 'id=1' },
  { type: 'application/xml', payload: '<id>1</id>' },
  { type: 'application/x-www-form-urlencoded', payload: 'id=%00&name=a%00b' },
  { type: 'application/x-www-form-urlencoded', payload: `ids=${ABOVE_INT8}&current=${DIGITS_20}` },
  {
    type: 'multipart/form-data; boundary=x',
    payload: '--x\r\nContent-Disposition: form-data; name="id"\r\n\r\n\u0000\r\n--x--',
  },
];

/** Runs `tasks` a few at a time: the battery is large, and each request waits mostly on the database. */
async function inBatches(tasks: (() => Promise<boolean>)[], width = 8): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let i = 0; i < tasks.length; i += width)
    results.push(...(await Promise.all(tasks.slice(i, i + width).map((task) => task()))));
  return results;
}

/** Whether the request was refused (4xx or a failed envelope); records 5xx on the way. */
const tryRefused = (caller: Caller, options: InjectOptions) => async () => refused(await send(caller, options));

async function fuzzRoute(caller: Caller, route: ApiRouteInfo, light: boolean) {
  const method = route.method as InjectOptions['method'];
  const url = pathOf(route);
  const tasks: (() => Promise<boolean>)[] = [];
  // Path parameters themselves.
  if (route.url.includes(':')) {
    for (const v of [enc(NUL), DIGITS_20, ABOVE_INT8, '%E0%A4%A', 'x'.repeat(300)])
      tasks.push(tryRefused(caller, { method, url: pathOf(route, v) }));
  }
  for (const q of queryBattery(route, light)) tasks.push(tryRefused(caller, { method, url: `${url}${q}` }));
  if (method !== 'GET') {
    for (const payload of bodyBattery(route, light))
      tasks.push(tryRefused(caller, { method, url, payload: payload as Record<string, unknown> }));
    for (const raw of RAW_BODIES)
      tasks.push(tryRefused(caller, { method, url, headers: { 'content-type': raw.type }, payload: raw.payload }));
  }
  // Log tables fill in the background (error and API logs of earlier requests): not comparable.
  const written = defOf(route.url)?.table;
  const table = method === 'GET' || written?.startsWith('blade_log_') ? undefined : written;
  const before = table ? await fingerprint(table) : undefined;
  const allRefused = (await inBatches(tasks)).every(Boolean);
  if (table && allRefused && (await fingerprint(table)) !== before) {
    failures.push(`${caller.label} ${route.method} ${route.url}: every request was refused, yet ${table} changed`);
  }
}

/** Values a field of this kind must refuse. */
function wrongValues(field: FieldDef): unknown[] {
  switch (field.kind) {
    case 'string':
    case 'secret':
    case 'text': {
      // A numberAsText field takes a number as its text (the family's client sends dictKey -1).
      const numberIsText = field.kind === 'string' && field.numberAsText === true;
      const values: unknown[] = [...(numberIsText ? [] : [12345]), true, { a: 1 }, ['a', 'b'], NUL];
      const bounded = field.kind === 'string' || field.max !== undefined || (field.kind === 'secret' && !field.sealed);
      if (bounded) values.push(LONG_BODY);
      return values;
    }
    case 'int':
    case 'decimal':
      return [
        DIGITS_20,
        Number(DIGITS_20),
        ...(field.kind === 'int' ? [ABOVE_INT4] : []),
        true,
        { a: 1 },
        [1, 2],
        'abc',
        NUL,
      ];
    case 'id':
      return [DIGITS_20, ABOVE_INT8, -1, 1.5, Number(DIGITS_20), true, { a: 1 }, NUL];
    case 'ids':
      return [`1,${ABOVE_INT8}`, [true], [{ a: 1 }], `1,${NUL}`, 12.5];
    case 'datetime':
      return ['garbage', 12345, true, '2020-13-45 00:00:00', NUL];
    case 'date':
      return ['garbage', 12345, true, '2020-02-30', '2020-01-01 10:00:00', NUL];
    case 'boolean':
      return ['yes', 1, 0, { a: 1 }, [true], NUL];
    case 'reference':
      return [DIGITS_20, ABOVE_INT8, -1, 1.5, Number(DIGITS_20), true, { a: 1 }, NUL];
    case 'json':
      // A JSON text that is not JSON, and a value far above the size limit.
      return ['{not json', { big: 'x'.repeat(70_000) }];
  }
}

/** One live row of the resource the caller may change. */
async function rowOf(def: ResourceDef, caller: Caller): Promise<Record<string, unknown> | undefined> {
  const where: string[] = [];
  const values: string[] = [];
  if (def.owner === 'tenant') {
    values.push(caller.tenantId);
    where.push(`tenant_id = $1`);
  }
  if (def.audit !== false) where.push('is_deleted = 0');
  const { rows } = await t.database.pool.query<Record<string, unknown>>(
    `select * from "${def.table}" ${where.length ? `where ${where.join(' and ')}` : ''} order by id limit 1`,
    values,
  );
  return rows[0];
}

const columnName = (name: string, field: FieldDef) => field.column ?? contracts.toSnake(name);

async function fuzzSubmit(caller: Caller, def: ResourceDef) {
  const url = `/api${def.api}/submit`;
  const row = await rowOf(def, caller);
  if (!row) return 0;
  const id = String(row.id);
  let sent = 0;
  for (const [name, field] of Object.entries(def.fields)) {
    if (!isSubmittable(field, false) || name === 'id') continue;
    const column = columnName(name, field);
    const stored = async () => {
      const { rows } = await t.database.pool.query<{ v: string | null }>(
        `select "${column}"::text as v from "${def.table}" where id = $1`,
        [id],
      );
      return rows[0]?.v ?? null;
    };
    for (const value of wrongValues(field)) {
      const before = await fingerprint(def.table);
      const valueBefore = await stored();
      const res = await send(caller, { method: 'POST', url, payload: { id, [name]: value } });
      sent++;
      const shown = JSON.stringify(value)?.slice(0, 40);
      if (res.statusCode >= 500) continue;
      if (refused(res)) {
        if ((await fingerprint(def.table)) !== before)
          failures.push(
            `${caller.label} ${url} ${name}=${shown}: refused (${res.statusCode}) yet ${def.table} changed`,
          );
        continue;
      }
      // Accepted: only a field the route ignores on update may pass, and then nothing of it is stored.
      const valueNow = await stored();
      if (valueNow !== valueBefore)
        failures.push(`${caller.label} ${url} ${name}=${shown}: accepted and stored ${String(valueNow).slice(0, 40)}`);
    }
  }
  return sent;
}

beforeAll(async () => {
  t = await createTestApp({ appOptions: { logger: errorLogger } });
  platformAdmin = (await t.signIn()).access_token;
  const created = await t.as(platformAdmin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId: TENANT, tenantName: '租户A', linkman: 'ops' },
  });
  expect(created.statusCode).toBe(200);
  const [defaultPassword] = await t.ctx.db
    .select({ value: param.paramValue })
    .from(param)
    .where(eq(param.paramKey, 'tenant.default.password'));
  tenantAdmin = (await t.signIn('admin', defaultPassword?.value ?? '', TENANT)).access_token;
}, 120_000);
afterAll(() => t.close());

const routes = () =>
  t.app.apiRoutes
    .filter((r) => !SKIPPED.has(r.url))
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));

describe('bad input never gives a 5xx', () => {
  it('walks more than 100 routes', () => {
    expect(routes().length).toBeGreaterThan(100);
  });

  it('answers every bad value on every route with a 4xx, for the platform administrator', async () => {
    failures.length = 0;
    const caller = { label: 'platform', token: platformAdmin, tenantId: '000000' };
    for (const route of routes().filter((r) => !r.access.public)) await fuzzRoute(caller, route, false);
    expectNoFailures();
  }, 240_000);

  it('answers every bad value on every route with a 4xx, for a tenant administrator', async () => {
    failures.length = 0;
    const caller = { label: 'tenant', token: tenantAdmin, tenantId: TENANT };
    for (const route of routes().filter((r) => !r.access.public)) {
      const probe = await send(caller, { method: route.method as InjectOptions['method'], url: pathOf(route) });
      if (probe.statusCode === 403) continue;
      await fuzzRoute(caller, route, true);
    }
    expectNoFailures();
  }, 240_000);

  it('answers every bad value on the public routes with a 4xx', async () => {
    failures.length = 0;
    const caller = { label: 'anonymous', token: undefined, tenantId: '000000' };
    for (const route of routes().filter((r) => r.access.public && r.url !== TOKEN_ROUTE))
      await fuzzRoute(caller, route, false);
    expectNoFailures();
  }, 120_000);

  it('answers bad values at the token endpoint with a 4xx', async () => {
    failures.length = 0;
    // An account that does not exist, so that no failure counts against a real one.
    const base: Record<string, string> = {
      tenantId: '000000',
      username: 'fuzz-nobody',
      password: 'e10adc3949ba59abbe56e057f20f883e',
      grant_type: 'password',
      scope: 'all',
    };
    const names = [...Object.keys(base), 'refresh_token', 'code', 'phone', 'source', 'state', 'key'];
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(),
      'tenant-id': '000000',
    };
    const anonymous = { label: 'anonymous', token: undefined, tenantId: '000000' };
    for (const name of names) {
      for (const value of [NUL, DIGITS_20, ABOVE_INT8, LONG_QUERY]) {
        const form = new URLSearchParams({ ...base, [name]: value }).toString();
        await send(anonymous, { method: 'POST', url: TOKEN_ROUTE, headers, payload: form });
        await send(anonymous, {
          method: 'POST',
          url: `${TOKEN_ROUTE}?${new URLSearchParams({ ...base, [name]: value })}`,
          headers,
        });
      }
      await send(anonymous, {
        method: 'POST',
        url: TOKEN_ROUTE,
        headers,
        payload: `${new URLSearchParams(base)}&${enc(name)}=x&${enc(name)}=y`,
      });
      await send(anonymous, {
        method: 'POST',
        url: TOKEN_ROUTE,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { ...base, [name]: { a: NUL } },
      });
    }
    for (const raw of RAW_BODIES)
      await send(anonymous, {
        method: 'POST',
        url: TOKEN_ROUTE,
        headers: { ...headers, 'content-type': raw.type },
        payload: raw.payload,
      });
    await send(anonymous, {
      method: 'POST',
      url: TOKEN_ROUTE,
      headers: { ...headers, 'tenant-id': NUL },
      payload: new URLSearchParams(base).toString(),
    });
    expectNoFailures();
  }, 60_000);
});

/** A small printable report layout: a page, the bound title and a line (docs/reports.md "Layouts"). */
const LAYOUT = {
  basePdf: { width: 210, height: 297, padding: [10, 10, 10, 10] },
  schemas: [
    [
      { name: 'title', type: 'text', position: { x: 10, y: 10 }, width: 150, height: 8, fontName: 'NotoSansSC' },
      { name: 'rule', type: 'line', position: { x: 10, y: 20 }, width: 150, height: 0.5, color: '#000000' },
    ],
  ],
};

/** Every path in `value` to an object, array or leaf (the root excluded). */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = [...at, Array.isArray(value) ? Number(k) : k];
    return [path, ...pathsOf(v, path)];
  });
}

function replacedAt(value: unknown, path: (string | number)[], by: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1) as string | number] = by;
  return copy;
}

describe('the report layout route refuses layouts of the wrong shape and keeps the stored one', () => {
  it('answers each part of a layout given a wrong value with a 4xx (or keeps what prints), never a 5xx', async () => {
    failures.length = 0;
    const caller = { label: 'platform', token: platformAdmin, tenantId: '000000' };
    const { rows } = await t.database.pool.query<{ id: string }>(
      `select id::text from mes_report_template where tenant_id = '000000' and is_deleted = 0 order by id limit 1`,
    );
    const id = rows[0]?.id as string;
    const url = `/api${contracts.REPORT_LAYOUT_PATH}`;
    const save = (layout: unknown) => send(caller, { method: 'POST', url, payload: { id, layout } });
    expect((await save(LAYOUT)).statusCode).toBe(200);
    const WRONG = [null, 'x', -1, Number(DIGITS_20), [], { a: 1 }, NUL, LONG_BODY];
    const layouts: unknown[] = [[], 'layout', 12, { schemas: [[]] }, { basePdf: 'x'.repeat(30), schemas: [] }];
    for (const path of pathsOf(LAYOUT)) for (const wrong of WRONG) layouts.push(replacedAt(LAYOUT, path, wrong));
    let refusedCount = 0;
    for (const layout of layouts) {
      const before = await fingerprint('mes_report_template');
      const res = await save(layout);
      if (!refused(res)) continue;
      refusedCount++;
      if ((await fingerprint('mes_report_template')) !== before)
        failures.push(`refused layout ${JSON.stringify(layout).slice(0, 120)}, yet the template changed`);
    }
    expect(refusedCount).toBeGreaterThan(layouts.length / 2);
    await save(null);
    expectNoFailures();
  }, 240_000);
});

describe('submits refuse values of the wrong type and store nothing', () => {
  const submitDefs = () =>
    resourceDefs.filter((d) => t.app.apiRoutes.some((r) => r.method === 'POST' && r.url === `/api${d.api}/submit`));

  it('covers the resources with a submit route', () => {
    expect(submitDefs().length).toBeGreaterThan(10);
  });

  it('refuses, for an existing row, each field given a value of the wrong type', async () => {
    failures.length = 0;
    let sent = 0;
    for (const def of submitDefs()) {
      sent += await fuzzSubmit({ label: 'platform', token: platformAdmin, tenantId: '000000' }, def);
      if (def.owner === 'tenant')
        sent += await fuzzSubmit({ label: 'tenant', token: tenantAdmin, tenantId: TENANT }, def);
    }
    expect(sent).toBeGreaterThan(200);
    expectNoFailures();
  }, 240_000);
});

describe('refusals say which parameter is wrong and why', () => {
  const msgOf = async (options: InjectOptions, token?: string) => {
    const res = await send({ label: 'message', token, tenantId: '000000' }, options);
    expect(res.statusCode, String(options.url)).toBe(400);
    return (res.json() as { msg: string }).msg;
  };

  it('names a NUL byte in the query, a nested body field or a key', async () => {
    expect(await msgOf({ method: 'GET', url: '/api/blade-system/tenant/info?domain=a%00b' })).toBe(
      '请求参数 domain 不正确: 不能包含空字符(\\u0000)',
    );
    expect(
      await msgOf(
        { method: 'POST', url: '/api/blade-system/post/submit', payload: { postName: 'a', ext: [{ title: NUL }] } },
        platformAdmin,
      ),
    ).toBe('请求参数 ext[0].title 不正确: 不能包含空字符(\\u0000)');
    expect(
      await msgOf(
        {
          method: 'POST',
          url: '/api/blade-system/post/submit',
          headers: { 'content-type': 'application/json' },
          payload: '{"postName":"\\ud800"}',
        },
        platformAdmin,
      ),
    ).toBe('请求参数 postName 不正确: 含有无法保存的字符(不成对的 UTF-16 代理项)');
  });

  it('names paging values and ids out of range', async () => {
    expect(await msgOf({ method: 'GET', url: `/api/blade-system/post/list?size=${DIGITS_20}` }, platformAdmin)).toBe(
      '请求参数 size 不正确: 应为 1 到 2147483647 之间的整数',
    );
    expect(
      await msgOf({ method: 'GET', url: `/api/blade-system/post/list?category=${DIGITS_20}` }, platformAdmin),
    ).toBe('请求参数 category 不正确: 应为 -2147483648 到 2147483647 之间的整数');
    expect(
      await msgOf({ method: 'POST', url: `/api/blade-system/post/remove?ids=1,${ABOVE_INT8}` }, platformAdmin),
    ).toBe('请求参数 ids 不正确: 应为逗号分隔的编号(每个不超过 9223372036854775807)');
  });
});
