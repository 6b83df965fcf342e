import { defineResource, type FieldDef, type LocalText } from '../../engine/define';
import { remarkField } from '../common-fields';
import { deviceResource } from '../device/device';
import { deptResource } from '../system/dept';
import { articleResource } from './article';
import { carResource } from './car';
import { lineResource } from './line';

/**
 * The states of a tracked pack (DOMAIN.md "Organisation and logistics", docs/packs.md): the loop
 * from the clinic through the base and back, with expired and recalled beside it.
 */
export const PackState = {
  awaitingPickup: 1,
  pickedUp: 2,
  cleaning: 3,
  cleaned: 4,
  sterilising: 5,
  awaitingReview: 6,
  sterile: 7,
  delivered: 8,
  inUse: 9,
  expired: 10,
  recalled: 11,
} as const;
export type PackState = (typeof PackState)[keyof typeof PackState];

export const PACK_STATE_LABELS: Readonly<Record<PackState, LocalText>> = {
  [PackState.awaitingPickup]: { zh: '待回收', en: 'Awaiting pickup' },
  [PackState.pickedUp]: { zh: '已回收', en: 'Picked up' },
  [PackState.cleaning]: { zh: '清洗中', en: 'Cleaning' },
  [PackState.cleaned]: { zh: '已清洗', en: 'Cleaned' },
  [PackState.sterilising]: { zh: '灭菌中', en: 'Sterilising' },
  [PackState.awaitingReview]: { zh: '待审核', en: 'Awaiting review' },
  [PackState.sterile]: { zh: '无菌', en: 'Sterile' },
  [PackState.delivered]: { zh: '已发放', en: 'Delivered' },
  [PackState.inUse]: { zh: '使用中', en: 'In use' },
  [PackState.expired]: { zh: '已过期', en: 'Expired' },
  [PackState.recalled]: { zh: '已召回', en: 'Recalled' },
};

/**
 * The one table of allowed moves, read by the server (which refuses any other) and by the web
 * (which offers only these). Expired and recalled packs go back into the loop to be reprocessed:
 * picked up at the clinic, or straight to washing when they are already at the base.
 */
export const PACK_MOVES: Readonly<Record<PackState, readonly PackState[]>> = {
  [PackState.awaitingPickup]: [PackState.pickedUp],
  [PackState.pickedUp]: [PackState.cleaning],
  [PackState.cleaning]: [PackState.cleaned],
  [PackState.cleaned]: [PackState.sterilising],
  [PackState.sterilising]: [PackState.awaitingReview],
  [PackState.awaitingReview]: [PackState.sterile, PackState.recalled],
  [PackState.sterile]: [PackState.delivered, PackState.expired, PackState.recalled],
  [PackState.delivered]: [PackState.inUse, PackState.expired, PackState.recalled],
  [PackState.inUse]: [PackState.awaitingPickup, PackState.recalled],
  [PackState.expired]: [PackState.awaitingPickup, PackState.cleaning],
  [PackState.recalled]: [PackState.awaitingPickup, PackState.cleaning],
};

/**
 * Moves only a load's release makes (a pack becomes sterile when its load is released, with
 * the releaser recorded), never the move route.
 */
export const RELEASE_ONLY_STATES: readonly PackState[] = [PackState.sterile];

export const isPackState = (value: unknown): value is PackState =>
  typeof value === 'number' && Object.prototype.hasOwnProperty.call(PACK_STATE_LABELS, value);

export const packMoveAllowed = (from: PackState, to: PackState): boolean => PACK_MOVES[from].includes(to);

/** The refusal of a move the table does not allow, naming both states. */
export function packMoveRefused(code: string, from: PackState, to: PackState): LocalText {
  const f = PACK_STATE_LABELS[from];
  const t = PACK_STATE_LABELS[to];
  return {
    zh: `器械包 ${code} 当前状态为「${f.zh}」,不能转为「${t.zh}」`,
    en: `Pack ${code} is "${f.en}" and cannot move to "${t.en}"`,
  };
}

