import i18n from 'i18next';
import { log as en } from '../../../i18n/locales/en/log';
import { log as zh } from '../../../i18n/locales/zh/log';

// Imported by the screens that use these strings (the log screens, the welcome page): the
// namespace is added here whether or not the locale index registers it.
i18n.addResourceBundle('zh', 'log', zh, true, false);
i18n.addResourceBundle('en', 'log', en, true, false);
