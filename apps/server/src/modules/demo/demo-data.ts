import { STERILISER_PRODUCT, WATERLINE_PRODUCT, type DemoAlarmRule, type DemoProduct } from '../../seed/demo-devices';

/**
 * What the demo tenant holds (docs/demo.md): a dental group with two disinfection bases, three
 * clinics each, the lines and cars between them, articles, and ten devices. Names are the keys
 * by which a second run finds what the first one made.
 */

export interface DemoClinic {
  deptName: string;
  fullName: string;
}

export interface DemoBase {
  deptName: string;
  fullName: string;
  clinics: readonly DemoClinic[];
}

export const DEMO_BASES: readonly DemoBase[] = [
  {
    deptName: '东区消毒供应中心',
    fullName: '演示口腔医疗集团东区消毒供应中心',
    clinics: [
      { deptName: '东湖口腔诊所', fullName: '演示口腔东湖诊所' },
      { deptName: '金鸡湖口腔诊所', fullName: '演示口腔金鸡湖诊所' },
      { deptName: '星海口腔诊所', fullName: '演示口腔星海诊所' },
    ],
  },
  {
    deptName: '西区消毒供应中心',
    fullName: '演示口腔医疗集团西区消毒供应中心',
    clinics: [
      { deptName: '狮山口腔诊所', fullName: '演示口腔狮山诊所' },
      { deptName: '枫桥口腔诊所', fullName: '演示口腔枫桥诊所' },
      { deptName: '木渎口腔诊所', fullName: '演示口腔木渎诊所' },
    ],
  },
];

/** A line runs from its base to its clinics in this order; pickup and delivery alike. */
export interface DemoLine {
  name: string;
  base: string;
  clinics: readonly string[];
  weekdays: string;
  departures: string;
}

export const DEMO_LINES: readonly DemoLine[] = [
  {
    name: '东区早班线',
    base: '东区消毒供应中心',
    clinics: ['东湖口腔诊所', '金鸡湖口腔诊所', '星海口腔诊所'],
    weekdays: '1,2,3,4,5,6',
    departures: '07:30,13:30',
  },
  {
    name: '东区晚班线',
    base: '东区消毒供应中心',
    clinics: ['星海口腔诊所', '东湖口腔诊所'],
    weekdays: '1,2,3,4,5',
    departures: '18:30',
  },
  {
    name: '西区环线',
    base: '西区消毒供应中心',
    clinics: ['狮山口腔诊所', '枫桥口腔诊所', '木渎口腔诊所'],
    weekdays: '1,2,3,4,5,6,7',
    departures: '08:00,14:00',
  },
];

export interface DemoCar {
  name: string;
  plate: string;
  barCode: string;
  base: string;
  line: string;
  capacity: number;
}

export const DEMO_CARS: readonly DemoCar[] = [
  {
    name: '东区 1 号车',
    plate: '苏ED1201',
    barCode: 'CAR-E-01',
    base: '东区消毒供应中心',
    line: '东区早班线',
    capacity: 24,
  },
  {
    name: '东区 2 号车',
    plate: '苏ED2202',
    barCode: 'CAR-E-02',
    base: '东区消毒供应中心',
    line: '东区晚班线',
    capacity: 16,
  },
  {
    name: '西区 1 号车',
    plate: '苏EW3301',
    barCode: 'CAR-W-01',
    base: '西区消毒供应中心',
    line: '西区环线',
    capacity: 20,
  },
];

export interface DemoArticle {
  code: string;
  name: string;
  /** `article_category`: 1 器械包, 2 单件器械, 3 敷料包, 4 外来器械包, 5 一次性物品. */
  category: number;
  contents: string;
  /** `pack_material`: 1 textile … 5 rigid container. */
  packMaterial: number;
  climateControlled: boolean;
  /** `sterilize_method`: 1 steam … */
  sterilizeMethod: number;
  /** Days before the seeding's day that it was sterilised. */
  packedDaysAgo: number;
  owner: string;
}

