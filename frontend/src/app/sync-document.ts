import type { i18n as I18n } from 'i18next';
import { autorun } from 'mobx';

import { htmlLangOf } from '@/i18n/languages';
import type { UiStore } from '@/stores/ui-store';

/**
 * Mirror UI preferences onto the page: `data-theme` / `lang` on <html> and the
 * i18next language. Runs once immediately, then on every change.
 * Returns a function that stops the syncing.
 */
export function syncDocumentWithUi(ui: UiStore, i18n: I18n): () => void {
  const disposers = [
    autorun(() => {
      document.documentElement.dataset.theme = ui.theme;
    }),
    autorun(() => {
      document.documentElement.lang = htmlLangOf(ui.lang);
      if (i18n.language !== ui.lang) void i18n.changeLanguage(ui.lang);
    }),
  ];
  return () => disposers.forEach((dispose) => dispose());
}
