import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { WarningStatus } from '@mes/contracts';
import { dictText } from '../../../engine/dict-text';
import { WARNING_LEVEL_TAG } from '../../../shell/warning-level';

const STATUS_COLOURS: Record<number, string> = {
  [WarningStatus.activeUnhandled]: 'red',
  [WarningStatus.activeHandled]: 'orange',
  [WarningStatus.clearedUnhandled]: 'gold',
  [WarningStatus.clearedHandled]: 'green',
};

/** Whether someone still has to handle the warning (active or cleared, not yet acknowledged). */
export const isUnhandled = (status: unknown) =>
  Number(status) === WarningStatus.activeUnhandled || Number(status) === WarningStatus.clearedUnhandled;

const useLang = () => (useTranslation().i18n.language === 'en' ? 'en' : 'zh');

/** The level as a tag coloured by severity; the label is the dictionary's (`levelName`, or its English). */
export function LevelTag({ value, label }: { value: unknown; label?: unknown }) {
  const lang = useLang();
  return (
    <Tag
      color={WARNING_LEVEL_TAG[Number(value)] ?? 'default'}
      data-testid="warning-level-tag"
      data-level={String(value)}
    >
      {dictText('warning_level', value, label, lang)}
    </Tag>
  );
}

/** The status as a tag: red while unhandled and active, green once cleared and handled. */
export function StatusTag({ value, label }: { value: unknown; label?: unknown }) {
  const lang = useLang();
  return (
    <Tag
      color={STATUS_COLOURS[Number(value)] ?? 'default'}
      data-testid="warning-status-tag"
      data-status={String(value)}
    >
      {dictText('warning_status', value, label, lang)}
    </Tag>
  );
}
