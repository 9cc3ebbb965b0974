import type { RootStore } from '@/stores/root-store';

import { AppProvider } from './provider';
import { AppRouter } from './router';

export function App({ store }: { store: RootStore }) {
  return (
    <AppProvider store={store}>
      <AppRouter />
    </AppProvider>
  );
}
