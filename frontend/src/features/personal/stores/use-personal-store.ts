/** A personal page's own store over the personal API, made once per page (and loaded when it opens where asked). */
import { useEffect, useState } from 'react';

import { createPersonalApi, type PersonalApi } from '../api/personal-api';

/** A page's own store, built once over the personal API. */
export function usePersonalStore<T>(make: (api: PersonalApi) => T): T {
  const [store] = useState(() => make(createPersonalApi()));
  return store;
}

/** The same, loaded once when the page opens. */
export function useLoadedPersonalStore<T extends { load(): Promise<unknown> }>(make: (api: PersonalApi) => T): T {
  const store = usePersonalStore(make);
  useEffect(() => {
    void store.load();
  }, [store]);
  return store;
}