export const PACK_STATE_OPTIONS = {
  items: (Object.keys(PACK_STATE_LABELS) as unknown as PackState[]).map((k) => ({
    value: Number(k),
    label: PACK_STATE_LABELS[Number(k) as PackState],
  })),
} as const;

/** `POST /api` + this: moves packs (`ids`, `state` and where: see `PackMoveInput`). */
export const PACK_MOVE_PATH = '/blade-business/pack/move';
/** `GET /api` + this + `?id=`: a pack's history, oldest first. */
export const PACK_HISTORY_PATH = '/blade-business/pack/history';
/** `GET /api` + this + `?ids=`: the labels of packs as one PDF, one 60 × 40 mm page each. */
export const PACK_LABEL_PATH = '/blade-business/pack/label';
/** `POST /api` + this + `?id=`: releases a load (its cycle and indicators passed); its packs become sterile. */
export const LOAD_RELEASE_PATH = '/blade-business/load/release';

/** The label's page, sized for common thermal label printers. */
export const PACK_LABEL_SIZE_MM = { width: 60, height: 40 } as const;

/** The most packs one move or one label print takes. */
export const PACK_BATCH_MAX = 500;

/** Where and with whom a move happened; which ones a move needs depends on its target state. */
export interface PackMoveInput {
  /** Comma-joined pack ids. */
  ids: string;
  state: PackState;
  /** The clinic (pick-up, delivery, use) or the base (receipt) the move happened at. */
  deptId?: string;
  lineId?: string;
  carId?: string;
  /** Required for `sterilising`: the open load the packs go into. */
  loadId?: string;
  /** Required for `inUse`: the patient case the pack was used on. */
  patientCase?: string;
  chairNo?: string;
  clinician?: string;
  remark?: string;
}

/** One move of a pack as its history lists it. */
export interface PackMoveRow {
  id: string;
  packId: string;
  packCode: string;
  fromState: PackState | null;
  toState: PackState;
  moveTime: string;
  userName: string;
  deptId: string | null;
  deptName: string;
  lineId: string | null;
  lineName: string;
  carId: string | null;
  carName: string;
  loadId: string | null;
  loadNo: string;
  patientCase: string;
  chairNo: string;
  clinician: string;
  remark: string;
}

const text = (zh: string, en: string, max = 64) =>
  ({ kind: 'string', label: { zh, en }, max, list: false, form: 'readonly' }) as const satisfies FieldDef;

/** `status` of a load. */
export const LoadStatus = { open: 1, released: 2 } as const;

/**
 * A load (批次): the packs sterilised together in one cycle of one steriliser. Released only
 * when its cycle passed parametrically and its indicators passed (docs/packs.md); the release
 * records who released it and makes its packs sterile.
 */
