import { DEFAULT_TENANT_ID, type EnumEntry } from '@mes/contracts';
import type { Db } from '../platform/db/database';
import * as t from '../platform/db/schema';
import { newClientId } from '../platform/crypto/device-credentials';
import { ADMIN_USER, DEPT_IDS } from './seed-data';
import { derivedSeedId } from './seed-ids';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Demo products and devices of the platform tenant, seeded once on a fresh install (with the
 * administrator account), so that `npm run simulate` has something to animate and the device
 * screens are not empty (docs/simulator.md). An existing install never gets them: demo rows in a
 * customer's console would be noise. Ids are derived from the codes like every seeded row.
 */

export type DemoKind = 'waterline' | 'steriliser';

export interface DemoField {
  fieldKey: string;
  fieldName: string;
  dataType: 'int' | 'float' | 'bool' | 'string' | 'enum';
  unit: string;
  precision: number;
  access: 'r' | 'rw';
  /** Names of the values (program, phase, fault code), as the simulator means them. */
  enumeration?: readonly EnumEntry[];
}

export interface DemoProgram {
  programNo: number;
  programName: string;
  durationMinutes: number;
  targetTemperature: string | null;
  targetConcentration: string | null;
}

/** A product alarm rule as seeded (docs/warnings.md); the simulator's devices trip them now and then. */
export interface DemoAlarmRule {
  ruleType: 'threshold' | 'rate' | 'offline' | 'cycle' | 'concentration';
  /** '' for offline and cycle rules. */
  fieldKey: string;
  operator: '>' | '>=' | '<' | '<=' | '==' | '!=';
  /** null: a concentration rule follows the running program's target concentration. */
  threshold: string | null;
  durationSeconds: number;
  level: number;
}

const threshold = (
  fieldKey: string,
  operator: DemoAlarmRule['operator'],
  value: string,
  durationSeconds: number,
  level: number,
): DemoAlarmRule => ({ ruleType: 'threshold', fieldKey, operator, threshold: value, durationSeconds, level });
/** A failed or aborted cycle. */
const cycleRule = (level: number): DemoAlarmRule => ({
  ruleType: 'cycle',
  fieldKey: '',
  operator: '>',
  threshold: null,
  durationSeconds: 0,
  level,
});
/** Offline this long (wall-clock seconds: the simulator's speed does not stretch them). */
const offlineRule = (durationSeconds: number, level: number): DemoAlarmRule => ({
  ruleType: 'offline',
  fieldKey: '',
  operator: '>',
  threshold: null,
  durationSeconds,
  level,
});

/** A PLC variable as seeded: the columns that differ from the resource's defaults. */
/**
 * A demo PLC variable as the `plcvariable` resource stores it (scaling, limits, report strategy
 * both): the seed inserts these values, the demo tenant submits them through the route.
 */
export function plcVariableValues(v: DemoPlcVariable) {
  return {
    name: v.name,
    label: v.label,
    address: v.address,
    registerType: v.registerType,
    dataType: v.dataType,
    multiplier: v.multiplier ?? '1',
    offset: '0',
    rawLow: v.range?.rawLow ?? null,
    rawHigh: v.range?.rawHigh ?? null,
    engLow: v.range?.engLow ?? null,
    engHigh: v.range?.engHigh ?? null,
    decimals: v.decimals,
    unit: v.unit,
    reportStrategy: 3,
    limitLl: v.limits?.ll ?? null,
    limitL: v.limits?.l ?? null,
    limitH: v.limits?.h ?? null,
    limitHh: v.limits?.hh ?? null,
  };
}

export interface DemoPlcVariable {
  name: string;
  label: string;
  address: string;
  registerType: number;
  dataType: 'BOOL' | 'INT16' | 'UINT16' | 'INT32' | 'FLOAT' | 'DOUBLE' | 'STRING';
  multiplier?: string;
  range?: { rawLow: string; rawHigh: string; engLow: string; engHigh: string };
  decimals: number;
  unit: string;
  limits?: { ll?: string; l?: string; h?: string; hh?: string };
}

export interface DemoProduct {
  kind: DemoKind;
  productCode: string;
  productName: string;
  /** `product_category`: 1 waterline disinfector, 2 steam steriliser. */
  category: number;
  inactivitySeconds: number;
  remark: string;
  fields: readonly DemoField[];
  programs: readonly DemoProgram[];
  alarmRules: readonly DemoAlarmRule[];
  plcVariables: readonly DemoPlcVariable[];
  /** How the devices' run state follows their fields (docs/devices.md "Run state"); '' for none. */
  runState: { phaseField: string; faultField: string; programField: string; remainingField: string };
}

