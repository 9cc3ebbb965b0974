import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from '@/app/app';
import { bootstrap } from '@/app/bootstrap';
import { syncDocumentWithUi } from '@/app/sync-document';
import { initI18n } from '@/i18n';
import { RootStore } from '@/stores/root-store';

import './styles.css';

const store = new RootStore();
const i18n = initI18n(store.ui.lang);
// Before the first render, so a saved light theme never flashes dark.
syncDocumentWithUi(store.ui, i18n);
bootstrap(store, i18n);

const container = document.getElementById('root');
if (!container) throw new Error('#root element missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
