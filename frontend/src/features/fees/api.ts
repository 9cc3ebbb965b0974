/**
 * The fee page's reads, both public and quiet (the page shows their failure): the pairs with their
 * spot and lever fees (market/currency_matches) and the currencies with their withdrawal fee and
 * bounds (block_chain/currency_protocols).
 */
import type { QuoteGroup } from '@/components/market/types';
import { apiClient, type ApiTransport } from '@/lib/api-client';

/** A currency as block_chain/currency_protocols answers it, as far as the fee page reads it. */
export interface FeeCurrency {
  id: number;
  code: string;
  /** 1: withdrawals are open. */
  open_draw: number;
  /** The withdrawal fee, a fraction of the amount. */
  draw_rate: string;
  draw_min: string;
  draw_max: string;
}

export function createFeesApi(api: ApiTransport = apiClient) {
  return {
    groups: async () => (await api.get<QuoteGroup[]>('market/currency_matches', { quiet: true })) ?? [],
    currencies: async () => (await api.get<FeeCurrency[]>('block_chain/currency_protocols', { quiet: true })) ?? [],
  };
}

export type FeesApi = ReturnType<typeof createFeesApi>;
