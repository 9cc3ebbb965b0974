/**
 * The chart's language (spec trading §9: "Language mapping on the chart: hk to zh_TW, jp to ja,
 * default zh"). The spec's mapping is kept; the app's other three languages, which its chart did not
 * have, keep their own (en, de, fr), and any other key gets the spec's default, zh.
 * docs/decisions.md "Loose ends (issue 30)".
 */
const CHART_LOCALES: Readonly<Record<string, string>> = { hk: 'zh_TW', jp: 'ja', en: 'en', gm: 'de', fr: 'fr' };
export const DEFAULT_CHART_LOCALE = 'zh';

/** The chart locale of an app language key (`hk` → `zh_TW`). */
export function chartLocale(lang: string | undefined): string {
  return CHART_LOCALES[(lang ?? '').toLowerCase()] ?? DEFAULT_CHART_LOCALE;
}

/**
 * The chart locale as an Intl tag for the time axis (`zh_TW` → `zh-TW`); English keeps the
 * year-month-day order the axis has always had (`en-CA`).
 */
export function intlTag(locale: string): string {
  return locale === 'en' ? 'en-CA' : locale.replace('_', '-');
}
