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

export { i18n };
