/**
 * The fee page's reads, both public and quiet (the page shows their failure): the pairs with their
 * spot and lever fees (market/currency_matches) and the currencies with their withdrawal fee and
 * bounds (block_chain/currency_protocols).
 */
import type { QuoteGroup } from '@/components/market/types';
import { apiClient, type ApiTransport } from '@/lib/api-client';

import type { FeeCurrency } from '../types';

export function createFeesApi(api: ApiTransport = apiClient) {
  return {
    groups: async () => (await api.get<QuoteGroup[]>('market/currency_matches', { quiet: true })) ?? [],
    currencies: async () => (await api.get<FeeCurrency[]>('block_chain/currency_protocols', { quiet: true })) ?? [],
  };
}

export type FeesApi = ReturnType<typeof createFeesApi>;
