import i18n from 'i18next';
import { shellResources as en } from './locales/en/shell';
import { shellResources as zh } from './locales/zh/shell';

/**
 * The namespaces of the signed-in screens. Imported by the modules that open them (the shell's
 * layout, the wall screen), so they arrive with those chunks and not with /login's first load.
 * A route's module is loaded before the route renders, so no screen shows a missing key.
 */
for (const [language, bundles] of [
  ['zh', zh],
  ['en', en],
] as const) {
  for (const [ns, bundle] of Object.entries(bundles)) {
    if (!i18n.hasResourceBundle(language, ns)) i18n.addResourceBundle(language, ns, bundle, true, false);
  }
}
