/** Small browser hooks of the trade page: theme, login state, screen width. */
import { useSyncExternalStore } from 'react';

import { STORAGE_KEYS, storage } from '@/lib/storage';

export type ChartTheme = 'dark' | 'light';

/** How often the session token is re-read: a login or logout in this tab fires no storage event. */
const TOKEN_POLL_MS = 1_000;

function readTheme(): ChartTheme {
  return document.documentElement.dataset.theme === 'light' ? 'light' : 'dark';
}

function subscribeTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

/** The theme the shell puts on <html data-theme> (dark by default). */
export function useDocumentTheme(): ChartTheme {
  return useSyncExternalStore(subscribeTheme, readTheme, () => 'dark');
}

function readToken(): string | null {
  return storage.get(STORAGE_KEYS.token) || null;
}

function subscribeToken(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  const timer = setInterval(onChange, TOKEN_POLL_MS);
  return () => {
    window.removeEventListener('storage', onChange);
    clearInterval(timer);
  };
}

/** The stored session token; login state is "a token is present" (spec §4). */
export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribeToken, readToken, () => null);
}

/** True while the media query matches (e.g. wide screens for MACD). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
