import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getStore, setStore } from '../storage/local-store';
import { signInResources as en } from './locales/en';
import { signInResources as zh } from './locales/zh';

export type Language = 'zh' | 'en';
export const LANGUAGES: Language[] = ['zh', 'en'];

// The shell's namespaces are added when its chunk loads (shell-resources.ts).
void i18n.use(initReactI18next).init({
  resources: { zh, en },
  lng: getStore<Language>('language') ?? 'zh',
  fallbackLng: 'zh',
  defaultNS: 'common',
  ns: Object.keys(zh),
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * antd's date pickers take month and weekday names from dayjs's global locale, not from
 * ConfigProvider: without this a Chinese console showed "Jan" and "Mo" in every calendar.
 */
const dayjsLocale = (language: string) => (language === 'en' ? 'en' : 'zh-cn');
dayjs.locale(dayjsLocale(i18n.language));
i18n.on('languageChanged', (language) => dayjs.locale(dayjsLocale(language)));

/** Switches the language without a reload and remembers the choice. */
export function changeLanguage(language: Language): void {
  setStore('language', language);
  void i18n.changeLanguage(language);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

export default i18n;
