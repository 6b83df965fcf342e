import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getStore, setStore } from '../storage/local-store';
import { resources as en } from './locales/en';
import { resources as zh } from './locales/zh';

export type Language = 'zh' | 'en';
export const LANGUAGES: Language[] = ['zh', 'en'];

void i18n.use(initReactI18next).init({
  resources: { zh, en },
  lng: getStore<Language>('language') ?? 'zh',
  fallbackLng: 'zh',
  defaultNS: 'common',
  ns: Object.keys(zh),
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Switches the language without a reload and remembers the choice. */
export function changeLanguage(language: Language): void {
  setStore('language', language);
  void i18n.changeLanguage(language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

export default i18n;
