import { WarningLevel } from '@mes/contracts';

/**
 * One colour per warning level, wherever a level is shown: antd's preset tag colours (the bell,
 * the warning screens, the home page's tasks) and the same hues as solid colours for charts.
 */
export const WARNING_LEVEL_TAG: Record<number, string> = {
  [WarningLevel.critical]: 'red',
  [WarningLevel.major]: 'volcano',
  [WarningLevel.minor]: 'gold',
  [WarningLevel.warning]: 'blue',
};

export const WARNING_LEVEL_HEX: Record<number, string> = {
  [WarningLevel.critical]: '#f5222d',
  [WarningLevel.major]: '#fa541c',
  [WarningLevel.minor]: '#fadb14',
  [WarningLevel.warning]: '#1677ff',
};
