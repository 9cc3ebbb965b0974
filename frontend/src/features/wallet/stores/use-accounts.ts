/** The assets pages' API and account store, made once per page so each page reads its own accounts when it opens. */
import { useEffect, useState } from 'react';

import { createWalletApi, type WalletApi } from '../api/wallet-api';
import { AccountsStore } from './accounts-store';

/** The page's own API and account store, loaded when the page opens. */
export function useAccounts(): { api: WalletApi; accounts: AccountsStore } {
  const [state] = useState(() => {
    const api = createWalletApi();
    return { api, accounts: new AccountsStore(api) };
  });
  useEffect(() => {
    void state.accounts.load();
  }, [state]);
  return state;
}
