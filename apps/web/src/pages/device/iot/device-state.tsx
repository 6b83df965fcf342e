import { Badge, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DeviceRunState, isLocalText, type DeviceCycleNow, type LocalText } from '@mes/contracts';

/** The fault state of `device_run_state` (1 idle, 2 disinfecting, 3 fault, 4 maintenance). */
export const RUN_STATE_FAULT = 3;
const RUN_STATE_COLOR: Record<number, string> = { 1: 'default', 2: 'processing', 3: 'error', 4: 'warning' };

/** 在线 / 离线 as a badge. */
export function OnlineBadge({ online }: { online: boolean }) {
  const { t } = useTranslation('iot');
  return (
    <span data-testid="iot-online" data-online={online}>
      <Badge status={online ? 'success' : 'default'} text={online ? t('state.online') : t('state.offline')} />
    </span>
  );
}

/**
 * The run state as a coloured tag, labelled in the page's language (the dictionary's labels are
 * Chinese only); a state the console does not know shows the dictionary's label.
 */
export function RunStateTag({ state, name }: { state: number | null | undefined; name?: string }) {
  const { t } = useTranslation('iot');
  if (state === null || state === undefined) return null;
  const known = state in RUN_STATE_COLOR;
  return (
    <Tag color={RUN_STATE_COLOR[state] ?? 'default'} data-testid="iot-run-state">
      {known ? t(`state.${state}`) : (name ?? String(state))}
    </Tag>
  );
}

/** Seconds as m:ss, or h:mm:ss from an hour on. */
const clock = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${Math.floor(s / 60)}:${ss}`;
};

/**
 * The cycle under way (program, phase, time left) while the device disinfects: from its latest
 * values of the fields its product names (docs/devices.md "Run state"). A program or phase the
 * model field's enumeration names reads by its name in the page's language (134℃ 标准 · 灭菌);
 * the numbers stay on the line's title and data attributes.
 */
export function CycleNow({
  state,
  cycle,
}: {
  state: number | null | undefined;
  cycle: DeviceCycleNow | null | undefined;
}) {
  const { t, i18n } = useTranslation('iot');
  if (state !== DeviceRunState.disinfecting || !cycle) return null;
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const named = (label: LocalText | null | undefined) => (isLocalText(label) ? label[lang] : undefined);
  const numbers = [
    cycle.program !== null ? t('cycle.program', { value: cycle.program }) : undefined,
    cycle.phase !== null ? t('cycle.phase', { value: cycle.phase }) : undefined,
  ];
  const parts = [
    cycle.program !== null ? (named(cycle.programLabel) ?? numbers[0]) : undefined,
    cycle.phase !== null ? (named(cycle.phaseLabel) ?? numbers[1]) : undefined,
    cycle.remainingSeconds !== null ? t('cycle.remaining', { value: clock(cycle.remainingSeconds) }) : undefined,
  ].filter((p) => p !== undefined);
  if (!parts.length) return null;
  return (
    <span
      className="mes-iot-cycle"
      data-testid="iot-cycle"
      data-program={cycle.program ?? undefined}
      data-phase={cycle.phase ?? undefined}
      title={numbers.filter((n) => n !== undefined).join(' · ') || undefined}
    >
      {parts.join(' · ')}
    </span>
  );
}