export const DEMO_ARTICLES: readonly DemoArticle[] = [
  {
    code: 'PK-0001',
    name: '基础检查包',
    category: 1,
    contents: '口镜、镊子、探针各 1',
    packMaterial: 4,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 3,
    owner: '东湖口腔诊所',
  },
  {
    code: 'PK-0002',
    name: '基础检查包',
    category: 1,
    contents: '口镜、镊子、探针各 1',
    packMaterial: 4,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 40,
    owner: '金鸡湖口腔诊所',
  },
  {
    code: 'PK-0003',
    name: '拔牙器械包',
    category: 1,
    contents: '牙钳 2、牙挺 2、刮匙 1',
    packMaterial: 5,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 12,
    owner: '星海口腔诊所',
  },
  {
    code: 'PK-0004',
    name: '根管治疗包',
    category: 1,
    contents: '根管锉一套、拔髓针 3',
    packMaterial: 3,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 5,
    owner: '狮山口腔诊所',
  },
  {
    code: 'PK-0005',
    name: '牙周刮治包',
    category: 1,
    contents: '刮治器 6、洁治器 2',
    packMaterial: 2,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 26,
    owner: '枫桥口腔诊所',
  },
  {
    code: 'IN-0001',
    name: '高速手机',
    category: 2,
    contents: '高速涡轮手机 1',
    packMaterial: 4,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 1,
    owner: '东湖口腔诊所',
  },
  {
    code: 'IN-0002',
    name: '低速弯机',
    category: 2,
    contents: '低速弯手机 1',
    packMaterial: 4,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 2,
    owner: '木渎口腔诊所',
  },
  {
    code: 'DR-0001',
    name: '手术敷料包',
    category: 3,
    contents: '治疗巾 4、纱布 10',
    packMaterial: 1,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 6,
    owner: '东区消毒供应中心',
  },
  {
    code: 'DR-0002',
    name: '洞巾包',
    category: 3,
    contents: '洞巾 2',
    packMaterial: 1,
    climateControlled: false,
    sterilizeMethod: 1,
    packedDaysAgo: 9,
    owner: '西区消毒供应中心',
  },
  {
    code: 'LN-0001',
    name: '种植外来器械包',
    category: 4,
    contents: '种植工具盒 1(厂家借用)',
    packMaterial: 5,
    climateControlled: true,
    sterilizeMethod: 1,
    packedDaysAgo: 4,
    owner: '金鸡湖口腔诊所',
  },
  {
    code: 'LN-0002',
    name: '正畸外来器械包',
    category: 4,
    contents: '正畸钳一套(厂家借用)',
    packMaterial: 3,
    climateControlled: true,
    sterilizeMethod: 2,
    packedDaysAgo: 15,
    owner: '狮山口腔诊所',
  },
  {
    code: 'DS-0001',
    name: '一次性吸唾管',
    category: 5,
    contents: '100 支/盒',
    packMaterial: 4,
    climateControlled: true,
    sterilizeMethod: 3,
    packedDaysAgo: 60,
    owner: '西区消毒供应中心',
  },
];

/**
 * The demo tenant's products. The waterline disinfector and the steam steriliser are the
 * simulator's (same codes, model fields, programs and PLC variables, so `npm run simulate` drives
 * the demo devices), with two rules of this tenant: a failed or aborted sterilisation is critical
 * (its loads are recalled, WS 310.3), and a low tank is announced (提示) before it runs dry.
 */
const withRules = (p: DemoProduct, change: (rules: readonly DemoAlarmRule[]) => DemoAlarmRule[]): DemoProduct => ({
  ...p,
  remark: '演示租户产品',
  alarmRules: change(p.alarmRules),
});

export const DEMO_WATERLINE: DemoProduct = withRules(WATERLINE_PRODUCT, (rules) => [
  ...rules,
  { ruleType: 'threshold', fieldKey: 'tankLevel', operator: '<', threshold: '25', durationSeconds: 0, level: 4 },
]);

