import { randomBytes } from 'node:crypto';
import { and, count as count_, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEMO_ADMIN_ACCOUNT, DEMO_TENANT_ID, DEMO_TENANT_NAME, WarningStatus } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { hashPassword, md5Hex } from '../../platform/auth/passwords';
import { deviceCycle, disinfectionRecord, tenant, user, warning } from '../../platform/db/schema';
import { liveRows, tenantScope } from '../../platform/tenancy/tenant-scope';
import { plcVariableValues } from '../../seed/demo-devices';
import { ADMIN_USER, PLATFORM_TENANT } from '../../seed/seed-data';
import { chance, pick, seededRng, uniform } from '../../simulator/rng';
import { disinfectionRecordChain, recordsFromCycles } from '../business/disinfection/records-from-cycles';
import { handleWarnings } from '../warning/warning-routes';
import { TenantMessages } from '../system/tenant-provision';
import {
  DEMO_ARTICLES,
  DEMO_BASES,
  DEMO_CARS,
  DEMO_HANDLE_RESULTS,
  DEMO_JUDGED_DEVICE,
  DEMO_LINES,
  DEMO_TENANT_DEVICES,
  DEMO_TENANT_PRODUCTS,
  JUDGED_SPAN_MS,
} from './demo-data';
import { judgedStep, maintenanceStep, profilesStep } from './demo-judgement';
import { HISTORY_DAYS, replayHistory, type HistoryDevice } from './demo-history';
import { DemoApi, DemoCallError, type DemoOptions, type DemoSession } from './demo-session';
import { verificationStep } from './demo-verification';
import { peopleStep } from './demo-people';
import { demoPacksStep } from './demo-packs';

/**
 * The demo tenant, step by step (docs/demo.md). Each step finds what an earlier run made (by
 * name, code or plate) and makes only what is missing, so a second run adds nothing. The history
 * (cycles, telemetry, warnings) is made once: only while the tenant has no cycle at all.
 *
 * A step that needs the month's cycles and records (the verification records: BD tests of the
 * sterilisers, biological indicators, waterline samples) goes after `records` and before
 * `warnings`, and runs only when `session.historyMade` (see docs/demo.md "Adding a step").
 */

// The session's types live in demo-session.ts, which the steps' files import (no loop back here).
export type { DemoOptions, DemoSession } from './demo-session';

export interface DemoStep {
  /** A key of `DEMO_STEP_LABELS` (the card's progress). */
  name: string;
  run(s: DemoSession): Promise<void>;
}

const count = (s: DemoSession, kind: string, n = 1) => {
  if (n) s.made[kind] = (s.made[kind] ?? 0) + n;
};

/** `yyyy-MM-dd` of a day `daysAgo` before now, in the product's zone (UTC+8). */
const dayBefore = (now: number, daysAgo: number) =>
  new Date(now - daysAgo * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);

interface Row {
  id: string;
}

/** Finds the demo tenant by name, else adds it under DEMO_TENANT_ID or the next free id. */
async function tenantStep(s: DemoSession): Promise<void> {
  const [found] = await s.ctx.db
    .select({ tenantId: tenant.tenantId })
    .from(tenant)
    .where(and(eq(tenant.tenantName, DEMO_TENANT_NAME), liveRows(tenant)))
    .limit(1);
  let tenantId = found?.tenantId;
  if (!tenantId) {
    for (let n = Number(DEMO_TENANT_ID); !tenantId; n++) {
      const candidate = String(n);
      try {
        await s.platform.post('/blade-system/tenant/submit', {
          tenantId: candidate,
          tenantName: DEMO_TENANT_NAME,
          linkman: '演示管理员',
          contactNumber: '13800000000',
          address: '江苏省苏州市工业园区',
          accountNumber: -1,
        });
        tenantId = candidate;
      } catch (error) {
        const taken: string[] = [TenantMessages.duplicate.zh, TenantMessages.tenantIdInUse.zh];
        if (!(error instanceof DemoCallError) || !taken.includes(error.consoleMessage ?? '') || n > 999_998)
          throw error;
      }
    }
    s.createdTenant = true;
    count(s, 'tenants');
  }
  s.tenantId = tenantId;
  const [admin] = await tenantScope(s.ctx.db, tenantId)
    .select(user, { id: user.id, deptId: user.deptId })
    .where(eq(user.account, DEMO_ADMIN_ACCOUNT), liveRows(user))
    .limit(1);
  if (!admin) throw new Error(`demo tenant ${tenantId} has no ${DEMO_ADMIN_ACCOUNT} account`);
  if (s.createdTenant) {
    // A generated password, never a fixed one: the tenant default is shared by every new tenant.
    let hash = s.options.passwordHash;
    if (!hash) {
      s.generatedPassword = randomBytes(12).toString('base64url');
      hash = await hashPassword(md5Hex(s.generatedPassword));
    }
    await tenantScope(s.ctx.db, tenantId).update(user).set({ password: hash }).where(eq(user.id, admin.id));
  }
  s.adminUserId = String(admin.id);
  s.rootDeptId = String(admin.deptId);
  s.admin = await DemoApi.as(s.app, s.ctx, tenantId, s.adminUserId);
}

