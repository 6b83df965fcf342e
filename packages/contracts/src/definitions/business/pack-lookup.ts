import type { LocalText } from '../../engine/define';
import { defineScreen } from '../../engine/menu-placement';
import { PackState, type PackMoveRow } from './pack';

/**
 * 扫码流转 (issue 29 point 2, docs/packs.md "Scan to move"): a phone screen that reads pack labels
 * (camera or keyboard-wedge scanner) and moves the scanned packs through the move route. No routes
 * of its own beyond the code look-up; the move needs the `pack:move` scope as on the pack screen.
 */
export const packScanScreen = defineScreen({
  code: 'pack_scan',
  title: { zh: '扫码流转', en: 'Scan packs' },
  menu: { group: 'business', sort: 10, icon: 'barcode' },
});

/** 追溯查询 (issue 29 point 6): a pack's history, a patient case's packs, a load's packs, a clinic's stock. */
export const packTraceScreen = defineScreen({
  code: 'pack_trace',
  title: { zh: '追溯查询', en: 'Pack look-ups' },
  menu: { group: 'business', sort: 11, icon: 'file-search' },
});

/** `GET /api` + this + `?codes=`: the packs of these codes (the scan screen), and the codes no pack has. */
export const PACK_BY_CODES_PATH = '/blade-business/pack/lookup/codes';
/** `GET /api` + this + `?code=`: one pack by its code and its whole history, oldest first. */
export const PACK_TRACE_PATH = '/blade-business/pack/lookup/trace';
/** `GET /api` + this + `?patientCase=`: the packs used on a patient case, newest use first. */
export const PACK_CASE_PATH = '/blade-business/pack/lookup/case';
/** `GET /api` + this + `?loadId=` or `?loadNo=`: the packs that went into a load, with where they are now. */
export const PACK_LOAD_PATH = '/blade-business/pack/lookup/load';
/** `GET /api` + this + `?deptId=`: a department's sterile stock, soonest expiry first. */
export const PACK_STOCK_PATH = '/blade-business/pack/lookup/stock';

/** The states a clinic's (or the base's) sterile stock is made of: ready to use. */
export const STOCK_STATES: readonly PackState[] = [PackState.sterile, PackState.delivered];

/** A pack as the look-ups and the scan screen list it: its state and where it is now. */
export interface PackBrief {
  id: string;
  code: string;
  articleName: string;
  state: PackState;
  deptId: string | null;
  deptName: string;
  loadId: string | null;
  loadNo: string;
  patientCase: string;
  /** yyyy-MM-dd, '' when not sterilised yet. */
  sterileDate: string;
  expiryDate: string;
  /** Past its expiry day (in the console's zone) while still counted as usable. */
  pastExpiry: boolean;
  lastMoveTime: string;
}

export interface PackByCodes {
  packs: PackBrief[];
  /** The asked codes that name no pack of the caller's tenant (or none the caller may see). */
  unknown: string[];
}

export interface PackTrace {
  pack: PackBrief;
  moves: PackMoveRow[];
}

/** One use of a pack on a patient case (the move into `inUse`). */
export interface PackUseRow {
  moveId: string;
  useTime: string;
  userName: string;
  chairNo: string;
  clinician: string;
  /** The clinic the use was recorded at. */
  useDeptName: string;
  pack: PackBrief;
}

export interface PackLoadPacks {
  load: { id: string; loadNo: string; state: number; releaseUserName: string; releaseTime: string };
  packs: PackBrief[];
}

/** The messages of the look-ups' bad input. */
export const PackLookupMessages = {
  code: {
    zh: '请输入包编号(字母、数字、_ 和 -,至多 32 个字符)',
    en: 'Enter a pack code (letters, digits, _ and -, at most 32 characters)',
  },
  codes: (max: number) => ({
    zh: `请输入 1 到 ${max} 个包编号(字母、数字、_ 和 -)`,
    en: `Enter 1 to ${max} pack codes (letters, digits, _ and -)`,
  }),
  patientCase: {
    zh: '请输入病历号(至多 64 个字符)',
    en: 'Enter a patient case (at most 64 characters)',
  },
  load: { zh: '请选择灭菌批次或输入批次号', en: 'Choose a load or enter its load no' },
  dept: { zh: '请选择机构', en: 'Choose a department' },
  noPack: (code: string) => ({ zh: `没有包编号为 ${code} 的器械包`, en: `No pack has the code ${code}` }),
  noLoad: { zh: '该批次不存在', en: 'The load does not exist' },
} as const satisfies Record<string, LocalText | ((...args: never[]) => LocalText)>;

/** What a pack code may hold (the pack definition's pattern, max 32). */
export const PACK_CODE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
