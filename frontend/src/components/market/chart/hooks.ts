/** Browser state the chart draws with: the theme and the screen width. */
import { useSyncExternalStore } from 'react';

export type ChartTheme = 'dark' | 'light';

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
