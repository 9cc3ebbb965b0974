/** Languages supported by the UI. `code` is what the backend expects in the `lang` header. */
export const LANGUAGES = [
  { code: 'en', label: 'English', htmlLang: 'en' },
  { code: 'hk', label: '繁體中文', htmlLang: 'zh-Hant-HK' },
  { code: 'jp', label: '日本語', htmlLang: 'ja' },
  { code: 'gm', label: 'Deutsch', htmlLang: 'de' },
  { code: 'fr', label: 'Français', htmlLang: 'fr' },
] as const;

export type Lang = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANG: Lang = 'en';

export function isLang(value: unknown): value is Lang {
  return LANGUAGES.some((l) => l.code === value);
}

export function htmlLangOf(lang: Lang): string {
  return LANGUAGES.find((l) => l.code === lang)?.htmlLang ?? 'en';
}
