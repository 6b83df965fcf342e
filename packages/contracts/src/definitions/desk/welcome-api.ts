import type { DeviceCycleNow } from '../telemetry/iot-api';
import type { DeviceRelease } from '../business/verification-record';
import { UNHANDLED_WARNING_LIST_SIZE, type UnhandledWarningRow } from '../report/warning';

/**
 * The welcome page's and the wall screen's figures (docs/welcome.md). Both read the same reply;
 * every figure is of the caller's tenant and device data scope.
 */

/** `GET /blade-desk/dashboard/overview`: every figure of the welcome page in one reply. */
export const DASHBOARD_OVERVIEW_PATH = '/blade-desk/dashboard/overview';
/** `GET /blade-desk/dashboard/deviceMap`: the wall screen's devices, grouped by department. */
export const DASHBOARD_DEVICE_MAP_PATH = '/blade-desk/dashboard/deviceMap';

/** The product's time zone: "today" and the chart's days are calendar days there. */
export const WELCOME_TIME_ZONE = 'Asia/Shanghai';
/** How many days the charts cover, today included. */
export const WELCOME_CHART_DAYS = 30;
/** How many unhandled warnings and due-work rows the reply lists (their counts are exact). */
export const WELCOME_LIST_SIZE = UNHANDLED_WARNING_LIST_SIZE;
/** A device offline longer than this is due work. */
export const WELCOME_OFFLINE_DUE_HOURS = 24;

export interface WelcomeDeviceFigures {
  total: number;
  online: number;
  /** Run state 3 (故障). */
  fault: number;
  /** Run state 2 (消毒中). */
  disinfecting: number;
}

export interface WelcomeCycleFigures {
  /** Cycles finished today (WELCOME_TIME_ZONE). */
  today: number;
  /** Every finished cycle. */
  total: number;
  passes: number;
  fails: number;
  aborts: number;
  /** passes / total, 0..1; null while there is no cycle. */
  passRate: number | null;
}

/** Fixed assets: the devices counted by their product's category (dictionary product_category). */
export interface WelcomeAssetFigures {
  total: number;
  byCategory: { category: number; devices: number }[];
}

/** How many days the verification results cover, today included. */
export const WELCOME_VERIFICATION_DAYS = 7;

/** The verification card: today's release of the steam sterilisers, open recalls, recent results. */
export interface WelcomeVerificationFigures {
  /** Devices that need a daily BD test (steam sterilisers, product category 2). */
  bdDevices: number;
  /** Of those, released today: today's latest BD test passed and no requalification is open. */
  released: number;
  notReleased: number;
  /** Up to WELCOME_LIST_SIZE not released devices (listed only to callers who may read devices). */
  notReleasedDevices: DeviceRelease[];
  /** Recalled loads nobody has handled yet. */
  openRecalls: number;
  /** Verification records (current versions) tested in the last WELCOME_VERIFICATION_DAYS days. */
  recent: { passes: number; fails: number };
}

/** An unhandled warning of the work tasks: the same rows as the bell lists (docs/warnings.md). */
export type WelcomeWarningRow = UnhandledWarningRow;

/** Due work: `fault` — a device in fault; `offline` — offline for over WELCOME_OFFLINE_DUE_HOURS. */
export type WelcomeDueKind = 'fault' | 'offline';

export interface WelcomeDueRow {
  kind: WelcomeDueKind;
  deviceId: string;
  deviceCode: string;
  deviceName: string;
  deptName: string | null;
  /** Since when (the last disconnect or activity for `offline`, the last activity for `fault`). */
  since: string | null;
}

export interface WelcomeCycleDay {
  /** yyyy-MM-dd */
  day: string;
  passes: number;
  fails: number;
  aborts: number;
}

export interface WelcomeOverview {
  /** When the figures were read (yyyy-MM-dd HH:mm:ss, as every time in replies) and today's date in WELCOME_TIME_ZONE. */
  takenAt: string;
  today: string;
  devices: WelcomeDeviceFigures;
  cycles: WelcomeCycleFigures;
  /** Dental chairs served: the sum of the devices' `chairs`. */
  chairs: number;
  /** Users of the tenant the caller's user data scope shows. */
  personnel: number;
  assets: WelcomeAssetFigures;
  verification: WelcomeVerificationFigures;
  work: {
    /**
     * Unhandled warnings (status 1 and 3): the exact count and the newest WELCOME_LIST_SIZE, the
     * same figure and rows as `GET /report/warning/unhandled` (docs/warnings.md).
     */
    unhandledWarnings: number;
    warnings: WelcomeWarningRow[];
    /** Due work: exact counts per kind and up to WELCOME_LIST_SIZE rows of each, longest waiting first. */
    dueCounts: Record<WelcomeDueKind, number>;
    due: WelcomeDueRow[];
  };
  charts: {
    /** Every day of the last WELCOME_CHART_DAYS, oldest first (days without cycles are zeros). */
    cycleDays: WelcomeCycleDay[];
    /** Warnings that started in the same days, per level 1..4 (dictionary warning_level). */
    warningLevels: { level: number; count: number }[];
  };
}

export interface WelcomeMapDevice {
  id: string;
  deviceCode: string;
  deviceName: string;
  online: boolean;
  /** Dictionary device_run_state: 1 idle, 2 disinfecting, 3 fault, 4 maintenance (derived: docs/devices.md). */
  runState: number;
  /** The current cycle from the device's latest values; null when its product names no such fields. */
  cycle?: DeviceCycleNow | null;
}

export interface WelcomeMapDept {
  /** null: devices without a department. */
  deptId: string | null;
  deptName: string | null;
  devices: WelcomeMapDevice[];
}

/** The wall screen's device map; at most WELCOME_MAP_LIMIT devices (`truncated` says when more exist). */
export interface WelcomeDeviceMap {
  depts: WelcomeMapDept[];
  truncated: boolean;
}

export const WELCOME_MAP_LIMIT = 2000;
