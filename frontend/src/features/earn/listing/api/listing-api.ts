/** The listing calls (spec shell §7 `listing/*`). */
import { apiClient, type ApiTransport } from '@/lib/api-client';

import type { ListingApplication, ListingIndex, ListingOrders, ListingProject } from '../types';

/** Spec §9: listing records are 10 a page. */
export const LISTING_PAGE_SIZE = 10;

export function createListingApi(api: ApiTransport = apiClient) {
  return {
    index: () => api.get<ListingIndex>('listing/index', { quiet: true }),
    info: (id: number) => api.get<ListingProject>('listing/info', { params: { id }, quiet: true }),
    /** Applies with `nums` USDT (locked 7 days); the server's message is shown. */
    buy: (body: { id: number; nums: string }) =>
      api.post<ListingApplication>('listing/buy', body, { loading: true, showMsg: true }),
    orders: (page: number) => api.get<ListingOrders>('listing/orders', { params: { page }, quiet: true }),
  };
}

export type ListingApi = ReturnType<typeof createListingApi>;
