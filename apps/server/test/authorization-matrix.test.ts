import net from 'node:net';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_TENANT_DISMISS_PATH,
  DEMO_TENANT_SEED_PATH,
  DEMO_TENANT_STATE_PATH,
  FAMILY_LOGOUT_PATH,
  REPORT_DATA_PATH,
  REPORT_DOWNLOAD_PATH,
  REPORT_FONT_PATH,
  REPORT_GENERATE_PATH,
  REPORT_LAYOUT_PATH,
  REPORT_PREVIEW_PATH,
} from '@mes/contracts';
import type { ApiRouteInfo } from '../src/app';
import { param } from '../src/platform/db/schema';
import { MENU_GROUPS } from '../src/seed/seed-menus';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, md5, type TestApp } from './support/test-app';

/**
 * Calls every signed-in route of the API as four callers and checks who gets in, and that no
 * row of tenant A ever reaches tenant B's administrator.
 */
let t: TestApp;
let platformAdmin: string;
let adminA: string;
let plainA: string;
let adminB: string;
const markerIds: Record<string, string> = {};

const MARKER = 'MARKER_A';
/** A device code is a topic level: letters, digits, _ and - (and the marker). */
const MARKER_DEVICE = `${MARKER}_DEV`;
/** Routes whose call would end the caller's session or that take no part in authorisation. */
const SKIPPED = new Set(['/api/blade-auth/oauth/logout', FAMILY_LOGOUT_PATH, '/api/blade-auth/oauth/token']);

/**
 * Routes of the platform's super administrator alone (the demo tenant's first-start card,
 * docs/demo.md): a platform role granted their API scopes (the tenant screen's) is still refused.
 */
const ADMINISTRATOR_ONLY: readonly { method: 'GET' | 'POST'; url: string }[] = [
  { method: 'GET', url: `/api${DEMO_TENANT_STATE_PATH}` },
  { method: 'POST', url: `/api${DEMO_TENANT_SEED_PATH}` },
  { method: 'POST', url: `/api${DEMO_TENANT_DISMISS_PATH}` },
];

const platformOnlyScreens = new Set(
  MENU_GROUPS.flatMap((g) => g.screens)
    .filter((s) => s.platformOnly)
    .map((s) => s.code),
);

