import { useEffect, useState } from 'react';

import { createAssetsApi, type AssetsApi } from './api/assets-api';
import { AccountsStore } from './stores/accounts-store';

/** The page's own API and account store, loaded when the page opens. */
export function useAccounts(): { api: AssetsApi; accounts: AccountsStore } {
  const [state] = useState(() => {
    const api = createAssetsApi();
    return { api, accounts: new AccountsStore(api) };
  });
  useEffect(() => {
    void state.accounts.load();
  }, [state]);
  return state;
}
