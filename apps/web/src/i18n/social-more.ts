import i18n from 'i18next';
import { socialMore as en } from './locales/en/social-more';
import { socialMore as zh } from './locales/zh/social-more';

// Imported by the screens that use these strings: they reach the browser with those screens'
// chunks instead of with every page's first load.
i18n.addResourceBundle('zh', 'social', zh, true, false);
i18n.addResourceBundle('en', 'social', en, true, false);
