import { dictionaryEnglishOf, REGISTRY, type LocalText } from '@mes/contracts';

/** The sealed system dictionaries' English labels, by code and key (the registry declares them). */
export const DICT_ENGLISH = dictionaryEnglishOf(REGISTRY);

/**
 * The label of a system dictionary's entry in the interface language, for screens that show a
 * label the server joined in (`levelName`): the server answers in the stored (Chinese) words.
 */
export function dictText(code: string, key: unknown, stored: unknown, lang: keyof LocalText): string {
  const english = lang === 'en' ? DICT_ENGLISH.get(code)?.get(String(key)) : undefined;
  return english ?? String(stored || key || '');
}
