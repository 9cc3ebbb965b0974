import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import assetsEn from './assets/en.json';
import assetsFr from './assets/fr.json';
import assetsGm from './assets/gm.json';
import assetsHk from './assets/hk.json';
import assetsJp from './assets/jp.json';
import personalEn from './personal/en.json';
import personalFr from './personal/fr.json';
import personalGm from './personal/gm.json';
import personalHk from './personal/hk.json';
import personalJp from './personal/jp.json';
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
  en: { translation: en, trade: tradeEn, assets: assetsEn, personal: personalEn },
  hk: { translation: hk, trade: tradeHk, assets: assetsHk, personal: personalHk },
  jp: { translation: jp, trade: tradeJp, assets: assetsJp, personal: personalJp },
  gm: { translation: gm, trade: tradeGm, assets: assetsGm, personal: personalGm },
  fr: { translation: fr, trade: tradeFr, assets: assetsFr, personal: personalFr },
} as const satisfies Record<
  Lang,
  { translation: typeof en; trade: typeof tradeEn; assets: typeof assetsEn; personal: typeof personalEn }
>;

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
