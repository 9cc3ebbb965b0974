import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import en from './en.json';
import fr from './fr.json';
import gm from './gm.json';
import hk from './hk.json';
import jp from './jp.json';
import { DEFAULT_LANG, type Lang } from './languages';
import spotEn from './spot/en.json';
import spotFr from './spot/fr.json';
import spotGm from './spot/gm.json';
import spotHk from './spot/hk.json';
import spotJp from './spot/jp.json';

export const resources = {
  en: { translation: en, spot: spotEn },
  hk: { translation: hk, spot: spotHk },
  jp: { translation: jp, spot: spotJp },
  gm: { translation: gm, spot: spotGm },
  fr: { translation: fr, spot: spotFr },
} as const satisfies Record<Lang, { translation: typeof en; spot: typeof spotEn }>;

/** Initialise the shared i18next instance synchronously (resources are bundled). */
export function initI18n(lang: Lang) {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources,
      lng: lang,
      fallbackLng: DEFAULT_LANG,
      initAsync: false,
      interpolation: { escapeValue: false }, // React already escapes
    });
  }
  return i18n;
}

/**
 * Adds a namespace that a lazy page brings with it (every language at once, so switching language
 * needs no fetch). The wallet and personal texts load with their pages, not with the home page.
 */
export function registerNamespace<T extends object>(ns: string, bundles: Record<Lang, T>): void {
  for (const [lang, bundle] of Object.entries(bundles)) {
    if (!i18n.hasResourceBundle(lang, ns)) i18n.addResourceBundle(lang, ns, bundle, true, true);
  }
}

export { i18n };