const field = (
  fieldKey: string,
  fieldName: string,
  dataType: DemoField['dataType'],
  unit: string,
  precision: number,
  access: DemoField['access'] = 'r',
  enumeration?: readonly EnumEntry[],
): DemoField => ({ fieldKey, fieldName, dataType, unit, precision, access, ...(enumeration ? { enumeration } : {}) });

/** `[value, 中文, English]` rows as enumeration entries. */
const named = (...entries: readonly (readonly [number, string, string])[]): EnumEntry[] =>
  entries.map(([value, zh, en]) => ({ value: String(value), zh, en }));

// The simulator's meanings (simulator/waterline-model.ts: WATERLINE_PROGRAMS, WaterlinePhase,
// WATERLINE_FAULTS).
const WATERLINE_ENUMS = {
  program: named(
    [1, '日常补氯', 'Daily chlorine top-up'],
    [2, '强化冲击消毒', 'Shock disinfection'],
    [3, '下班冲洗', 'End-of-day flush'],
  ),
  phase: named([0, '空闲', 'Idle'], [1, '加药', 'Dosing'], [2, '保持', 'Holding'], [3, '冲洗', 'Flushing']),
  faultCode: named(
    [0, '无故障', 'No fault'],
    [101, '药液箱空', 'Tank empty'],
    [102, '加药泵故障', 'Dosing pump fault'],
    [103, '无水流', 'No flow'],
    [104, '余氯传感器异常', 'Chlorine sensor fault'],
  ),
};

// simulator/steriliser-model.ts: STERILISER_PROGRAMS, SteriliserPhase, STERILISER_FAULTS.
const STERILISER_ENUMS = {
  program: named(
    [1, '134℃ 标准', '134 °C standard'],
    [2, '134℃ 朊病毒', '134 °C prion'],
    [3, '121℃ 织物', '121 °C textiles'],
    [4, 'B-D 测试', 'Bowie-Dick test'],
  ),
  phase: named(
    [0, '空闲', 'Idle'],
    [1, '预真空', 'Pre-vacuum'],
    [2, '升温', 'Heating'],
    [3, '灭菌', 'Sterilising'],
    [4, '排汽', 'Exhaust'],
    [5, '干燥', 'Drying'],
  ),
  faultCode: named(
    [0, '无故障', 'No fault'],
    [201, '蒸汽供应不足', 'Steam supply fault'],
    [202, '真空未达到', 'Vacuum not reached'],
  ),
};

export const WATERLINE_PRODUCT: DemoProduct = {
  kind: 'waterline',
  productCode: 'WL-PRO',
  productName: '牙椅水路消毒机 WL-PRO',
  category: 1,
  inactivitySeconds: 300,
  remark: '演示产品(npm run simulate)',
  fields: [
    field('chlorine', '有效氯', 'float', 'mg/L', 2),
    field('orp', '氧化还原电位', 'float', 'mV', 0),
    field('ph', 'pH', 'float', '', 2),
    field('waterTemp', '水温', 'float', '℃', 1),
    field('flow', '流量', 'float', 'L/min', 2),
    field('tankLevel', '药液余量', 'float', '%', 1),
    field('program', '程序号', 'int', '', 0, 'rw', WATERLINE_ENUMS.program),
    // 0 idle, 1 dosing, 2 holding, 3 flushing (simulator/waterline-model.ts).
    field('phase', '运行阶段', 'enum', '', 0, 'r', WATERLINE_ENUMS.phase),
    field('faultCode', '故障码', 'int', '', 0, 'r', WATERLINE_ENUMS.faultCode),
    field('cycleCount', '累计周期', 'int', '', 0),
  ],
  // No remaining time: the waterline reports no countdown (its cycles are minutes long).
  runState: { phaseField: 'phase', faultField: 'faultCode', programField: 'program', remainingField: '' },
  programs: [
    {
      programNo: 1,
      programName: '日常补氯',
      durationMinutes: 12,
      targetTemperature: null,
      targetConcentration: '2.00',
    },
    {
      programNo: 2,
      programName: '强化冲击消毒',
      durationMinutes: 45,
      targetTemperature: null,
      targetConcentration: '50.00',
    },
    { programNo: 3, programName: '下班冲洗', durationMinutes: 2, targetTemperature: null, targetConcentration: null },
  ],
  alarmRules: [
    threshold('chlorine', '>', '80', 0, 1),
    threshold('ph', '<', '6', 120, 3),
    threshold('ph', '>', '8.5', 120, 3),
    threshold('tankLevel', '<', '10', 0, 3),
    threshold('faultCode', '!=', '0', 0, 2),
    // Free chlorine left under 0.4 mg/L (the mains water's 0.3 plus a trace) for 10 s of wall clock,
    // ~10 simulated minutes at the simulator's default speed: the top-up program failed.
    { ruleType: 'concentration', fieldKey: 'chlorine', operator: '<', threshold: '0.4', durationSeconds: 10, level: 2 },
    cycleRule(2),
    offlineRule(120, 3),
  ],
  plcVariables: [
    {
      name: 'chlorine',
      label: '有效氯',
      address: '40001',
      registerType: 4,
      dataType: 'UINT16',
      // 0.01 mg/L per count.
      range: { rawLow: '0', rawHigh: '10000', engLow: '0', engHigh: '100' },
      decimals: 2,
      unit: 'mg/L',
      limits: { ll: '0.1', l: '0.3', h: '60', hh: '90' },
    },
    {
      name: 'ph',
      label: 'pH',
      address: '40002',
      registerType: 4,
      dataType: 'INT16',
      multiplier: '0.01',
      decimals: 2,
      unit: '',
      limits: { ll: '5.5', l: '6', h: '8.5', hh: '9' },
    },
    {
      name: 'waterTemp',
      label: '水温',
      address: '30001',
      registerType: 3,
      dataType: 'INT16',
      multiplier: '0.1',
      decimals: 1,
      unit: '℃',
      limits: { h: '40', hh: '45' },
    },
    {
      name: 'tankLevel',
      label: '药液余量',
      address: '30002',
      registerType: 3,
      dataType: 'UINT16',
      // A 12-bit level sensor.
      range: { rawLow: '0', rawHigh: '4095', engLow: '0', engHigh: '100' },
      decimals: 1,
      unit: '%',
      limits: { ll: '5', l: '10' },
    },
  ],
};

