import { defineResource } from '../../engine/define';
import { remarkField } from '../common-fields';
import { roleResource } from '../system/role';

/** A step's `status`: whether the escalation sweep uses it. */
export const EscalationStatus = { on: 1, off: 0 } as const;
/** The longest wait a step may have: a week (a warning unanswered longer is a backlog, not an alarm). */
export const ESCALATION_MAX_MINUTES = 7 * 24 * 60;

/** `GET /report/warning/history?id=`: the warning's history (raised, escalated, cleared, handled), oldest first. */
export const WARNING_HISTORY_PATH = '/report/warning/history';

/** What happened to a warning; `escalated` entries are stored, the others read from the warning's own times. */
export type WarningHistoryAction = 'raised' | 'escalated' | 'cleared' | 'handled';

/**
 * What an escalation's SMS did: `off` (the step sends none), `no-phone` (none of the role's users
 * has a mobile number), `queued` (waiting for its job), `sent`, `failed` (with the reason).
 */
export const EscalationSms = {
  off: 'off',
  noPhone: 'no-phone',
  queued: 'queued',
  sent: 'sent',
  failed: 'failed',
} as const;
export type EscalationSmsStatus = (typeof EscalationSms)[keyof typeof EscalationSms];

/** One entry of a warning's history. */
export interface WarningHistoryEntry {
  action: WarningHistoryAction;
  /** `yyyy-MM-dd HH:mm:ss`. */
  at: string;
  /** Who acted (the handler) or, for an escalation, the role notified. */
  who: string;
  /** Escalation: the step's minutes, the users notified (names), the notice, the live push and the SMS. */
  afterMinutes?: number;
  users?: string[];
  noticeId?: string | null;
  live?: boolean;
  sms?: EscalationSmsStatus;
  /** The phones texted, or why the SMS failed. */
  smsDetail?: string;
  /** Handling: the result entered. */
  result?: string;
}

/**
 * An escalation step of a tenant (docs/warnings.md "Escalation"): a warning of `level` that nobody
 * has handled `afterMinutes` after it started notifies the users of `roleId` — a notice in their
 * bell, an SMS through the tenant's SMS configuration when `notifySms`, and a live event when
 * `notifyLive` — once per warning and step, recorded in the warning's history. Several steps per
 * level make a ladder (30 min the shift lead, 2 h the manager); handling the warning stops it.
 */
export const warningEscalationResource = defineResource({
  code: 'warning_escalation',
  title: { zh: '告警升级', en: 'Warning escalation' },
  table: 'mes_warning_escalation',
  api: '/report/warning-escalation',
  owner: 'tenant',
  menu: { group: 'report', sort: 6, icon: 'thunderbolt', nameEn: 'Warning escalation' },
  fields: {
    level: {
      kind: 'int',
      label: { zh: '告警级别', en: 'Warning level' },
      range: [1, 4],
      required: true,
      default: 1,
      options: { dict: 'warning_level' },
      search: true,
      sort: true,
      width: 110,
    },
    afterMinutes: {
      kind: 'int',
      label: { zh: '未处理超过(分钟)', en: 'Unhandled after (min)' },
      range: [1, ESCALATION_MAX_MINUTES],
      required: true,
      default: 30,
      sort: true,
      width: 150,
    },
    roleId: {
      kind: 'reference',
      label: { zh: '通知角色', en: 'Notify role' },
      reference: { to: () => roleResource, label: 'roleName' },
      required: true,
      search: true,
      width: 150,
    },
    notifySms: { kind: 'boolean', label: { zh: '发送短信', en: 'Send SMS' }, default: false, width: 90 },
    // The SMS goes through the tenant's enabled SMS configuration (资源管理 → 短信配置); its template
    // is often the sign-in code's, so a step may name the provider's template made for warnings.
    smsTemplateId: {
      kind: 'string',
      label: { zh: '短信模板ID', en: 'SMS template id' },
      max: 64,
      list: false,
    },
    notifyLive: { kind: 'boolean', label: { zh: '实时推送', en: 'Live push' }, default: true, width: 90 },
    status: {
      kind: 'int',
      label: { zh: '状态', en: 'Status' },
      range: [0, 1],
      default: EscalationStatus.on,
      options: {
        items: [
          { value: EscalationStatus.on, label: { zh: '启用', en: 'On' } },
          { value: EscalationStatus.off, label: { zh: '停用', en: 'Off' } },
        ],
      },
      search: true,
      width: 80,
    },
    remark: remarkField(),
  },
  indexes: [
    {
      fields: ['tenantId', 'level', 'afterMinutes', 'roleId'],
      unique: true,
      message: {
        zh: '该级别已有相同时间、相同角色的升级步骤',
        en: 'This level already has a step with the same time and role',
      },
    },
  ],
  defaultSort: [{ field: 'level' }, { field: 'afterMinutes' }],
});
