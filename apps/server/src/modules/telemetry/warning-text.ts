import { enumEntryOf } from '@mes/contracts';
import type { AlarmRule, Transition } from './alarm-evaluator';
import type { DeviceProfile } from './alarm-rules';
import type { StoredCycle } from './cycle-store';

/** The warnings' messages (Chinese, as the console shows them): the device, the field, the value and the limit. */

const OPERATOR_TEXT: Record<string, string> = {
  '>': '高于',
  '>=': '不低于',
  '<': '低于',
  '<=': '不高于',
  '==': '等于',
  '!=': '不等于',
};
const LIMIT_TEXT = { HH: '高于高高限', H: '高于高限', L: '低于低限', LL: '低于低低限' } as const;

/** Numbers as people read them: at most 4 decimals, no trailing zeros. */
export const shown = (value: number | null) => (value === null ? '' : String(Math.round(value * 10_000) / 10_000));

const deviceText = (p: DeviceProfile) => `设备「${p.deviceName || p.deviceCode}」(${p.deviceCode})`;

const held = (rule: AlarmRule) => (rule.holdMs > 0 ? `,持续 ${Math.round(rule.holdMs / 1000)} 秒` : '');

export function fieldWarningText(profile: DeviceProfile, t: Transition, program: number | undefined): string {
  const info = profile.fieldInfo.get(t.rule.field);
  const name = info?.name ? `${info.name}(${t.rule.field})` : t.rule.field;
  const unit = info?.unit ?? '';
  // An enumerated value reads by its name with the number after it: 余氯传感器异常(104).
  const named = (v: number | null) => {
    const entry = v === null ? undefined : enumEntryOf([{ fieldKey: t.rule.field, ...info }], t.rule.field, v);
    return entry ? `${entry.zh}(${shown(v)})` : `${shown(v)}${unit}`;
  };
  const value = named(t.value);
  const limit = named(t.threshold);
  const device = deviceText(profile);
  switch (t.rule.type) {
    case 'rate':
      return `${device} ${name}变化率 ${shown(t.value)}${unit}/分钟,超过阈值 ${limit}/分钟${held(t.rule)}`;
    case 'concentration':
      return t.rule.threshold === null
        ? `${device} ${name} ${value},低于程序 ${program ?? ''} 的目标浓度 ${limit}${held(t.rule)}`
        : `${device} ${name} ${value},低于最低浓度 ${limit}${held(t.rule)}`;
    case 'refill':
      return `${device} ${name} ${value},接近低液位(提醒值 ${limit}),请及时补充`;
    case 'limit':
      return `${device} ${name} ${value},${LIMIT_TEXT[t.rule.limit ?? 'H']} ${limit}`;
    default:
      return `${device} ${name} ${value},${OPERATOR_TEXT[t.rule.operator ?? '>'] ?? ''}阈值 ${limit}${held(t.rule)}`;
  }
}

export function cycleWarningText(profile: DeviceProfile, cycle: StoredCycle): string {
  const outcome = cycle.result === 3 ? '中止' : '失败';
  const program = `程序 ${cycle.programNo}${cycle.programName ? ` ${cycle.programName}` : ''}`;
  // The fault's name where the model's faultCode field names it: 故障码 104 余氯传感器异常.
  const info = profile.fieldInfo.get('faultCode');
  const fault = cycle.faultCode
    ? enumEntryOf([{ fieldKey: 'faultCode', enumeration: info?.enumeration }], 'faultCode', cycle.faultCode)
    : undefined;
  const faultText = cycle.faultCode ? `,故障码 ${cycle.faultCode}${fault ? ` ${fault.zh}` : ''}` : '';
  return `${deviceText(profile)} ${program}运行${outcome}${faultText}`;
}