export const STERILISER_PRODUCT: DemoProduct = {
  kind: 'steriliser',
  productCode: 'ST-B23',
  productName: '压力蒸汽灭菌器 B 类 23L',
  category: 2,
  inactivitySeconds: 300,
  remark: '演示产品(npm run simulate)',
  fields: [
    field('chamberTemp', '腔体温度', 'float', '℃', 1),
    field('chamberPressure', '腔体压力', 'float', 'kPa', 1),
    field('program', '程序号', 'int', '', 0, 'rw', STERILISER_ENUMS.program),
    // 0 idle, 1 pre-vacuum, 2 heating, 3 sterilising, 4 exhaust, 5 drying (simulator/steriliser-model.ts).
    field('phase', '运行阶段', 'enum', '', 0, 'r', STERILISER_ENUMS.phase),
    field('remainingSeconds', '剩余时间', 'int', 's', 0),
    field('doorClosed', '门已关闭', 'bool', '', 0),
    field('faultCode', '故障码', 'int', '', 0, 'r', STERILISER_ENUMS.faultCode),
    field('cycleCount', '累计周期', 'int', '', 0),
  ],
  runState: {
    phaseField: 'phase',
    faultField: 'faultCode',
    programField: 'program',
    remainingField: 'remainingSeconds',
  },
  programs: [
    {
      programNo: 1,
      programName: '134℃ 标准',
      durationMinutes: 40,
      targetTemperature: '134.00',
      targetConcentration: null,
    },
    {
      programNo: 2,
      programName: '134℃ 朊病毒',
      durationMinutes: 55,
      targetTemperature: '134.00',
      targetConcentration: null,
    },
    {
      programNo: 3,
      programName: '121℃ 织物',
      durationMinutes: 55,
      targetTemperature: '121.00',
      targetConcentration: null,
    },
    {
      programNo: 4,
      programName: 'B-D 测试',
      durationMinutes: 25,
      targetTemperature: '134.00',
      targetConcentration: null,
    },
  ],
  alarmRules: [
    // The chamber over 136 ℃ (a 134 ℃ hold overshooting; the PLC variable's H 137 / HH 138 limits
    // watch the same value): a few times a simulated day.
    threshold('chamberTemp', '>', '136', 0, 2),
    threshold('chamberPressure', '>', '250', 0, 1),
    threshold('faultCode', '!=', '0', 0, 2),
    cycleRule(2),
    offlineRule(120, 3),
  ],
  plcVariables: [
    {
      name: 'chamberTemp',
      label: '腔体温度',
      address: 'DB1,REAL0',
      registerType: 5,
      dataType: 'FLOAT',
      decimals: 1,
      unit: '℃',
      limits: { h: '137', hh: '138' },
    },
    {
      name: 'chamberPressure',
      label: '腔体压力',
      address: 'DB1,REAL4',
      registerType: 5,
      dataType: 'FLOAT',
      decimals: 1,
      unit: 'kPa',
      limits: { ll: '-100', h: '230', hh: '250' },
    },
  ],
};

