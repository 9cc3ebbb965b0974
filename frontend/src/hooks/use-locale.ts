import { useTranslation } from 'react-i18next';

import { htmlLangOf, isLang } from '@/i18n/languages';

/** The BCP 47 locale of the UI language (`hk` → `zh-Hant-HK`), for Intl number formats. */
export function useLocale(): string {
  const { i18n } = useTranslation();
  return isLang(i18n.language) ? htmlLangOf(i18n.language) : 'en';
}
