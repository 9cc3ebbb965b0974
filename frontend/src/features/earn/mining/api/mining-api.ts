/**
 * The mining calls (spec shell §7 `mining/*`). Reads are quiet (the page shows a failure in place);
 * buy and cancel show the overlay and the server's message, and its refusal.
 */
import { apiClient, type ApiTransport } from '@/lib/api-client';

import type { CancelResult, MiningAsset, MiningDetail, MiningIndex, MiningOrder, MiningOrders } from '../types';

/** Spec §9: mining orders are 6 a page. */
export const MINING_PAGE_SIZE = 6;

/** mining/orders' type: 0 in progress, 1 ended. */
export type OrdersTab = 0 | 1;

export function createMiningApi(api: ApiTransport = apiClient) {
  return {
    index: () => api.get<MiningIndex>('mining/index', { quiet: true }),
    info: (id: number) => api.get<MiningDetail>('mining/info', { params: { id }, quiet: true }),
    buy: (body: { id: number; nums: string; type: MiningAsset }) =>
      api.post<MiningOrder>('mining/buy', body, { loading: true, showMsg: true }),
    orders: (type: OrdersTab, page: number) =>
      api.get<MiningOrders>('mining/orders', { params: { page, type }, quiet: true }),
    cancel: (id: number) => api.post<CancelResult>('mining/cancel', { id }, { loading: true, showMsg: true }),
  };
}

export type MiningApi = ReturnType<typeof createMiningApi>;