/** A process model whose name carries the marker. */
function markerModelXml() {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" id="mk" targetNamespace="x">
  <process id="marker_flow" name="${MARKER}_FLOW" isExecutable="true">
    <startEvent id="s"><outgoing>f1</outgoing></startEvent>
    <sequenceFlow id="f1" sourceRef="s" targetRef="u" />
    <userTask id="u" name="${MARKER}_TASK" flowable:assignee="\${initiator}"><incoming>f1</incoming><outgoing>f2</outgoing></userTask>
    <sequenceFlow id="f2" sourceRef="u" targetRef="e" />
    <endEvent id="e"><incoming>f2</incoming></endEvent>
  </process>
</definitions>`;
}

/** Generic resources of tenant A whose `submit` / `remove` tenant B must not reach with A's ids. */
const tenantWriteTargets = (): [string, string][] => [
  ['/api/blade-system/post', markerIds.post as string],
  ['/api/blade-system/role', markerIds.role as string],
  ['/api/blade-system/dept', markerIds.dept as string],
  ['/api/blade-system/topmenu', markerIds.topmenu as string],
  ['/api/blade-user', markerIds.user as string],
  ['/api/basic/product', markerIds.product as string],
  ['/api/basic/device', markerIds.device as string],
  ['/api/blade-desk/notice', markerIds.notice as string],
  ['/api/blade-desk/service', markerIds.service as string],
  ['/api/blade-business/line', markerIds.line as string],
  ['/api/blade-business/car', markerIds.car as string],
  ['/api/blade-business/article', markerIds.article as string],
  ['/api/blade-business/oenmo', markerIds.oenmo as string],
  ['/api/blade-business/disinfection', markerIds.disinfection as string],
  ['/api/blade-business/verification', markerIds.verification as string],
  ['/api/blade-flow/model', markerIds.flowModel as string],
  ['/api/blade-report/template', markerIds.reportTemplate as string],
  ['/api/blade-report/schedule', markerIds.reportSchedule as string],
];

/** The workflow's own writes, each naming tenant A's rows: tenant B's administrator is refused every one. */
const flowWrites = (): [string, Record<string, unknown>][] => [
  ['/api/blade-flow/model/deploy', { modelId: markerIds.flowModel }],
  ['/api/blade-flow/manager/change-state', { processId: markerIds.flowDefinition, state: 'suspend' }],
  ['/api/blade-flow/manager/delete-deployment', { deploymentIds: markerIds.flowDeployment }],
  [
    '/api/blade-flow/follow/delete-process-instance',
    { processInstanceId: markerIds.flowInstance, deleteReason: 'hijack' },
  ],
  ['/api/blade-flow/work/claim-task', { taskId: markerIds.flowTask }],
  ['/api/blade-flow/work/complete-task', { taskId: markerIds.flowTask, comment: 'hijack' }],
  ['/api/blade-flow/work/start-process', { processDefinitionId: markerIds.flowDefinition }],
  [
    '/api/blade-desk/process/leave/start-process',
    {
      processDefinitionId: markerIds.flowDefinition,
      startTime: '2026-01-05 09:00:00',
      endTime: '2026-01-06 09:00:00',
      reason: 'hijack',
      taskUser: markerIds.user,
    },
  ],
];

const FLOW_UPLOAD = '/api/blade-flow/manager/deploy-upload';
const UPLOAD_BOUNDARY = '----mes-matrix-boundary';
/** A multipart upload of one model to the tenants named. */
const uploadBody = (tenantIds: string, xml: string) =>
  `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="tenantIds"\r\n\r\n${tenantIds}\r\n` +
  `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="m.bpmn"\r\nContent-Type: text/xml\r\n\r\n${xml}\r\n` +
  `--${UPLOAD_BOUNDARY}--\r\n`;
/** The workflow's routes: each must be checked by the tests below (anonymous, unscoped, other tenant). */
const isFlowRoute = (url: string) => url.startsWith('/api/blade-flow/') || url.startsWith('/api/blade-desk/process/');
const REPORT_LAYOUT_URL = `/api${REPORT_LAYOUT_PATH}`;

/** A report layout: the plain title and a fixed text carrying the marker. */
function markerLayout() {
  const text = { type: 'text', width: 150, height: 8, fontName: 'NotoSansSC' };
  return {
    basePdf: { width: 210, height: 297, padding: [10, 10, 10, 10] },
    schemas: [
      [
        { ...text, name: 'title', position: { x: 10, y: 10 } },
        { ...text, name: 'marker', readOnly: true, content: `${MARKER}_LAYOUT`, position: { x: 10, y: 20 } },
      ],
    ],
  };
}

async function call(token: string | undefined, route: ApiRouteInfo, query = '') {
  const url = route.url.replace(/:(\w+)/g, '1') + query;
  const headers = token ? { 'blade-auth': `bearer ${token}` } : {};
  return t.app.inject({
    method: route.method as 'GET' | 'POST',
    url,
    headers,
    payload: route.method === 'GET' ? undefined : {},
  });
}

async function ok(token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  const res = await t.as(token, { method, url, payload });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

async function createTenant(tenantId: string, tenantName: string) {
  await ok(platformAdmin, 'POST', '/api/blade-system/tenant/submit', { tenantId, tenantName, linkman: 'ops' });
}

beforeAll(async () => {
  t = await createTestApp();
  platformAdmin = (await t.signIn()).access_token;
  await createTenant('100001', '租户A');
  await createTenant('100002', '租户B');
  const [defaultPassword] = await t.ctx.db
    .select({ value: param.paramValue })
    .from(param)
    .where(eq(param.paramKey, 'tenant.default.password'));
  const tenantPassword = defaultPassword?.value ?? '';
  adminA = (await t.signIn('admin', tenantPassword, '100001')).access_token;
  adminB = (await t.signIn('admin', tenantPassword, '100002')).access_token;

  // Tenant A's rows that tenant B must never see.
  markerIds.post = await ok(adminA, 'POST', '/api/blade-system/post/submit', {
    category: 1,
    postCode: 'mk',
    postName: `${MARKER}_POST`,
  });
  markerIds.role = await ok(adminA, 'POST', '/api/blade-system/role/submit', {
    roleName: `${MARKER}_ROLE`,
    roleAlias: 'markerRole',
  });
  const depts = await ok(adminA, 'GET', '/api/blade-system/dept/list');
  markerIds.dept = await ok(adminA, 'POST', '/api/blade-system/dept/submit', {
    deptName: `${MARKER}_DEPT`,
    fullName: `${MARKER}_DEPT`,
    parentId: depts[0].id,
    deptCategory: 2,
  });
  markerIds.topmenu = await ok(adminA, 'POST', '/api/blade-system/topmenu/submit', {
    code: 'mk',
    name: `${MARKER}_TOP`,
  });
  markerIds.user = await ok(adminA, 'POST', '/api/blade-user/submit', {
    account: 'plain',
    password: md5('Plain#123'),
    name: `${MARKER}_USER`,
    realName: 'plain',
    userType: 1,
    roleId: markerIds.role,
    deptId: markerIds.dept,
  });
  plainA = (await t.signIn('plain', 'Plain#123', '100001')).access_token;

  // Tenant A's devices and everything they produce: the device code itself is a marker, so every
  // telemetry, acquisition, message, on/off, cycle and warning row of it carries one.
  const clinic = await ok(adminA, 'POST', '/api/blade-system/dept/submit', {
    deptName: `${MARKER}_CLINIC`,
    fullName: `${MARKER}_CLINIC`,
    parentId: depts[0].id,
    deptCategory: 5,
  });
  markerIds.product = await ok(adminA, 'POST', '/api/basic/product/submit', {
    productCode: 'MK',
    productName: `${MARKER}_PRODUCT`,
    category: 1,
    protocol: 'mqtt-json',
    fields: [{ fieldKey: 'chlorine', fieldName: `${MARKER}_FIELD`, dataType: 'float', unit: 'mg/L' }],
  });
  markerIds.device = await ok(adminA, 'POST', '/api/basic/device/submit', {
    deviceCode: MARKER_DEVICE,
    deviceName: `${MARKER}_DEVICE`,
    productId: markerIds.product,
    deptId: clinic,
  });
  markerIds.notice = await ok(adminA, 'POST', '/api/blade-desk/notice/submit', {
    title: `${MARKER}_NOTICE`,
    category: 1,
    releaseTime: '2026-01-01 08:00:00',
    content: `<p>${MARKER}</p>`,
  });
  markerIds.service = await ok(adminA, 'POST', '/api/blade-desk/service/submit', {
    serviceCode: 'mk',
    serviceName: `${MARKER}_SERVICE`,
    category: 1,
  });
  // Tenant A's logistics and records: a base with a line, a car and the articles it carries, an
  // oenmo row, and a disinfection record of the marker device (the record's chain is A's only).
  const base = await ok(adminA, 'POST', '/api/blade-system/dept/submit', {
    deptName: `${MARKER}_BASE`,
    fullName: `${MARKER}_BASE`,
    parentId: depts[0].id,
    deptCategory: 4,
  });
  markerIds.line = await ok(adminA, 'POST', '/api/blade-business/line/submit', { name: `${MARKER}_LINE`, base });
  markerIds.car = await ok(adminA, 'POST', '/api/blade-business/car/submit', {
    name: `${MARKER}_CAR`,
    plate: '苏E12345',
    barCode: 'MK-CAR',
    base,
    line: markerIds.line,
  });
  markerIds.article = await ok(adminA, 'POST', '/api/blade-business/article/submit', {
    code: 'MK-ART',
    barCode: 'MK-ART',
    name: `${MARKER}_ARTICLE`,
    category: 1,
    packMaterial: 2,
  });
  markerIds.oenmo = await ok(adminA, 'POST', '/api/blade-business/oenmo/submit', {
    code: 'MK-OEM',
    name: `${MARKER}_OENMO`,
    type: 1,
  });
  markerIds.disinfection = await ok(adminA, 'POST', '/api/blade-business/disinfection/submit', {
    deviceId: markerIds.device,
    startTime: '2026-01-01 08:00:00',
    endTime: '2026-01-01 08:30:00',
    result: 1,
    load: MARKER,
  });
  // A failed biological indicator of the marker device: it recalls the record above and raises a warning.
  markerIds.verification = await ok(adminA, 'POST', '/api/blade-business/verification/submit', {
    deviceId: markerIds.device,
    verificationType: 4,
    testTime: '2026-01-02 08:00:00',
    result: 2,
    batchNo: MARKER,
    remark: MARKER,
  });
  // A code-generator configuration is the platform's (it reads database catalogues): no tenant sees it.
  markerIds.code = await ok(platformAdmin, 'POST', '/api/blade-develop/code/submit', {
    codeName: `${MARKER}_CODE`,
    codeNameEn: MARKER,
    tableName: 'blade_post',
    packageName: 'mes',
    apiPath: '/mes/marker',
    columns: [{ columnName: 'post_name', fieldName: 'postName', labelZh: MARKER, labelEn: MARKER, kind: 'string' }],
  });
  // Tenant A's workflow: a model deployed as a definition, and a leave its user started (an
  // instance, a task waiting for that user, history rows), every one carrying the marker.
  markerIds.flowModel = await ok(adminA, 'POST', '/api/blade-flow/model/submit', { xml: markerModelXml() });
  const [deployedModel] = await ok(adminA, 'POST', `/api/blade-flow/model/deploy?modelId=${markerIds.flowModel}`);
  markerIds.flowDefinition = deployedModel.processDefinitionId;
  markerIds.flowDeployment = deployedModel.deploymentId;
  const leave = await ok(plainA, 'POST', '/api/blade-desk/process/leave/start-process', {
    startTime: '2026-01-05 09:00:00',
    endTime: '2026-01-06 09:00:00',
    reason: MARKER,
    taskUser: markerIds.user,
  });
  markerIds.leave = leave.businessId;
  markerIds.flowInstance = leave.processInstanceId;
  markerIds.flowTask = (await ok(plainA, 'GET', '/api/blade-flow/work/todo-list')).records[0].taskId;
  const pool = t.ctx.database.pool;
  const at = new Date();
  const rowId = (n: number) => String(9_100_000_000 + n);
  await pool.query(
    `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol)
     values ($1, '100001', $2, $3, jsonb_build_object('chlorine', $4::text), '', 'json')`,
    [rowId(1), MARKER_DEVICE, at, MARKER],
  );
  await pool.query(
    `insert into mes_device_latest (id, tenant_id, device_code, latest)
     values ($1, '100001', $2, jsonb_build_object('chlorine', jsonb_build_object('ts', $3::bigint, 'v', 1.5)))`,
    [rowId(2), MARKER_DEVICE, at.getTime()],
  );
  await pool.query(
    `insert into mes_telemetry_minute (id, tenant_id, device_code, field, minute, points, total, low, high)
     values ($1, '100001', $2, 'chlorine', date_trunc('minute', $3::timestamptz), 1, 1.5, 1.5, 1.5)`,
    [rowId(3), MARKER_DEVICE, at],
  );
  await pool.query(
    `insert into mes_telemetry_quarter (id, tenant_id, device_code, field, quarter, points, total, low, high)
     values ($1, '100001', $2, 'chlorine', date_bin('15 minutes', $3::timestamptz, timestamptz '1970-01-01 00:00:00+00'), 1, 1.5, 1.5, 1.5)`,
    [rowId(20), MARKER_DEVICE, at],
  );
  await pool.query(
    `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, errors, topic, protocol)
     values ($1, '100001', $2, $3, '{"chlorine": 1.5}', $4, $5, 'json')`,
    [rowId(4), MARKER_DEVICE, at, MARKER, `mes/100001/${MARKER_DEVICE}/telemetry`],
  );
  await pool.query(
    `insert into mes_mqtt_log (id, tenant_id, device_code, topic, payload, parsed_ok, create_time)
     values ($1, '100001', $2, $3, $4, true, $5)`,
    [rowId(5), MARKER_DEVICE, `mes/100001/${MARKER_DEVICE}/telemetry`, MARKER, at],
  );
  await pool.query(
    `insert into mes_onoff (id, tenant_id, device_code, event, on_time, reason, create_time)
     values ($1, '100001', $2, 'online', $3, 'normal', $3)`,
    [rowId(6), MARKER_DEVICE, at],
  );
  markerIds.cycle = rowId(7);
  await pool.query(
    `insert into mes_device_cycle (id, tenant_id, device_id, device_code, dept_id, program_name, start_time, end_time, result)
     values ($1, '100001', $2, $3, $4, $5, $6, $6, 2)`,
    [markerIds.cycle, markerIds.device, MARKER_DEVICE, clinic, MARKER, at],
  );
  // Tenant A's report template (reading A's warnings), a file made from it (its name carries the
  // template's) and a schedule of it.
  markerIds.reportTemplate = await ok(adminA, 'POST', '/api/blade-report/template/submit', {
    name: `${MARKER}_REPORT`,
    source: 'warning',
    dateField: 'startTime',
    groupBy: ['deviceCode', 'level'],
    measures: [{ fn: 'count', label: { zh: MARKER, en: MARKER } }],
    remark: MARKER,
  });
  // Its designed layout carries the marker too (a fixed text), so a read of it by B would show.
  await ok(adminA, 'POST', REPORT_LAYOUT_URL, { id: markerIds.reportTemplate, layout: markerLayout() });
  markerIds.reportFile = await ok(adminA, 'POST', '/api/blade-report/report/rest/generate', {
    templateId: markerIds.reportTemplate,
    format: 'xlsx',
    params: { from: '2026-01-01', to: '2026-01-31' },
  });
  markerIds.reportSchedule = await ok(adminA, 'POST', '/api/blade-report/schedule/submit', {
    name: `${MARKER}_SCHEDULE`,
    templateId: markerIds.reportTemplate,
    format: 'pdf',
    frequency: 'daily',
    runAt: '06:00',
  });
  markerIds.warning = rowId(8);
  await pool.query(
    `insert into mes_warning (id, tenant_id, warning_no, device_id, device_code, dept_id, warning_type, level,
       rule_key, field, message, start_time, last_time, status)
     values ($1, '100001', 'WMK1', $2, $3, $4, 'threshold', 1, 'threshold:1', 'chlorine', $5, $6, $6, 1)`,
    [markerIds.warning, markerIds.device, MARKER_DEVICE, clinic, MARKER, at],
  );
}, 120_000);
afterAll(() => t.close());

/**
 * Other spellings of a route's path, as a router, proxy or browser might read them: each must
 * reach that route under its own rules, or nothing.
 */
function spellings(url: string): string[] {
  const rest = url.slice('/api'.length);
  const lastSlash = url.lastIndexOf('/');
  const nextChar = url[lastSlash + 1] ?? 'a';
  const escaped = `%${nextChar.charCodeAt(0).toString(16)}`;
  return [
    `/%61pi${rest}`,
    `/%2561pi${rest}`,
    `${url.slice(0, lastSlash + 1)}${escaped}${url.slice(lastSlash + 2)}`,
    `/api/${rest.slice(1).replace('/', '%2f')}`,
    `//api${rest}`,
    `/api/${rest}`,
    `/api/.${rest}`,
    `/api/x/..${rest}`,
    `/./api${rest}`,
    url.toUpperCase(),
    `/API${rest}`,
    `${url};`,
    `${url};jsessionid=1`,
    `${url}%2f`,
    `${url}/`,
    `${url}%00`,
    `http://localhost${url}`,
    `http://localhost/%61pi${rest}`,
  ];
}