export const DEMO_STERILISER: DemoProduct = {
  ...withRules(STERILISER_PRODUCT, (rules) => rules.map((r) => (r.ruleType === 'cycle' ? { ...r, level: 1 } : r))),
  // Connected for 15 minutes after its last report (the simulator's product: 5): the cycle the
  // demo leaves running at seeding (demo-judgement.ts, 15 minutes left) shows until it would end,
  // even when no simulator drives the devices.
  inactivitySeconds: 900,
};

/** A washer-disinfector: no simulator model; its cycles are drawn by the demo itself (demo-history.ts). */
export const DEMO_WASHER: DemoProduct = {
  kind: 'steriliser',
  productCode: 'WD-450',
  productName: '全自动清洗消毒机 WD-450',
  category: 4,
  inactivitySeconds: 600,
  remark: '演示租户产品',
  fields: [
    { fieldKey: 'chamberTemp', fieldName: '腔体温度', dataType: 'float', unit: '℃', precision: 1, access: 'r' },
    { fieldKey: 'a0', fieldName: 'A0 值', dataType: 'int', unit: '', precision: 0, access: 'r' },
    { fieldKey: 'program', fieldName: '程序号', dataType: 'int', unit: '', precision: 0, access: 'rw' },
    { fieldKey: 'faultCode', fieldName: '故障码', dataType: 'int', unit: '', precision: 0, access: 'r' },
  ],
  programs: [
    {
      programNo: 1,
      programName: '器械标准清洗(A0 3000)',
      durationMinutes: 60,
      targetTemperature: '93.00',
      targetConcentration: null,
    },
    {
      programNo: 2,
      programName: '手机专用程序',
      durationMinutes: 45,
      targetTemperature: '90.00',
      targetConcentration: null,
    },
  ],
  alarmRules: [
    { ruleType: 'cycle', fieldKey: '', operator: '>', threshold: null, durationSeconds: 0, level: 3 },
    { ruleType: 'offline', fieldKey: '', operator: '>', threshold: null, durationSeconds: 600, level: 3 },
  ],
  plcVariables: [],
  // No phase field: its cycles come from the demo's history, not from telemetry.
  runState: { phaseField: '', faultField: 'faultCode', programField: 'program', remainingField: '' },
};

export const DEMO_TENANT_PRODUCTS: readonly DemoProduct[] = [DEMO_WATERLINE, DEMO_STERILISER, DEMO_WASHER];

export interface DemoTenantDevice {
  deviceCode: string;
  deviceName: string;
  productCode: string;
  dept: string;
  chairs: number;
  location: string;
  installedDaysAgo: number;
}

/**
 * Ten devices: a waterline disinfector in every clinic, sterilisers in the two busiest clinics and
 * one base, a washer in the other base. The codes start with the simulator's demo codes, which it
 * drives first.
 */