async function departmentsStep(s: DemoSession): Promise<void> {
  const bases = await s.admin.get<(Row & { deptName: string })[]>('/blade-system/dept/getBases');
  const nodes = await s.admin.get<(Row & { deptName: string })[]>('/blade-system/dept/getNodes');
  for (const d of [...bases, ...nodes]) s.depts.set(d.deptName, String(d.id));
  for (const [i, base] of DEMO_BASES.entries()) {
    let baseId = s.depts.get(base.deptName);
    if (!baseId) {
      baseId = String(
        await s.admin.post<string>('/blade-system/dept/submit', {
          deptName: base.deptName,
          fullName: base.fullName,
          parentId: s.rootDeptId,
          deptCategory: 4,
          sort: i + 1,
        }),
      );
      s.depts.set(base.deptName, baseId);
      count(s, 'departments');
    }
    for (const [j, clinic] of base.clinics.entries()) {
      if (s.depts.has(clinic.deptName)) continue;
      const id = await s.admin.post<string>('/blade-system/dept/submit', {
        deptName: clinic.deptName,
        fullName: clinic.fullName,
        parentId: baseId,
        deptCategory: 5,
        sort: j + 1,
      });
      s.depts.set(clinic.deptName, String(id));
      count(s, 'departments');
    }
  }
}

async function productsStep(s: DemoSession): Promise<void> {
  const existing = await s.admin.rows<Row & { productCode: string }>('/basic/product/list');
  for (const p of existing) s.products.set(p.productCode, String(p.id));
  for (const [i, p] of DEMO_TENANT_PRODUCTS.entries()) {
    let productId = s.products.get(p.productCode);
    if (!productId) {
      productId = String(
        await s.admin.post<string>('/basic/product/submit', {
          productCode: p.productCode,
          productName: p.productName,
          category: p.category,
          protocol: 'mqtt-json',
          inactivitySeconds: p.inactivitySeconds,
          ...p.runState,
          sort: i + 1,
          remark: p.remark,
          fields: p.fields.map((f, n) => ({ ...f, sort: n + 1 })),
          programs: p.programs.map((g, n) => ({ ...g, sort: n + 1 })),
          alarmRules: p.alarmRules.map((r, n) => ({ ...r, sort: n + 1 })),
        }),
      );
      s.products.set(p.productCode, productId);
      count(s, 'products');
    }
    const variables = await s.admin.rows<{ name: string }>('/basic/plcvariable/list', { productId });
    const have = new Set(variables.map((v) => v.name));
    for (const v of p.plcVariables) {
      if (have.has(v.name)) continue;
      await s.admin.post('/basic/plcvariable/submit', { productId, ...plcVariableValues(v) });
      count(s, 'plcVariables');
    }
  }
}

async function devicesStep(s: DemoSession): Promise<void> {
  const existing = await s.admin.rows<Row & { deviceCode: string; mqttClientId: string }>('/basic/device/list');
  for (const d of existing) s.devices.set(d.deviceCode, { id: String(d.id), clientId: d.mqttClientId });
  for (const [i, d] of DEMO_TENANT_DEVICES.entries()) {
    if (s.devices.has(d.deviceCode)) continue;
    const id = String(
      await s.admin.post<string>('/basic/device/submit', {
        deviceCode: d.deviceCode,
        deviceName: d.deviceName,
        productId: s.products.get(d.productCode),
        deptId: s.depts.get(d.dept),
        chairs: d.chairs,
        installDate: dayBefore(s.options.now, d.installedDaysAgo),
        location: d.location,
        serialNo: `${d.productCode.replace('-', '')}${String(2500 + i * 7).padStart(6, '0')}`,
        firmware: '2.3.1',
        remark: '演示设备',
      }),
    );
    const detail = await s.admin.get<{ mqttClientId: string }>('/basic/device/detail', { id });
    s.devices.set(d.deviceCode, { id, clientId: detail.mqttClientId });
    count(s, 'devices');
  }
}

