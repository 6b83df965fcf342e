/**
 * The IoT calls beside the generic `iot` series routes (spec section 7 `/blade-business/iot`,
 * `/blade-desk/dashboard/deviceCount`). Shared by the server's routes and the device screens.
 */
import type { LocalText } from '../../engine/define';
import type { EnumEntry } from '../device/model-enum';

/** `GET ?deviceCode=`: the newest value of every model field of one device. */
export const IOT_MODEL_DATA_PATH = '/blade-business/iot/model-data';
/** `GET ?deviceCode=&field=&startTime=&endTime=&maxPoints=`: one field's series over a range. */
export const IOT_MODEL_LIST_PATH = '/blade-business/iot/model-list';
/** `GET`: device figures of the welcome page. */
export const DASHBOARD_DEVICE_COUNT_PATH = '/blade-desk/dashboard/deviceCount';

/** A model field's data type (the product's thing model). */
export type ModelDataType = 'int' | 'float' | 'bool' | 'string' | 'enum';

/** One model field of a device with its newest value (`data` of model-data is a list of these, in model order). */
export interface ModelDataItem {
  field: string;
  /** The model field's display name. */
  name: string;
  dataType: ModelDataType;
  unit: string;
  precision: number;
  /** Numeric fields: a number; string/enum-as-text: text; no value received yet: null. */
  value: number | string | null;
  /** The value's name when the field's enumeration names it (program 1 → 134℃ 标准), else null. */
  valueLabel: LocalText | null;
  /** The field's named values (empty for a field without an enumeration). */
  enumeration: EnumEntry[];
  /** When the value was measured, `yyyy-MM-dd HH:mm:ss`; null when none was received. */
  time: string | null;
  /** Epoch milliseconds of `time` (charts and ages are computed from it); null when none. */
  ts: number | null;
  /** Seconds between `ts` and the server's clock at the reply; null when none. */
  ageSeconds: number | null;
  /** 0 good, 1 bad (`TelemetryQuality`). */
  quality: number;
  /** The alarm limits of the PLC variable named after the field; null when it has none. */
  limits: FieldLimits | null;
}

/**
 * A field's alarm limits (HH / H / L / LL of the product's PLC variable of that name, engineering
 * units); an absent limit is null. Charts draw each as a line.
 */
export interface FieldLimits {
  hh: number | null;
  h: number | null;
  l: number | null;
  ll: number | null;
}

/** Which limit of a program's validated profile a band shows. */
export type ProgramBandKind = 'plateau' | 'pressure' | 'concentration';

/**
 * The part of a program's validated profile that concerns the charted field (docs/devices.md
 * "Limits on the charts"), over the time the program ran: a finished cycle's start to end, or
 * for the program running now, from the end of the device's last finished cycle (or the start of
 * the range) to the end of the range. `max` is null for a minimum only (concentration).
 */
export interface ProgramBand {
  programNo: number;
  programName: string;
  kind: ProgramBandKind;
  min: number | null;
  max: number | null;
  /** Epoch milliseconds, clipped to the range read. */
  from: number;
  to: number;
  /** The program the device is running now (its cycle has not finished). */
  running: boolean;
}

/** One point of a model-list series. Raw: min = max = value. Downsampled: the bucket's average, min and max. */
export interface ModelListPoint {
  /** Epoch milliseconds (the bucket's start when downsampled). */
  ts: number;
  value: number | null;
  min: number | null;
  max: number | null;
  /** Raw points in the bucket (1 when raw). */
  count: number;
}

/** `data` of model-list. */
export interface ModelListReply {
  deviceCode: string;
  field: string;
  unit: string;
  /** The range actually read, epoch milliseconds (defaults: the last 24 h). */
  from: number;
  to: number;
  /** 0 when the points are the raw values; otherwise the width of each bucket in seconds. */
  bucketSeconds: number;
  points: ModelListPoint[];
  /** The programs' bands for this field within the range, oldest first (empty when none concerns it). */
  bands: ProgramBand[];
}

/** `data` of dashboard/deviceCount, within the caller's tenant and data scope. */
export interface DeviceCountReply {
  total: number;
  online: number;
  offline: number;
  /** Devices whose run state is fault. */
  fault: number;
}

/** `runState` of a device (dictionary `device_run_state`). */
export const DeviceRunState = { idle: 1, disinfecting: 2, fault: 3, maintenance: 4 } as const;

/**
 * The current cycle of a device, from its latest values of the fields its product names for them
 * (docs/devices.md "Run state"): null where the product names no such field or none came yet.
 */
export interface DeviceCycleNow {
  program: number | string | null;
  phase: number | string | null;
  /** The program's and the phase's names where the model field's enumeration names the value. */
  programLabel?: LocalText | null;
  phaseLabel?: LocalText | null;
  /** Seconds left of the running cycle. */
  remainingSeconds: number | null;
}

/** A raw telemetry row as the `iot` list answers it (the live page's table). */
export interface TelemetryListRow {
  id: string;
  deviceCode: string;
  field: string;
  ts: string;
  numValue: string | null;
  textValue: string | null;
  quality: number;
  /** The value's name when the field's enumeration names it (`{zh, en}`), else null. */
  valueLabel?: LocalText | null;
}