export const loadResource = defineResource({
  code: 'load',
  title: { zh: '灭菌批次', en: 'Loads' },
  table: 'mes_load',
  api: '/blade-business/load',
  listRoute: 'page',
  owner: 'tenant',
  menu: {
    group: 'business',
    sort: 9,
    icon: 'reconciliation',
    nameEn: 'Loads',
    buttons: [{ action: 'release', name: { zh: '放行', en: 'Release' }, position: 2 }],
    scopes: [{ action: 'release', name: '批次放行', path: `/api${LOAD_RELEASE_PATH}` }],
  },
  fields: {
    loadNo: {
      kind: 'string',
      label: { zh: '批次号', en: 'Load no' },
      max: 32,
      search: true,
      sort: true,
      pattern: {
        regex: '^[A-Za-z0-9_-]*$',
        message: { zh: '批次号只能包含字母、数字、_ 和 -', en: 'A load no holds letters, digits, _ and - only' },
      },
      width: 150,
    },
    deviceId: {
      kind: 'reference',
      label: { zh: '灭菌器', en: 'Steriliser' },
      required: true,
      search: true,
      reference: { to: () => deviceResource, label: 'deviceName' },
      width: 140,
    },
    // A device cycle (`mes_device_cycle`) of that steriliser; an id, not a reference: the cycles
    // are far too many for the engine's name lookups. The reply names it as `cycleName`.
    cycleId: { kind: 'id', label: { zh: '灭菌周期', en: 'Cycle' }, nullable: true, search: true, list: false },
    // Not `status`: that is the audit columns' name.
    state: {
      kind: 'int',
      label: { zh: '状态', en: 'State' },
      form: 'readonly',
      default: LoadStatus.open,
      search: true,
      width: 90,
      options: {
        items: [
          { value: LoadStatus.open, label: { zh: '装载中', en: 'Open' } },
          { value: LoadStatus.released, label: { zh: '已放行', en: 'Released' } },
        ],
      },
    },
    releaseUserName: { ...text('放行人', 'Released by'), list: true, width: 100 },
    releaseTime: {
      kind: 'datetime',
      label: { zh: '放行时间', en: 'Released at' },
      nullable: true,
      form: 'readonly',
      sort: true,
      width: 160,
    },
    remark: remarkField(),
  },
  indexes: [
    { fields: ['tenantId', 'loadNo'], unique: true, message: { zh: '批次号已存在', en: 'The load no exists' } },
    {
      fields: ['tenantId', 'cycleId'],
      unique: true,
      message: { zh: '该灭菌周期已有批次', en: 'The cycle already has a load' },
    },
  ],
  defaultSort: [{ field: 'loadNo', desc: true }],
});

/**
 * A tracked pack (器械包): one physical instance of an article, with its own code printed on its
 * label, its state and where it is. State and place change only through moves (`PACK_MOVE_PATH`,
 * and a load's release), each kept in the pack's history.
 */
export const packResource = defineResource({
  code: 'pack',
  title: { zh: '器械包追溯', en: 'Packs' },
  table: 'mes_pack',
  api: '/blade-business/pack',
  listRoute: 'page',
  owner: 'tenant',
  dialogWidth: 880,
  menu: {
    group: 'business',
    sort: 8,
    icon: 'medicine-box',
    nameEn: 'Packs',
    buttons: [
      { action: 'move', name: { zh: '流转', en: 'Move' }, position: 3 },
      { action: 'label', name: { zh: '打印标签', en: 'Print labels' }, position: 3 },
    ],
    scopes: [
      { action: 'move', name: '器械包流转', path: `/api${PACK_MOVE_PATH}` },
      { action: 'label', name: '器械包标签', path: `/api${PACK_LABEL_PATH}` },
    ],
  },
  fields: {
    code: {
      kind: 'string',
      label: { zh: '包编号', en: 'Pack code' },
      max: 32,
      search: true,
      sort: true,
      pattern: {
        regex: '^[A-Za-z0-9_-]*$',
        message: { zh: '包编号只能包含字母、数字、_ 和 -', en: 'A pack code holds letters, digits, _ and - only' },
      },
      width: 150,
    },
    articleId: {
      kind: 'reference',
      label: { zh: '物品', en: 'Article' },
      required: true,
      search: true,
      form: 'create',
      reference: { to: () => articleResource, label: 'name' },
      width: 140,
    },
    state: {
      kind: 'int',
      label: { zh: '状态', en: 'State' },
      form: 'readonly',
      default: PackState.awaitingPickup,
      search: true,
      width: 100,
      options: PACK_STATE_OPTIONS,
    },
    deptId: {
      kind: 'reference',
      label: { zh: '所在机构', en: 'At' },
      form: 'readonly',
      search: true,
      reference: { to: () => deptResource, label: 'deptName', onRemove: 'clear' },
      width: 140,
    },
    lineId: {
      kind: 'reference',
      label: { zh: '线路', en: 'Line' },
      form: 'readonly',
      list: false,
      reference: { to: () => lineResource, label: 'name', onRemove: 'clear' },
    },
    carId: {
      kind: 'reference',
      label: { zh: '车辆', en: 'Car' },
      form: 'readonly',
      list: false,
      reference: { to: () => carResource, label: 'name', onRemove: 'clear' },
    },
    loadId: {
      kind: 'reference',
      label: { zh: '灭菌批次', en: 'Load' },
      form: 'readonly',
      search: true,
      reference: { to: () => loadResource, label: 'loadNo', onRemove: 'clear' },
      width: 150,
    },
    patientCase: { ...text('病历号', 'Patient case'), search: true },
    sterileDate: {
      kind: 'date',
      label: { zh: '灭菌日期', en: 'Sterilised on' },
      nullable: true,
      form: 'readonly',
      width: 110,
    },
    expiryDate: {
      kind: 'date',
      label: { zh: '失效日期', en: 'Expires on' },
      nullable: true,
      form: 'readonly',
      search: true,
      sort: true,
      width: 110,
    },
    lastMoveTime: {
      kind: 'datetime',
      label: { zh: '最近流转', en: 'Last move' },
      nullable: true,
      form: 'readonly',
      sort: true,
      width: 160,
    },
    remark: remarkField(),
  },
  indexes: [
    { fields: ['tenantId', 'code'], unique: true, message: { zh: '包编号已存在', en: 'The pack code exists' } },
    { fields: ['tenantId', 'loadId'] },
    { fields: ['tenantId', 'state'] },
  ],
  defaultSort: [{ field: 'code', desc: true }],
});

