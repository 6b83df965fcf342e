import i18n from 'i18next';

/** Adds namespaces to i18next once (a chunk loaded again leaves them as they are). */
export function addBundles(zh: Record<string, object>, en: Record<string, object>): void {
  for (const [language, bundles] of [
    ['zh', zh],
    ['en', en],
  ] as const) {
    for (const [ns, bundle] of Object.entries(bundles)) {
      if (!i18n.hasResourceBundle(language, ns)) i18n.addResourceBundle(language, ns, bundle, true, false);
    }
  }
}
