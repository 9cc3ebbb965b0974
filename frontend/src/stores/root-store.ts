import { createContext, useContext } from 'react';

import { apiClient, type ApiTransport } from '@/lib/api-client';

import { ContentStore } from './content-store';
import { HomeMarketStore } from './home-market-store';
import { SessionStore } from './session-store';
import { UiStore } from './ui-store';

/** Holds every app-wide MobX store; each gets the HTTP transport it talks through. */
export class RootStore {
  readonly ui: UiStore;
  readonly session: SessionStore;
  readonly content: ContentStore;
  readonly market: HomeMarketStore;

  constructor(api: ApiTransport = apiClient) {
    this.ui = new UiStore();
    this.session = new SessionStore(api);
    this.content = new ContentStore(api);
    this.market = new HomeMarketStore(api);
  }
}

export const StoresContext = createContext<RootStore | null>(null);

/** Access the stores from a component rendered under <StoresContext.Provider>. */
export function useStores(): RootStore {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores() must be used inside <StoresContext.Provider>');
  return stores;
}
