import type { FieldDef, FieldMap, ResourceDef } from './define';
import type { RecordRules, RetentionRule } from './record-rules';
import type { MenuButtonDef, MenuScopeDef, ResourceMenu } from './menu-placement';

export type { RecordRules, RetentionRule } from './record-rules';

/**
 * Regulated records (docs/records.md): rows that are never changed in place. Each row is chained
 * to the previous row of the same tenant and partition (a device) by a SHA-256 hash, reviewed
 * once by someone other than its operator, corrected only by a new version that keeps the old
 * one, and removed only by the retention job once the retention of its type has passed.
 */

/** Review states of a record (`reviewStatus`). */
export const ReviewStatus = { pending: 0, reviewed: 1 } as const;

/**
 * The fields every record carries besides its content, set by the engine only: shown read-only in
 * the dialogs (`readonly`) or not at all (the ids and hashes). The content hash covers them all but
 * the hashes and the review and supersession states, which a record goes through later and which
 * `stateHash` covers.
 */
export const RECORD_FIELDS = {
  operatorId: { kind: 'id', label: { zh: '操作人编号', en: 'Operator id' }, form: false, list: false },
  operatorName: {
    kind: 'string',
    label: { zh: '操作人', en: 'Operator' },
    max: 64,
    form: 'readonly',
    width: 100,
    listPriority: 'low',
  },
  recordVersion: {
    kind: 'int',
    label: { zh: '版本', en: 'Version' },
    default: 1,
    form: 'readonly',
    width: 70,
    // Below 1600 px the lists give their room to the record's own key columns (result, review).
    listPriority: 'low',
  },
  originId: { kind: 'id', label: { zh: '原始记录', en: 'Original record' }, form: false, list: false, nullable: true },
  chainSeq: { kind: 'int', label: { zh: '链序号', en: 'Chain no' }, default: 0, form: 'readonly', list: false },
  prevHash: { kind: 'string', label: { zh: '前一哈希', en: 'Previous hash' }, max: 64, form: 'readonly', list: false },
  rowHash: { kind: 'string', label: { zh: '记录哈希', en: 'Row hash' }, max: 64, form: 'readonly', list: false },
  reviewStatus: {
    kind: 'int',
    label: { zh: '审核状态', en: 'Review' },
    default: ReviewStatus.pending,
    form: 'readonly',
    search: true,
    width: 90,
    options: {
      items: [
        { value: ReviewStatus.pending, label: { zh: '待审核', en: 'Pending' } },
        { value: ReviewStatus.reviewed, label: { zh: '已审核', en: 'Reviewed' } },
      ],
    },
  },
  reviewerId: { kind: 'id', label: { zh: '审核人编号', en: 'Reviewer id' }, form: false, list: false },
  reviewerName: {
    kind: 'string',
    label: { zh: '审核人', en: 'Reviewer' },
    max: 64,
    form: 'readonly',
    width: 100,
    listPriority: 'low',
  },
  reviewTime: {
    kind: 'datetime',
    label: { zh: '审核时间', en: 'Reviewed at' },
    form: 'readonly',
    nullable: true,
    list: false,
  },
  superseded: {
    kind: 'boolean',
    label: { zh: '已更正', en: 'Corrected' },
    form: 'readonly',
    search: true,
    width: 80,
    listPriority: 'low',
  },
  // The hash scheme of the row (1: rows written before the review state was covered).
  hashVersion: { kind: 'int', label: { zh: '哈希版本', en: 'Hash version' }, default: 1, form: false, list: false },
  stateHash: { kind: 'string', label: { zh: '状态哈希', en: 'State hash' }, max: 64, form: false, list: false },
} as const satisfies Record<string, FieldDef>;

/** The hash scheme new rows are written with (docs/records.md "Hash versions"). */
export const RECORD_HASH_VERSION = 2;

/**
 * The states a record moves through after it is written (review, supersession): outside the
 * chained content hash, covered from hash version 2 on by the row's own `stateHash`, recomputed
 * by the engine whenever it changes them.
 */
export const RECORD_STATE_FIELDS: readonly string[] = [
  'reviewStatus',
  'reviewerId',
  'reviewerName',
  'reviewTime',
  'superseded',
];

/**
 * Fields left out of a row's content hash: the hashes themselves and the later states (covered by
 * `stateHash` instead). `hashVersion` is content from version 2 on (so a row cannot be passed off
 * as an older scheme) and left out of version 1, whose rows were written before it existed.
 */
export const UNHASHED_RECORD_FIELDS: readonly string[] = ['prevHash', 'rowHash', 'stateHash', ...RECORD_STATE_FIELDS];

