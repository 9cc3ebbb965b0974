import { makeAutoObservable } from 'mobx';

import { DEFAULT_LANG, isLang, type Lang } from '@/i18n/languages';
import { STORAGE_KEYS, storage } from '@/lib/storage';

export type Theme = 'dark' | 'light';

export const DEFAULT_THEME: Theme = 'dark';

function isTheme(value: unknown): value is Theme {
  return value === 'dark' || value === 'light';
}

/** UI preferences; both are persisted to localStorage. */
export class UiStore {
  theme: Theme;
  lang: Lang;

  constructor() {
    const theme = storage.get(STORAGE_KEYS.theme);
    const lang = storage.get(STORAGE_KEYS.lang);
    this.theme = isTheme(theme) ? theme : DEFAULT_THEME;
    this.lang = isLang(lang) ? lang : DEFAULT_LANG;
    makeAutoObservable(this);
  }

  setTheme(theme: Theme): void {
    this.theme = theme;
    storage.set(STORAGE_KEYS.theme, theme);
  }

  toggleTheme(): void {
    this.setTheme(this.theme === 'dark' ? 'light' : 'dark');
  }

  setLang(lang: Lang): void {
    this.lang = lang;
    storage.set(STORAGE_KEYS.lang, lang);
  }
}
