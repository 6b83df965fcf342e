/**
 * The demo tenant (docs/demo.md): `npm run seed:demo`, or the platform administrator's one-time
 * card on the welcome page of a fresh install, fills a tenant with departments, lines, cars,
 * articles, devices and a month of cycles, records and warnings.
 */

/** `GET`: where the first-start offer stands (platform administrator only). */
export const DEMO_TENANT_STATE_PATH = '/blade-desk/demo-tenant/state';
/** `POST {confirm: true}`: fills the demo tenant as a durable job; answers the job and, once, the password. */
export const DEMO_TENANT_SEED_PATH = '/blade-desk/demo-tenant/seed';
/** `POST`: the offer is declined and never shown again. */
export const DEMO_TENANT_DISMISS_PATH = '/blade-desk/demo-tenant/dismiss';

/** The parameter that keeps the first-start offer's state (JSON, written by the server only). */
export const DEMO_OFFER_PARAM = 'demo.firstStart';

/** The tenant id the demo takes when it is free (else the next free one upwards). */
export const DEMO_TENANT_ID = '100001';
export const DEMO_TENANT_NAME = '演示口腔医疗集团';
/** The demo administrator's account; its password is generated, never fixed. */
export const DEMO_ADMIN_ACCOUNT = 'admin';
/** Written, owner-readable only, into DATA_DIR by whoever generated the password. */
export const DEMO_PASSWORD_FILE = 'demo-password.txt';

/**
 * `none`: no offer (an install that existed before, or the parameter was removed); `offered`: the
 * card shows; `running`: the job runs (`step` of `of`); `done` / `dismissed`: never shown again;
 * `failed`: the card shows the error and may be confirmed again.
 */
export type DemoOfferState = 'none' | 'offered' | 'running' | 'done' | 'failed' | 'dismissed';

export interface DemoTenantStatus {
  state: DemoOfferState;
  /** The step running (`running`) or that failed (`failed`): a name of `DEMO_STEP_NAMES`. */
  step?: string;
  /** Steps finished so far and in all. */
  done?: number;
  of?: number;
  tenantId?: string;
  error?: string;
  /** What the finished run made, by kind (`done`). */
  counts?: Record<string, number>;
  /** The simulator command that keeps the demo tenant's devices running (`done`). */
  simulate?: string;
}

export interface DemoSeedReply {
  jobId: string;
  tenantId: string;
  account: string;
  /** The demo administrator's password, shown this once; null when the demo tenant existed already. */
  password: string | null;
}

/** The steps in order, with their labels for the card's progress. */
export const DEMO_STEP_LABELS: Readonly<Record<string, { zh: string; en: string }>> = {
  tenant: { zh: '租户与管理员', en: 'Tenant and administrator' },
  departments: { zh: '消毒基地与诊所', en: 'Bases and clinics' },
  people: { zh: '审批人、通知与服务台', en: 'Approver, notices and desk services' },
  products: { zh: '产品与 PLC 变量', en: 'Products and PLC variables' },
  devices: { zh: '设备', en: 'Devices' },
  logistics: { zh: '线路与车辆', en: 'Lines and cars' },
  articles: { zh: '物品', en: 'Articles' },
  history: { zh: '一个月的运行周期与遥测', en: 'A month of cycles and telemetry' },
  records: { zh: '消毒记录', en: 'Disinfection records' },
  verification: { zh: '验证记录(BD、生物监测、水样)', en: 'Verification records (BD, biological, water)' },
  packs: { zh: '器械包与召回', en: 'Packs and a recall' },
  warnings: { zh: '告警处理', en: 'Warning handling' },
  profiles: { zh: '程序验证参数', en: 'Validated program profiles' },
  judged: { zh: '参数判定周期与运行中周期', en: 'Judged cycles and the cycle running now' },
  maintenance: { zh: '保养计划与到期', en: 'Maintenance plan and due devices' },
};
