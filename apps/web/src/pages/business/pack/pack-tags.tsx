import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { isPackState, PACK_STATE_LABELS, PackState } from '@mes/contracts';

export type Lang = 'zh' | 'en';

/** The pack screens keep their own texts (zh and en) beside them; this picks the set. */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return i18n.language.startsWith('en') ? 'en' : 'zh';
}

export const stateLabel = (state: unknown, lang: Lang) => (isPackState(state) ? PACK_STATE_LABELS[state][lang] : '');

const STATE_COLORS: Partial<Record<PackState, string>> = {
  [PackState.sterile]: 'green',
  [PackState.delivered]: 'cyan',
  [PackState.inUse]: 'blue',
  [PackState.awaitingReview]: 'gold',
  [PackState.expired]: 'orange',
  [PackState.recalled]: 'red',
};

/** A pack's state as a coloured tag, the same on every pack screen. */
export const stateTag = (state: unknown, lang: Lang) => (
  <Tag color={isPackState(state) ? STATE_COLORS[state] : undefined} data-testid="pack-state">
    {stateLabel(state, lang)}
  </Tag>
);
