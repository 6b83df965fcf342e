import i18n from 'i18next';
import { addBundles } from './add-bundles';
import { LANGUAGES, type Language } from './index';
import { pageResources as en } from './locales/en/pages';
import { pageResources as zh } from './locales/zh/pages';

/**
 * The namespaces of screens with texts of their own (pack scan, the workflow screens, the report
 * designer …). Imported by those screens, so the texts arrive with their chunks and /login's first
 * load (its 250 KB budget, docs/sign-in.md) and the shell's do not carry them.
 */
addBundles(zh, en);

export type PageNamespace = keyof typeof zh;

/**
 * A screen's namespace in each language, as read from i18next: the screen picks its language's
 * texts (`texts[lang].title`) where `t` would be called once per word in tables and dialogs.
 */
export function pageTexts<N extends PageNamespace>(ns: N): Record<Language, (typeof zh)[N]> {
  const of = (language: Language) => i18n.getResourceBundle(language, ns) as (typeof zh)[N];
  return Object.fromEntries(LANGUAGES.map((language) => [language, of(language)])) as Record<Language, (typeof zh)[N]>;
}