/** Lines first (a car's line must exist), then cars, then each line's default car. */
async function logisticsStep(s: DemoSession): Promise<void> {
  const lines = await s.admin.rows<Row & { name: string; defaultCar: string | null }>('/blade-business/line/page');
  for (const l of lines) s.lines.set(l.name, String(l.id));
  for (const [i, l] of DEMO_LINES.entries()) {
    if (s.lines.has(l.name)) continue;
    // Pickup along the line, delivery on the way back: the order is the driver's.
    const clinics = l.clinics.map((c) => s.depts.get(c));
    const stops = [
      ...clinics.map((deptId) => ({ deptId, direction: 1 })),
      ...[...clinics].reverse().map((deptId) => ({ deptId, direction: 2 })),
    ];
    const id = await s.admin.post<string>('/blade-business/line/submit', {
      name: l.name,
      base: s.depts.get(l.base),
      weekdays: l.weekdays,
      departures: l.departures,
      sort: i + 1,
      remark: '演示线路',
      stops,
    });
    s.lines.set(l.name, String(id));
    count(s, 'lines');
  }
  const cars = await s.admin.rows<Row & { barCode: string; line: string | null }>('/blade-business/car/page');
  const carIds = new Map(cars.map((c) => [c.barCode, String(c.id)]));
  for (const [i, c] of DEMO_CARS.entries()) {
    if (carIds.has(c.barCode)) continue;
    const id = await s.admin.post<string>('/blade-business/car/submit', {
      name: c.name,
      plate: c.plate,
      barCode: c.barCode,
      base: s.depts.get(c.base),
      line: s.lines.get(c.line),
      capacity: c.capacity,
      sort: i + 1,
    });
    carIds.set(c.barCode, String(id));
    count(s, 'cars');
  }
  const current = await s.admin.rows<Row & { name: string; defaultCar: string | null }>('/blade-business/line/page');
  for (const l of current) {
    const car = DEMO_CARS.find((c) => c.line === l.name);
    if (l.defaultCar || !car) continue;
    await s.admin.post('/blade-business/line/submit', { id: l.id, defaultCar: carIds.get(car.barCode) });
  }
}

async function articlesStep(s: DemoSession): Promise<void> {
  const existing = await s.admin.rows<{ code: string }>('/blade-business/article/page');
  const have = new Set(existing.map((a) => a.code));
  for (const a of DEMO_ARTICLES) {
    if (have.has(a.code)) continue;
    await s.admin.post('/blade-business/article/submit', {
      code: a.code,
      barCode: `69${a.code.replace(/\D/g, '').padStart(8, '0')}${a.category}`,
      name: a.name,
      category: a.category,
      contents: a.contents,
      packMaterial: a.packMaterial,
      climateControlled: a.climateControlled,
      sterilizeMethod: a.sterilizeMethod,
      packDate: dayBefore(s.options.now, a.packedDaysAgo),
      ownerDept: s.depts.get(a.owner),
    });
    count(s, 'articles');
  }
}

/** The month of cycles and the last day of telemetry, once: only while the tenant has no cycle. */
async function historyStep(s: DemoSession): Promise<void> {
  const [any] = await tenantScope(s.ctx.db, s.tenantId).select(deviceCycle, { id: deviceCycle.id }).where().limit(1);
  if (any) return;
  s.recordsBefore = await recordCount(s);
  const devices: HistoryDevice[] = DEMO_TENANT_DEVICES.flatMap((d) => {
    const made = s.devices.get(d.deviceCode);
    const product = DEMO_TENANT_PRODUCTS.find((p) => p.productCode === d.productCode);
    // The judged steriliser's last hours are the judged step's (demo-judgement.ts).
    const until = d.deviceCode === DEMO_JUDGED_DEVICE ? s.options.now - JUDGED_SPAN_MS : undefined;
    return made && product ? [{ deviceCode: d.deviceCode, clientId: made.clientId, product, until }] : [];
  });
  const replayed = await replayHistory(s.ctx, s.tenantId, devices, s.options.now);
  count(s, 'messages', replayed.stored);
  const [cycles] = await tenantScope(s.ctx.db, s.tenantId).select(deviceCycle, { n: count_() }).where();
  count(s, 'cycles', Number(cycles?.n ?? 0));
  s.historyMade = true;
}

/**
 * The disinfection records of the month's cycles, through the records job's own function with a
 * window wide enough for the month. The job itself, woken by the new cycles, may have made some
 * of them meanwhile: what this run made is the tenant's records now less those before the history.
 */
async function recordsStep(s: DemoSession): Promise<void> {
  const lookback = (HISTORY_DAYS + 2) * 86_400_000;
  const made = await recordsFromCycles(s.ctx, disinfectionRecordChain(), s.tenantId, lookback);
  count(s, 'records', s.historyMade ? (await recordCount(s)) - s.recordsBefore : made);
}

