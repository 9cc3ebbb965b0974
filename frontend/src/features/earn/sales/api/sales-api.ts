/** The token-sale calls (spec shell §7 `shoufa/*`, and `shoufa/buy` of issue 13). */
import { apiClient, type ApiTransport } from '@/lib/api-client';

import type { Sale, SaleFilter } from '../types';

/** account/list's groups, of which the sale page reads the savings (financial) account. */
interface AccountGroup {
  account_code: string;
  accounts: { currency_code: string; balance: string | number }[];
}

export const FINANCIAL_ACCOUNT = 'financial_account';

export function createSalesApi(api: ApiTransport = apiClient) {
  return {
    list: async (type: SaleFilter) => (await api.get<Sale[]>('shoufa/index', { params: { type }, quiet: true })) ?? [],
    info: (id: number) => api.get<Sale>('shoufa/info', { params: { id }, quiet: true }),
    /** Subscribes `nums` tokens, paid (locked) in the accepted asset at the sale price; answers the sale with `mine`. */
    buy: (body: { id: number; nums: string }) => api.post<Sale>('shoufa/buy', body, { loading: true, showMsg: true }),
    /** The savings account's balance of `code` ("0" without one). */
    financialBalance: async (code: string): Promise<string> => {
      const groups = await api.get<AccountGroup[]>('account/list', { quiet: true });
      const group = (groups ?? []).find((g) => g.account_code === FINANCIAL_ACCOUNT);
      const account = group?.accounts.find((a) => a.currency_code === code);
      return account ? String(account.balance) : '0';
    },
  };
}

export type SalesApi = ReturnType<typeof createSalesApi>;