/** The actions every record screen has beyond the generic ones. */
const RECORD_ACTIONS = [
  { action: 'review', zh: '审核', en: 'Review', scope: '记录审核', position: 2 },
  { action: 'correct', zh: '更正', en: 'Correct', scope: '记录更正', position: 2 },
  { action: 'verify', zh: '校验', en: 'Verify chain', scope: '记录链校验', position: 1 },
] as const;

/** The button codes every record screen has beyond the generic ones, as the web app checks them. */
export const recordButtonCodes = (code: string): Record<(typeof RECORD_ACTIONS)[number]['action'], string> => ({
  review: `${code}_review`,
  correct: `${code}_correct`,
  verify: `${code}_verify`,
});

function recordMenu(api: string, menu: ResourceMenu): ResourceMenu {
  const buttons: MenuButtonDef[] = RECORD_ACTIONS.map((a) => ({
    action: a.action,
    name: { zh: a.zh, en: a.en },
    position: a.position,
  }));
  const scopes: MenuScopeDef[] = RECORD_ACTIONS.map((a) => ({
    action: a.action,
    name: a.scope,
    path: `/api${api}/${a.action}`,
  }));
  return { ...menu, buttons: [...buttons, ...(menu.buttons ?? [])], scopes: [...scopes, ...(menu.scopes ?? [])] };
}

/**
 * A tenant-owned definition whose rows are regulated records: the record fields are added after
 * its own, the review / correct / verify buttons and API scopes to its menu, and an index per
 * chain partition (the chain's order). The engine reads `records` and does the rest.
 */
/**
 * A record is never changed by another row's removal: its references keep the removed target's
 * id (`keep`) instead of being cleared, which would rewrite hashed content and break the chain.
 * `refuse` stays as declared (a device with records cannot be removed, if a definition says so).
 */
function keepReferences<F extends FieldMap>(fields: F): F {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [
      name,
      field.reference?.onRemove === 'clear' ? { ...field, reference: { ...field.reference, onRemove: 'keep' } } : field,
    ]),
  ) as F;
}

export function defineRecordResource<F extends FieldMap>(
  def: Omit<ResourceDef<F>, 'owner' | 'records'> & { records: RecordRules; menu: ResourceMenu },
): ResourceDef<F & typeof RECORD_FIELDS> & { owner: 'tenant' } {
  return {
    ...def,
    owner: 'tenant',
    fields: { ...keepReferences(def.fields), ...RECORD_FIELDS },
    menu: recordMenu(def.api, def.menu),
    indexes: [
      ...(def.indexes ?? []),
      // A second row at one position of a chain is a fork: the lock should prevent it, the index makes sure.
      {
        fields: ['tenantId', def.records.chainBy, 'chainSeq'],
        unique: true,
        message: { zh: '记录链冲突,请重试', en: 'Record chain conflict, retry' },
      },
    ],
  };
}

/** The rule of a record type, or undefined for a type the definition does not list. */
export const retentionRuleOf = (rules: RecordRules, type: unknown): RetentionRule | undefined =>
  rules.retention.types[Number(type)];

/** Every retention parameter the definitions declare, with its minimum. */
export function retentionParams(defs: readonly ResourceDef[]): RetentionRule[] {
  const byParam = new Map<string, RetentionRule>();
  for (const def of defs)
    for (const rule of Object.values(def.records?.retention.types ?? {})) byParam.set(rule.param, rule);
  return [...byParam.values()];
}

/**
 * The message refusing a parameter value below the standard's minimum, or undefined when the
 * value is acceptable (or the key is not a retention parameter).
 */
export function retentionParamProblem(defs: readonly ResourceDef[], key: string, value: string): string | undefined {
  const rule = retentionParams(defs).find((r) => r.param === key);
  if (!rule) return undefined;
  const days = Number(value);
  if (!/^\d{1,6}$/.test(value.trim()) || !Number.isInteger(days)) return `参数 ${key} 应为天数(整数)`;
  if (days < rule.minimumDays) return `${rule.label.zh}保存期不能少于 ${rule.minimumDays} 天(${rule.rule.zh})`;
  return undefined;
}

/**
 * The first fault of a broken chain, as `verify` reports it: the row (`id`, '' when the fault is
 * a row that is not there), the chain (`partition`), the position, and why (`reason` Chinese,
 * `reasonEn`).
 */
export interface BrokenLink {
  id: string;
  partition: string;
  chainSeq: number;
  reason: string;
  reasonEn: string;
}

/** `GET <api>/verify`: what checking a record definition's hash chains found. */
export interface ChainReport {
  /** Rows checked. */
  checked: number;
  /** Chains (partitions) checked. */
  chains: number;
  /** The first broken chain (kept for clients that read one). */
  broken: BrokenLink | null;
  /** Every broken chain, each with its first fault, in chain order (at most `BROKEN_LISTED`). */
  brokenChains: BrokenLink[];
  /** How many chains are broken (also those past the list's limit). */
  brokenCount: number;
}
