import type { BilingualText } from '@mes/contracts';

/** What an escalation says: the notice and SMS (stored Chinese, as warnings are) and the step form's 400s. */
export interface EscalationFacts {
  warningNo: string;
  device: string;
  level: string;
  minutes: string;
}

/** Rich text of a notice is sanitised on the way in; this text comes from device names and messages. */
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A failure reason as the warning's history keeps it: both languages, as the jobs platform's own
 * reasons are (`PROCESS_DIED`), since one stored entry is read by people of either language.
 */
export const bothLanguages = (text: BilingualText) => `${text.zh} / ${text.en}`;

export const EscalationMessages = {
  noticeTitle: (f: EscalationFacts) =>
    `告警升级: ${f.device} ${f.level}告警 ${f.warningNo} 超过 ${f.minutes} 分钟未处理`,
  noticeContent: (f: EscalationFacts & { message: string; startTime: string }) =>
    `<p>告警 ${escape(f.warningNo)}(${escape(f.level)})自 ${escape(f.startTime)} 起超过 ${escape(f.minutes)} 分钟无人处理。</p>` +
    `<p>设备: ${escape(f.device)}</p><p>${escape(f.message)}</p>` +
    '<p>请到 统计报表 → 告警信息 处理该告警; 处理后不再升级。</p>',
  noSmsConfig: {
    zh: '租户没有启用的短信配置,无法发送告警升级短信',
    en: 'The tenant has no enabled SMS configuration: the escalation SMS cannot be sent',
  } satisfies BilingualText,
  /** The SMS job's process died before it recorded an outcome (docs/jobs.md "A crash during a job"). */
  smsInterrupted: {
    zh: '短信任务中断(运行它的服务进程已停止),短信可能未发出',
    en: 'The SMS job was interrupted (its server process stopped): the SMS may not have been sent',
  } satisfies BilingualText,
  /** The SMS job failed on something other than the provider's or the configuration's refusal. */
  smsError: {
    zh: '短信发送出错(服务器内部错误,详见服务器日志)',
    en: 'The SMS could not be sent (a server error; see the server log)',
  } satisfies BilingualText,
  smsNeedsConfig: {
    zh: '发送短信需要租户有启用的短信配置(资源管理 → 短信配置)',
    en: 'Sending SMS needs an enabled SMS configuration of the tenant (Resources → SMS)',
  } satisfies BilingualText,
  templateWithoutSms: {
    zh: '短信模板ID 只在发送短信时使用,请打开 发送短信 或清空该项',
    en: 'The SMS template id is used only when sending SMS: turn on Send SMS or clear it',
  } satisfies BilingualText,
} as const;