export const DEMO_PRODUCTS: readonly DemoProduct[] = [WATERLINE_PRODUCT, STERILISER_PRODUCT];

export interface DemoDevice {
  deviceCode: string;
  deviceName: string;
  productCode: string;
  chairs: number;
  location: string;
  serialNo: string;
}

export const DEMO_DEVICES: readonly DemoDevice[] = [
  {
    deviceCode: 'DEMO-WL-01',
    deviceName: '1 号诊室水路消毒机',
    productCode: 'WL-PRO',
    chairs: 4,
    location: '1 号诊室',
    serialNo: 'WLP2603001',
  },
  {
    deviceCode: 'DEMO-WL-02',
    deviceName: '2 号诊室水路消毒机',
    productCode: 'WL-PRO',
    chairs: 3,
    location: '2 号诊室',
    serialNo: 'WLP2603002',
  },
  {
    deviceCode: 'DEMO-ST-01',
    deviceName: '消毒室灭菌器 A',
    productCode: 'ST-B23',
    chairs: 0,
    location: '消毒供应室',
    serialNo: 'STB2603001',
  },
  {
    deviceCode: 'DEMO-ST-02',
    deviceName: '消毒室灭菌器 B',
    productCode: 'ST-B23',
    chairs: 0,
    location: '消毒供应室',
    serialNo: 'STB2603002',
  },
];

export const demoProductId = (code: string) => derivedSeedId('demo-product', code);
const demoChildId = (kind: string, productCode: string, key: string) =>
  derivedSeedId('demo-product', productCode, kind, key);
export const demoDeviceId = (code: string) => derivedSeedId('demo-device', code);

const owned = { tenantId: DEFAULT_TENANT_ID, createUser: ADMIN_USER.id, createDept: DEPT_IDS.company };

/**
 * Inserts the demo products (with model fields, programs, alarm rules and PLC variables) and
 * devices. Called in the seed's transaction right after the administrator account is created, so
 * it runs once per install. Devices get a client id but no secret: the simulator (or 密钥) issues one.
 */
export async function seedDemoDevices(tx: Tx): Promise<void> {
  const madeProducts = new Set<string>();
  for (const p of DEMO_PRODUCTS) {
    const productId = demoProductId(p.productCode);
    const made = await tx
      .insert(t.product)
      .values({
        ...owned,
        id: productId,
        productCode: p.productCode,
        productName: p.productName,
        category: p.category,
        protocol: 'mqtt-json',
        inactivitySeconds: p.inactivitySeconds,
        ...p.runState,
        sort: p.category,
        remark: p.remark,
      })
      .onConflictDoNothing()
      .returning({ id: t.product.id });
    // A product of this code that was there before keeps its own model.
    if (!made.length) continue;
    madeProducts.add(p.productCode);
    await tx.insert(t.productField).values(
      p.fields.map((f, i) => ({
        ...owned,
        ...f,
        id: demoChildId('field', p.productCode, f.fieldKey),
        productId,
        sort: i + 1,
      })),
    );
    await tx.insert(t.productProgram).values(
      p.programs.map((g, i) => ({
        ...owned,
        ...g,
        id: demoChildId('program', p.productCode, String(g.programNo)),
        productId,
        sort: i + 1,
      })),
    );
    await tx.insert(t.productAlarmRule).values(
      p.alarmRules.map((r, i) => ({
        ...owned,
        ...r,
        id: demoChildId('alarm', p.productCode, String(i + 1)),
        productId,
        sort: i + 1,
      })),
    );
    await tx.insert(t.plcVariable).values(
      p.plcVariables.map((v) => ({
        ...owned,
        id: demoChildId('plc', p.productCode, v.name),
        productId,
        ...plcVariableValues(v),
      })),
    );
  }
  for (const d of DEMO_DEVICES) {
    if (!madeProducts.has(d.productCode)) continue;
    await tx
      .insert(t.device)
      .values({
        ...owned,
        id: demoDeviceId(d.deviceCode),
        deviceCode: d.deviceCode,
        deviceName: d.deviceName,
        productId: demoProductId(d.productCode),
        // No department: a device stands in a clinic or base (deptCategory 4/5) and none is seeded, as
        // the seeded department tree is what other screens and tests build on. The simulator
        // files them under a demo clinic it creates (simulator/demo-clinic.ts).
        deptId: null,
        chairs: d.chairs,
        location: d.location,
        serialNo: d.serialNo,
        firmware: '1.0.0',
        mqttClientId: newClientId(),
        mqttSecretHash: '',
        remark: '演示设备(npm run simulate)',
      })
      .onConflictDoNothing();
  }
}
