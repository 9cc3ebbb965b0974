import { createContext, useContext } from 'react';

import { UiStore } from './ui-store';

/** Holds every app-wide MobX store. Add new domain stores here as fields. */
export class RootStore {
  readonly ui: UiStore;

  constructor() {
    this.ui = new UiStore();
  }
}

export const StoresContext = createContext<RootStore | null>(null);

/** Access the stores from a component rendered under <StoresContext.Provider>. */
export function useStores(): RootStore {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores() must be used inside <StoresContext.Provider>');
  return stores;
}
