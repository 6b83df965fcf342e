import { Tag } from 'antd';
import { WarningLevel, WarningStatus } from '@mes/contracts';

const LEVEL_COLOURS: Record<number, string> = {
  [WarningLevel.critical]: 'red',
  [WarningLevel.major]: 'volcano',
  [WarningLevel.minor]: 'gold',
  [WarningLevel.warning]: 'blue',
};
const STATUS_COLOURS: Record<number, string> = {
  [WarningStatus.activeUnhandled]: 'red',
  [WarningStatus.activeHandled]: 'orange',
  [WarningStatus.clearedUnhandled]: 'gold',
  [WarningStatus.clearedHandled]: 'green',
};

/** Whether someone still has to handle the warning (active or cleared, not yet acknowledged). */
export const isUnhandled = (status: unknown) =>
  Number(status) === WarningStatus.activeUnhandled || Number(status) === WarningStatus.clearedUnhandled;

/** The level as a tag coloured by severity; the label is the dictionary's (`levelName`). */
export function LevelTag({ value, label }: { value: unknown; label?: unknown }) {
  return (
    <Tag color={LEVEL_COLOURS[Number(value)] ?? 'default'} data-testid="warning-level-tag" data-level={String(value)}>
      {String(label || value || '')}
    </Tag>
  );
}

/** The status as a tag: red while unhandled and active, green once cleared and handled. */
export function StatusTag({ value, label }: { value: unknown; label?: unknown }) {
  return (
    <Tag
      color={STATUS_COLOURS[Number(value)] ?? 'default'}
      data-testid="warning-status-tag"
      data-status={String(value)}
    >
      {String(label || value || '')}
    </Tag>
  );
}
