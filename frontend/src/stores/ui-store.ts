import { makeAutoObservable } from 'mobx';

import { DEFAULT_LANG, isLang, type Lang } from '@/i18n/languages';
import { STORAGE_KEYS, storage } from '@/lib/storage';

export type Theme = 'dark' | 'light';

export const DEFAULT_THEME: Theme = 'dark';

/** A success message stays 1 second (spec §9); errors a little longer so they can be read. */
export const SUCCESS_TOAST_MS = 1000;
export const ERROR_TOAST_MS = 2500;

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

function isTheme(value: unknown): value is Theme {
  return value === 'dark' || value === 'light';
}

/**
 * UI preferences (persisted to localStorage), the toast messages and the loading overlay.
 */
export class UiStore {
  theme: Theme;
  lang: Lang;
  toasts: Toast[] = [];
  /** Calls currently running with the blocking overlay. */
  pending = 0;
  private nextToastId = 1;

  constructor() {
    const theme = storage.get(STORAGE_KEYS.theme);
    const lang = storage.get(STORAGE_KEYS.lang);
    this.theme = isTheme(theme) ? theme : DEFAULT_THEME;
    this.lang = isLang(lang) ? lang : DEFAULT_LANG;
    makeAutoObservable<UiStore, 'nextToastId'>(this, { nextToastId: false });
  }

  get loading(): boolean {
    return this.pending > 0;
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

  /** Shows a message for `ms` milliseconds; returns its id. */
  toast(kind: ToastKind, text: string, ms = kind === 'success' ? SUCCESS_TOAST_MS : ERROR_TOAST_MS): number {
    const id = this.nextToastId++;
    // The same text twice in a row (e.g. two failing calls) is shown once.
    if (!this.toasts.some((t) => t.text === text && t.kind === kind)) this.toasts.push({ id, kind, text });
    setTimeout(() => this.dismissToast(id), ms);
    return id;
  }

  dismissToast(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }

  setLoading(active: boolean): void {
    this.pending = Math.max(0, this.pending + (active ? 1 : -1));
  }
}