const recordCount = async (s: DemoSession) => {
  const [row] = await tenantScope(s.ctx.db, s.tenantId).select(disinfectionRecord, { n: count_() }).where();
  return Number(row?.n ?? 0);
};

/**
 * Most warnings older than a day were handled by the demo administrator, 10 minutes to 4 hours
 * after they began; the rest, and the recent ones, wait on the welcome page's work list.
 */
async function warningsStep(s: DemoSession): Promise<void> {
  if (!s.historyMade) return;
  const rows = await tenantScope(s.ctx.db, s.tenantId)
    .select(warning, { id: warning.id, startTime: warning.startTime })
    .where(
      sql`${warning.status} in (${WarningStatus.activeUnhandled}, ${WarningStatus.clearedUnhandled})`,
      lt(warning.startTime, new Date(s.options.now - 86_400_000)),
    )
    .orderBy(warning.startTime, warning.id);
  const rng = s.rng;
  for (const w of rows) {
    if (!chance(rng, 0.8) || !w.startTime) continue;
    const at = new Date(Math.min(w.startTime.getTime() + uniform(rng, 10, 240) * 60_000, s.options.now));
    await s.ctx.db.transaction((tx) =>
      handleWarnings(tx, s.tenantId, undefined, [String(w.id)], {
        result: pick(rng, DEMO_HANDLE_RESULTS),
        userId: s.adminUserId,
        userName: '管理员',
        at,
      }),
    );
    count(s, 'warningsHandled');
  }
  await s.ctx.totals.changed('warning', s.tenantId);
}

/** The steps in order; the names are `DEMO_STEP_LABELS`' keys. */
export const DEMO_STEPS: readonly DemoStep[] = [
  { name: 'tenant', run: tenantStep },
  { name: 'departments', run: departmentsStep },
  { name: 'people', run: peopleStep },
  { name: 'products', run: productsStep },
  { name: 'devices', run: devicesStep },
  { name: 'logistics', run: logisticsStep },
  { name: 'articles', run: articlesStep },
  { name: 'history', run: historyStep },
  { name: 'records', run: recordsStep },
  // After the records they verify, before the warnings step (a failed indicator raises one).
  { name: 'verification', run: verificationStep },
  { name: 'packs', run: demoPacksStep },
  { name: 'warnings', run: warningsStep },
  // After the month's records (made unjudged, before the programs were validated): see demo-judgement.ts.
  { name: 'profiles', run: profilesStep },
  { name: 'judged', run: judgedStep },
  { name: 'maintenance', run: maintenanceStep },
];

export interface DemoResult {
  tenantId: string;
  account: string;
  /** This run's generated password (printed once), when it created the tenant. */
  generatedPassword: string | undefined;
  createdTenant: boolean;
  made: Record<string, number>;
  milliseconds: number;
}

/**
 * Runs the steps as the platform administrator (tenant) and the demo administrator (the rest).
 * `progress` hears each step before it runs.
 */
export async function seedDemoTenant(
  app: FastifyInstance,
  ctx: AppContext,
  options: DemoOptions,
  progress: (step: string, done: number, of: number) => Promise<void> | void = () => undefined,
): Promise<DemoResult> {
  const started = performance.now();
  const s = await newDemoSession(app, ctx, options);
  for (const [i, step] of DEMO_STEPS.entries()) {
    await progress(step.name, i, DEMO_STEPS.length);
    await step.run(s);
  }
  await progress('', DEMO_STEPS.length, DEMO_STEPS.length);
  return {
    tenantId: s.tenantId,
    account: DEMO_ADMIN_ACCOUNT,
    generatedPassword: s.generatedPassword,
    createdTenant: s.createdTenant,
    made: s.made,
    milliseconds: Math.round(performance.now() - started),
  };
}

/** A fresh session of the steps, as the platform administrator (the tenant step signs in as the demo's). */
export async function newDemoSession(
  app: FastifyInstance,
  ctx: AppContext,
  options: DemoOptions,
): Promise<DemoSession> {
  const platform = await DemoApi.as(app, ctx, PLATFORM_TENANT.tenantId, ADMIN_USER.id);
  return {
    app,
    ctx,
    options,
    rng: seededRng(20_261_126),
    tenantId: '',
    platform,
    admin: platform,
    adminUserId: '',
    rootDeptId: '',
    generatedPassword: undefined,
    createdTenant: false,
    depts: new Map(),
    products: new Map(),
    devices: new Map(),
    lines: new Map(),
    historyMade: false,
    recordsBefore: 0,
    made: {},
  };
}
