import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import en from './en.json';
import fr from './fr.json';
import gm from './gm.json';
import hk from './hk.json';
import jp from './jp.json';
import { DEFAULT_LANG, type Lang } from './languages';
import tradeEn from './trade/en.json';
import tradeFr from './trade/fr.json';
import tradeGm from './trade/gm.json';
import tradeHk from './trade/hk.json';
import tradeJp from './trade/jp.json';

export const resources = {
  en: { translation: en, trade: tradeEn },
  hk: { translation: hk, trade: tradeHk },
  jp: { translation: jp, trade: tradeJp },
  gm: { translation: gm, trade: tradeGm },
  fr: { translation: fr, trade: tradeFr },
} as const satisfies Record<Lang, { translation: typeof en; trade: typeof tradeEn }>;

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
 * needs no fetch). The assets and personal texts load with their pages, not with the home page.
 */
export function registerNamespace<T extends object>(ns: string, bundles: Record<Lang, T>): void {
  for (const [lang, bundle] of Object.entries(bundles)) {
    if (!i18n.hasResourceBundle(lang, ns)) i18n.addResourceBundle(lang, ns, bundle, true, true);
  }
}

export { i18n };