/**
 * Sends a request line exactly as written (absolute-form targets, raw escapes), which an HTTP
 * client library would normalise first, and returns the status code.
 */
function rawStatus(port: number, method: string, target: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      head += chunk;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    const lines = [
      `${method} ${target} HTTP/1.1`,
      'Host: localhost',
      'Connection: close',
      ...(token ? [`Blade-Auth: bearer ${token}`] : []),
      ...(method === 'POST' ? ['Content-Type: application/json', 'Content-Length: 2'] : []),
      '',
      method === 'POST' ? '{}' : '',
    ];
    socket.write(lines.join('\r\n'));
  });
}

const routes = () =>
  t.app.apiRoutes.filter((r) => !r.access.public && !SKIPPED.has(r.url)).sort((a, b) => a.url.localeCompare(b.url));

const screenOf = (scope: string) => scope.split(':')[0] ?? '';

describe('authorisation matrix', () => {
  it('lists the routes it checks', () => {
    expect(routes().length).toBeGreaterThan(60);
    // The reports' own routes, each behind an API scope of its screen (so in the 401 and 403 rows).
    const reportRoutes = [
      REPORT_LAYOUT_PATH,
      REPORT_DATA_PATH,
      REPORT_PREVIEW_PATH,
      REPORT_FONT_PATH,
      REPORT_GENERATE_PATH,
      REPORT_DOWNLOAD_PATH,
    ].map((path) => `/api${path}`);
    const swept = routes().filter((r) => reportRoutes.includes(r.url));
    expect(swept.map((r) => r.url).sort()).toEqual([...reportRoutes].sort());
    for (const route of swept) expect(route.access.apiScope, route.url).toMatch(/^report_(template|file):/);
  });

  it('checks every workflow route: signed in, scoped or tenant-bound, and reached by tenant B with A’s rows', () => {
    const flow = t.app.apiRoutes.filter((r) => isFlowRoute(r.url));
    expect(flow.length).toBeGreaterThan(20);
    const writes = new Set([
      ...flowWrites().map(([url]) => url),
      FLOW_UPLOAD,
      ...tenantWriteTargets().flatMap(([base]) => [`${base}/submit`, `${base}/remove`]),
    ]);
    const unchecked: string[] = [];
    for (const route of flow) {
      // Anonymous (401) and unscoped (403) walk `routes()`: a public or skipped route escapes both.
      if (!routes().includes(route))
        unchecked.push(`${route.method} ${route.url}: not in the anonymous / scoped walks`);
      // Every GET is read by tenant B with A's ids (the workflow's parameter names included); a
      // write must be one B's administrator is sent with A's rows.
      if (route.method !== 'GET' && !writes.has(route.url))
        unchecked.push(`${route.method} ${route.url}: no tenant-B write naming tenant A's rows`);
    }
    expect(unchecked).toEqual([]);
  });

  it('refuses every signed-in route to an anonymous caller (401)', async () => {
    const open: string[] = [];
    for (const route of routes()) {
      const res = await call(undefined, route);
      if (res.statusCode !== 401) open.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('refuses every scoped route to a plain user of tenant A whose role holds no API scope (403)', async () => {
    const open: string[] = [];
    for (const route of routes().filter((r) => r.access.apiScope)) {
      const res = await call(plainA, route);
      if (res.statusCode !== 403) open.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('lets the admin of tenant B call the tenant screens and refuses the platform ones', async () => {
    const wrong: string[] = [];
    for (const route of routes().filter((r) => r.access.apiScope)) {
      const res = await call(adminB, route);
      const platformOnly = platformOnlyScreens.has(screenOf(route.access.apiScope as string));
      const denied = res.statusCode === 403;
      if (denied !== platformOnly || res.statusCode === 401 || res.statusCode >= 500) {
        wrong.push(`${route.method} ${route.url} → ${res.statusCode} (platform only: ${platformOnly})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets the platform administrator call every route', async () => {
    const wrong: string[] = [];
    for (const route of routes()) {
      const res = await call(platformAdmin, route);
      if ([401, 403].includes(res.statusCode) || res.statusCode >= 500) {
        wrong.push(`${route.method} ${route.url} → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the demo tenant card to the platform administrator, whatever API scopes a platform role holds', async () => {
    const clerk = await signInWithScopes(t, { account: 'clerk', codes: ['tenant:read', 'tenant:write'] });
    const wrong: string[] = [];
    for (const { method, url } of ADMINISTRATOR_ONLY) {
      const route = routes().find((r) => r.method === method && r.url === url);
      if (!route) {
        wrong.push(`${method} ${url} is not a signed-in route`);
        continue;
      }
      for (const [who, token] of [
        ['platform clerk', clerk],
        ['admin of tenant B', adminB],
        ['plain user of tenant A', plainA],
      ] as const) {
        const res = await call(token, route);
        if (res.statusCode !== 403) wrong.push(`${who}: ${method} ${url} → ${res.statusCode}`);
      }
      // The platform administrator gets in (an unticked confirmation is a 400, not a refusal).
      const res = await call(platformAdmin, route);
      if ([401, 403].includes(res.statusCode) || res.statusCode >= 500)
        wrong.push(`platform administrator: ${method} ${url} → ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('decides from the route that matched: no spelling of a path gets past its rules', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const wrong: string[] = [];
    for (const route of routes()) {
      const url = route.url.replace(/:(\w+)/g, '1');
      for (const target of spellings(url)) {
        // Anonymous: the route's own 401, or no route at all.
        const anonymous = await rawStatus(port, route.method, target);
        if (![401, 404, 405, 400].includes(anonymous)) wrong.push(`anonymous ${route.method} ${target} → ${anonymous}`);
        // A user of tenant A without the route's API scope: the route's own 403, or no route.
        if (route.access.apiScope) {
          const plain = await rawStatus(port, route.method, target, plainA);
          if (![403, 404, 405, 400].includes(plain)) wrong.push(`unscoped ${route.method} ${target} → ${plain}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('still serves each route under its plain spelling and the spellings the router folds', async () => {
    // The platform administrator reaches a route through `/%61pi` and a trailing slash alike:
    // the check above is not passing because every odd spelling is simply refused.
    const res = await t.as(platformAdmin, { method: 'GET', url: '/%61pi/blade-system/menu/tree/' });
    expect(res.statusCode).toBe(200);
    const anonymous = await t.app.inject({ method: 'GET', url: '/%61pi/blade-auth/oauth/clear-cache' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('never shows a row of tenant A to tenant B, whatever the route and id', async () => {
    const leaks: string[] = [];
    const check = async (route: ApiRouteInfo, query: string) => {
      const res = await call(adminB, route, query);
      if (!res.body.includes(MARKER)) return;
      // A refusal may repeat the device code B itself sent ("设备 … 不存在或无权访问"); it carries no row.
      const reply = JSON.parse(res.body) as { success?: boolean; data?: unknown };
      if (query.includes(MARKER_DEVICE) && reply.success === false && reply.data === null) return;
      leaks.push(`${route.url}${query} ${res.body.slice(0, 300)}`);
    };
    const gets = routes().filter((r) => r.method === 'GET');
    for (const route of gets) {
      // The workflow's reads name their row by their own parameter names.
      const flowQuery = `?processInstanceId=${markerIds.flowInstance}&businessId=${markerIds.leave}&processDefinitionId=${markerIds.flowDefinition}&taskId=${markerIds.flowTask}`;
      for (const query of ['', '?size=1000', flowQuery, ...Object.values(markerIds).map((id) => `?id=${id}`)]) {
        await check(route, query);
      }
    }
    // The telemetry calls take a device code (and fields) instead of an id. Last, and not on the
    // logs: B's own API log rightly records the addresses B called, marker included.
    for (const route of gets.filter((r) => !r.url.startsWith('/api/blade-log/'))) {
      for (const query of [`?deviceCode=${MARKER_DEVICE}`, `?deviceCode=${MARKER_DEVICE}&field=chlorine`]) {
        await check(route, query);
      }
    }
    expect(leaks).toEqual([]);
  }, 120_000);

  it('sums tenant A’s records into A’s disinfection ledger only, in the list and the export', async () => {
    // The marker record ended on 2026-01-01: January's ledger holds it for A (so the check bites).
    const query = '?period=month&startDate=2026-01&endDate=2026-01&size=1000';
    const ledger = '/api/blade-business/disinfection/ledger';
    const ofA = await t.as(adminA, { method: 'GET', url: `${ledger}${query}` });
    expect(ofA.statusCode).toBe(200);
    expect(ofA.body).toContain(MARKER_DEVICE);
    for (const url of [`${ledger}${query}`, `${ledger}${query}&deviceId=${markerIds.device}`]) {
      const ofB = await t.as(adminB, { method: 'GET', url });
      expect(ofB.statusCode, url).toBe(200);
      expect(ofB.json().data.total, url).toBe(0);
    }
    const sheets = async (token: string) => {
      const res = await t.as(token, { method: 'GET', url: `${ledger}/export${query}` });
      expect(res.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const cells: string[] = [];
      book.worksheets[0]?.eachRow((row) => cells.push(JSON.stringify(row.values)));
      return cells.join('\n');
    };
    expect(await sheets(adminA)).toContain(MARKER);
    expect(await sheets(adminB)).not.toContain(MARKER);
  });

  it('refuses tenant B a submit or remove naming tenant A’s ids, and changes nothing', async () => {
    const targets = tenantWriteTargets();
    for (const [base, id] of targets) {
      const submit = await t.as(adminB, { method: 'POST', url: `${base}/submit`, payload: { id, name: 'hijack' } });
      expect(submit.json().success, `${base}/submit`).toBe(false);
      const remove = await t.as(adminB, { method: 'POST', url: `${base}/remove?ids=${id}` });
      expect(remove.json().success, `${base}/remove`).toBe(false);
      const detail = await t.as(adminA, { method: 'GET', url: `${base}/detail?id=${id}` });
      expect(detail.statusCode, `${base}/detail still there`).toBe(200);
      expect(detail.body).not.toContain('hijack');
    }
    // A report file has no submit: B can neither remove A's file nor make one from A's template.
    const removeFile = await t.as(adminB, {
      method: 'POST',
      url: `/api/blade-report/report/rest/remove?ids=${markerIds.reportFile}`,
    });
    expect(removeFile.json().success, 'report file remove').toBe(false);
    const fileOfA = await t.as(adminA, {
      method: 'GET',
      url: `/api/blade-report/report/rest/detail?id=${markerIds.reportFile}`,
    });
    expect(fileOfA.statusCode, 'report file still there').toBe(200);
    const reportWrites: [string, Record<string, unknown>][] = [
      [
        '/api/blade-report/report/rest/generate',
        { templateId: markerIds.reportTemplate, format: 'pdf', params: { from: '2026-01-01', to: '2026-01-31' } },
      ],
      ['/api/blade-report/template/preview', { id: markerIds.reportTemplate }],
      [REPORT_LAYOUT_URL, { id: markerIds.reportTemplate, layout: null }],
    ];
    for (const [url, payload] of reportWrites) {
      const res = await t.as(adminB, { method: 'POST', url, payload });
      expect(res.statusCode, url).not.toBe(200);
      expect(res.body, url).not.toContain(MARKER);
    }
    // A's layout is as A saved it (B's save of null above changed nothing), and B cannot read it.
    const templateOfA = await ok(adminA, 'GET', `/api/blade-report/template/detail?id=${markerIds.reportTemplate}`);
    expect(templateOfA.layout).toEqual(markerLayout());
    const dataOfA = await t.as(adminB, {
      method: 'GET',
      url: `/api${REPORT_DATA_PATH}?id=${markerIds.reportTemplate}`,
    });
    expect(dataOfA.statusCode, 'report data of A').not.toBe(200);
    expect(dataOfA.body).not.toContain(MARKER);
    const filesOfB = await ok(adminB, 'GET', '/api/blade-report/report/rest/list?size=1000');
    expect(JSON.stringify(filesOfB)).not.toContain(MARKER);
    // The workflow's own writes, each naming tenant A's rows.
    for (const [url, payload] of flowWrites()) {
      const res = await t.as(adminB, { method: 'POST', url, payload });
      expect(res.json().success, url).toBe(false);
    }
    // An upload to tenant A's definitions by B's administrator (multipart, so not in the list above).
    const upload = await t.as(adminB, {
      method: 'POST',
      url: FLOW_UPLOAD,
      headers: { 'content-type': `multipart/form-data; boundary=${UPLOAD_BOUNDARY}` },
      payload: uploadBody('100001', markerModelXml().replace('marker_flow', 'marker_upload')),
    });
    expect(upload.json().success, FLOW_UPLOAD).toBe(false);
    const uploaded = await ok(adminA, 'GET', '/api/blade-flow/manager/list?key=marker_upload');
    expect(uploaded.records).toEqual([]);
    const definitions = await ok(adminA, 'GET', '/api/blade-flow/manager/list?key=marker_flow');
    expect(definitions.records.map((d: { suspensionState: number }) => d.suspensionState)).toEqual([1]);
    const todo = await ok(plainA, 'GET', '/api/blade-flow/work/todo-list');
    expect(todo.records.map((r: { taskId: string; comment: string }) => [r.taskId, r.comment])).toEqual([
      [markerIds.flowTask, ''],
    ]);
    const follow = await ok(adminA, 'GET', '/api/blade-flow/follow/list');
    expect(follow.records.map((r: { id: string }) => r.id)).toContain(markerIds.flowInstance);
    // The leave form's approver picker offers the caller's tenant only.
    const pickable = await ok(adminB, 'GET', '/api/blade-flow/work/user-select');
    expect(pickable.map((u: { id: string }) => u.id)).not.toContain(markerIds.user);
    const ownPickable = await ok(plainA, 'GET', '/api/blade-flow/work/user-select');
    expect(ownPickable.map((u: { id: string }) => u.id)).toContain(markerIds.user);
  });
});

describe('sessions that end or re-check with their account, on every route', () => {
  async function tenantAUser(account: string, roleId: string) {
    const id = await ok(adminA, 'POST', '/api/blade-user/submit', {
      account,
      password: md5(`${account}#123`),
      name: account,
      realName: account,
      userType: 1,
      roleId,
      deptId: markerIds.dept,
    });
    const token = (await t.signIn(account, `${account}#123`, '100001')).access_token;
    return { id: id as string, token };
  }

  it('refuses a removed user’s token on every signed-in route (401)', async () => {
    const roles: { id: string; roleAlias: string }[] = await ok(adminA, 'GET', '/api/blade-system/role/list');
    const adminRole = roles.find((r) => r.roleAlias === 'admin');
    const gone = await tenantAUser('gone', adminRole?.id ?? '');
    expect((await t.as(gone.token, { method: 'GET', url: '/api/blade-system/post/list' })).statusCode).toBe(200);
    await ok(adminA, 'POST', `/api/blade-user/remove?ids=${gone.id}`);
    const open: string[] = [];
    for (const route of routes()) {
      const res = await call(gone.token, route);
      if (res.statusCode !== 401) open.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('takes a role’s rights away on every scoped route as soon as the role is taken away (403)', async () => {
    const roles: { id: string; roleAlias: string }[] = await ok(adminA, 'GET', '/api/blade-system/role/list');
    const adminRole = roles.find((r) => r.roleAlias === 'admin');
    const demoted = await tenantAUser('demoted', adminRole?.id ?? '');
    expect((await t.as(demoted.token, { method: 'GET', url: '/api/blade-system/post/list' })).statusCode).toBe(200);
    await ok(adminA, 'POST', '/api/blade-user/grant', { userIds: demoted.id, roleIds: markerIds.role });
    const open: string[] = [];
    for (const route of routes().filter((r) => r.access.apiScope)) {
      const res = await call(demoted.token, route);
      if (res.statusCode !== 403) open.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(open).toEqual([]);
  });
});
