import type { ReactNode } from 'react';

import { type RootStore, StoresContext } from '@/stores/root-store';

export function AppProvider({ store, children }: { store: RootStore; children: ReactNode }) {
  return <StoresContext.Provider value={store}>{children}</StoresContext.Provider>;
}