export const DEMO_TENANT_DEVICES: readonly DemoTenantDevice[] = [
  {
    deviceCode: 'DEMO-WL-01',
    deviceName: '东湖诊所水路消毒机',
    productCode: 'WL-PRO',
    dept: '东湖口腔诊所',
    chairs: 6,
    location: '诊疗区',
    installedDaysAgo: 400,
  },
  {
    deviceCode: 'DEMO-WL-02',
    deviceName: '金鸡湖诊所水路消毒机',
    productCode: 'WL-PRO',
    dept: '金鸡湖口腔诊所',
    chairs: 8,
    location: '诊疗区',
    installedDaysAgo: 380,
  },
  {
    deviceCode: 'DEMO-WL-03',
    deviceName: '星海诊所水路消毒机',
    productCode: 'WL-PRO',
    dept: '星海口腔诊所',
    chairs: 4,
    location: '诊疗区',
    installedDaysAgo: 210,
  },
  {
    deviceCode: 'DEMO-WL-04',
    deviceName: '狮山诊所水路消毒机',
    productCode: 'WL-PRO',
    dept: '狮山口腔诊所',
    chairs: 5,
    location: '诊疗区',
    installedDaysAgo: 330,
  },
  {
    deviceCode: 'DEMO-WL-05',
    deviceName: '枫桥诊所水路消毒机',
    productCode: 'WL-PRO',
    dept: '枫桥口腔诊所',
    chairs: 3,
    location: '诊疗区',
    installedDaysAgo: 150,
  },
  {
    deviceCode: 'DEMO-WL-06',
    deviceName: '木渎诊所水路消毒机',
    productCode: 'WL-PRO',
    dept: '木渎口腔诊所',
    chairs: 4,
    location: '诊疗区',
    installedDaysAgo: 95,
  },
  {
    deviceCode: 'DEMO-ST-01',
    deviceName: '东湖诊所灭菌器',
    productCode: 'ST-B23',
    dept: '东湖口腔诊所',
    chairs: 0,
    location: '消毒室',
    installedDaysAgo: 400,
  },
  {
    deviceCode: 'DEMO-ST-02',
    deviceName: '金鸡湖诊所灭菌器',
    productCode: 'ST-B23',
    dept: '金鸡湖口腔诊所',
    chairs: 0,
    location: '消毒室',
    installedDaysAgo: 380,
  },
  {
    deviceCode: 'DEMO-ST-03',
    deviceName: '西区中心灭菌器',
    productCode: 'ST-B23',
    dept: '西区消毒供应中心',
    chairs: 0,
    location: '灭菌区',
    installedDaysAgo: 500,
  },
  {
    deviceCode: 'DEMO-WD-01',
    deviceName: '东区中心清洗消毒机',
    productCode: 'WD-450',
    dept: '东区消毒供应中心',
    chairs: 0,
    location: '去污区',
    installedDaysAgo: 450,
  },
];

/** The devices `npm run simulate` drives in the demo tenant: all but the washer (it has no model). */
export const DEMO_SIMULATED_DEVICES = DEMO_TENANT_DEVICES.filter(
  (d) => d.productCode !== DEMO_WASHER.productCode,
).length;

/** The command that keeps the demo tenant moving (docs/simulator.md). */
export const simulatorCommand = (tenantId: string) =>
  `npm run simulate -- --tenant ${tenantId} --devices ${DEMO_SIMULATED_DEVICES}`;

/** How the warnings of the month were handled (chosen by the seeded random source). */
export const DEMO_HANDLE_RESULTS: readonly string[] = [
  '已复测,结果合格',
  '已更换消毒药液并重新运行',
  '已通知厂家工程师上门检修',
  '已召回该批次物品并重新处理',
  '操作人员误操作,已培训',
  '蒸汽供应恢复后重新灭菌,合格',
];

/**
 * A program's validated profile (docs/lethality.md), as the product's 程序 rows hold it: what each
 * finished cycle of the program is judged against. Figures are text, as the form sends decimals.
 */
export interface DemoProfile {
  lethalityKind: 'A0' | 'F0';
  plateauMin: string;
  plateauMax: string;
  minHoldSeconds: number;
  pressureMin: string | null;
  pressureMax: string | null;
  minLethality: string | null;
}

/**
 * The demo programs' validated profiles, by product code and program number. Steam (ISO 17665,
 * WS 310.2): 134 ℃ programs in the band 134–137 ℃, 121 ℃ in 121–124 ℃, the chamber at saturated
 * steam pressure; the minimum hold is a little under the controller's own hold (the simulator's
 * 240 / 1080 / 1200 / 210 s), so a probe sampling every few seconds does not fail a good cycle.
 * The washer (ISO 15883-1): A0 3000 for the standard programme, 600 for handpieces. The waterline
 * (chemical, no plateau) is left unjudged.
 */