/**
 * One move of a pack (its history): from which state to which, who, when and where. Written by
 * the move route and the load's release in the same transaction as the pack; never edited.
 */
export const packMoveResource = defineResource({
  code: 'pack_move',
  title: { zh: '器械包流转记录', en: 'Pack moves' },
  table: 'mes_pack_move',
  api: '/blade-business/pack-move',
  owner: 'tenant',
  operations: [],
  fields: {
    packId: { kind: 'id', label: { zh: '器械包', en: 'Pack' } },
    packCode: { kind: 'string', label: { zh: '包编号', en: 'Pack code' }, max: 32 },
    fromState: { kind: 'int', label: { zh: '原状态', en: 'From' }, nullable: true },
    toState: { kind: 'int', label: { zh: '新状态', en: 'To' } },
    moveTime: { kind: 'datetime', label: { zh: '时间', en: 'At' }, required: true },
    userName: { kind: 'string', label: { zh: '操作人', en: 'By' }, max: 64 },
    deptId: { kind: 'id', label: { zh: '机构', en: 'Department' }, nullable: true },
    lineId: { kind: 'id', label: { zh: '线路', en: 'Line' }, nullable: true },
    carId: { kind: 'id', label: { zh: '车辆', en: 'Car' }, nullable: true },
    loadId: { kind: 'id', label: { zh: '批次', en: 'Load' }, nullable: true },
    patientCase: { kind: 'string', label: { zh: '病历号', en: 'Patient case' }, max: 64 },
    chairNo: { kind: 'string', label: { zh: '牙椅号', en: 'Chair' }, max: 32 },
    clinician: { kind: 'string', label: { zh: '医生', en: 'Clinician' }, max: 64 },
    remark: { kind: 'string', label: { zh: '备注', en: 'Remark' }, max: 255 },
  },
  indexes: [
    { fields: ['tenantId', 'packId', 'moveTime'] },
    { fields: ['tenantId', 'patientCase'] },
    // The packs that went into a load (the ledger's pack count).
    { fields: ['tenantId', 'loadId'] },
  ],
});

/** What one pack's label prints (docs/packs.md "Labels"); empty text where a value is not known yet. */
export interface PackLabel {
  /** The pack's code, also encoded as the QR code. */
  code: string;
  articleName: string;
  contents: string;
  packMaterial: string;
  /** yyyy-MM-dd. */
  sterileDate: string;
  expiryDate: string;
  loadNo: string;
  deviceName: string;
}