/** A steam program's profile: F0, the plateau band, the saturated-steam pressure band. */
const steam = (plateau: [string, string], minHoldSeconds: number, pressure: [string, string], minF0: string | null) =>
  ({
    lethalityKind: 'F0',
    plateauMin: plateau[0],
    plateauMax: plateau[1],
    minHoldSeconds,
    pressureMin: pressure[0],
    pressureMax: pressure[1],
    minLethality: minF0,
  }) as const satisfies DemoProfile;
/** A thermal disinfection's profile: A0 and the plateau band (no pressure judged). */
const thermal = (plateau: [string, string], minHoldSeconds: number, minA0: string) =>
  ({
    lethalityKind: 'A0',
    plateauMin: plateau[0],
    plateauMax: plateau[1],
    minHoldSeconds,
    pressureMin: null,
    pressureMax: null,
    minLethality: minA0,
  }) as const satisfies DemoProfile;
const AT_134: [string, string] = ['134', '137'];
const STEAM_210: [string, string] = ['200', '230'];

export const DEMO_PROFILES: Readonly<Record<string, Readonly<Record<number, DemoProfile>>>> = {
  [DEMO_STERILISER.productCode]: {
    1: steam(AT_134, 210, STEAM_210, '15'),
    2: steam(AT_134, 1020, STEAM_210, '60'),
    3: steam(['121', '124'], 900, ['100', '130'], '15'),
    // The B-D test is judged on its hold, not on lethality (it carries a test pack, not a load).
    4: steam(AT_134, 180, STEAM_210, null),
  },
  [DEMO_WASHER.productCode]: {
    1: thermal(['90', '95'], 240, '3000'),
    2: thermal(['88', '95'], 60, '600'),
  },
};

/**
 * The steriliser whose last hours show the judgement (demo-judgement.ts): its modelled month ends
 * {@link JUDGED_SPAN_MS} before now, then it runs a cycle that passes, one that the device
 * reported passed but whose chamber left the plateau early (it fails on the hold time), and one
 * running now. A central steriliser: a base runs into the evening, so "now" is plausible at
 * any hour.
 */
export const DEMO_JUDGED_DEVICE = 'DEMO-ST-03';
export const JUDGED_SPAN_MS = 3 * 3_600_000;

export interface DemoMaintenancePlan {
  planName: string;
  productCode: string;
  intervalCycles: number | null;
  intervalDays: number | null;
  noticeCycles: number;
  noticeDays: number;
  checks: readonly { checkName: string; standard: string }[];
}

export const DEMO_MAINTENANCE_PLANS: readonly DemoMaintenancePlan[] = [
  {
    planName: '灭菌器月度保养',
    productCode: DEMO_STERILISER.productCode,
    intervalCycles: 400,
    intervalDays: 30,
    noticeCycles: 40,
    noticeDays: 5,
    checks: [
      { checkName: '门密封圈', standard: '无老化、裂纹,密封良好' },
      { checkName: '安全阀', standard: '手动排放正常,无泄漏' },
      { checkName: '疏水阀与过滤器', standard: '清洗,无堵塞' },
      { checkName: '腔体与排水口', standard: '清洁,无水垢' },
      { checkName: '温度压力传感器', standard: '与标准表偏差 ≤ 1 ℃ / 5 kPa' },
    ],
  },
];

/**
 * The last completed maintenance of each steriliser, days before now: DEMO-ST-02's was 33 days
 * ago (overdue), DEMO-ST-01's 27 days ago (due within the plan's 5-day notice); DEMO-ST-03 has
 * none, so its period runs from when it was added (not due).
 */
export const DEMO_MAINTENANCE_DONE: readonly { deviceCode: string; daysAgo: number; technician: string }[] = [
  { deviceCode: 'DEMO-ST-01', daysAgo: 27, technician: '王工' },
  { deviceCode: 'DEMO-ST-02', daysAgo: 33, technician: '李工' },
];
