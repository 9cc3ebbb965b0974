/**
 * The calls of the second-contract screen (spec trading §7 `microtrade/*`) on top of the market
 * calls its chart and pair tabs read. Reads are GET with query parameters, the order a POST with
 * JSON. The order is sent `quiet`: the panel shows a refusal itself (e.g. the product switched off),
 * and the server's success message is shown as usual.
 */
import { createMarketApi, type MarketApi, type Transport } from '@/components/market/market-api';
import { apiClient } from '@/lib/api-client';

import type { MicroOrder, MicroPage, PayableCurrency, Proof, SecondsOption, SubmitBody } from '../types';

/** Spec §9: micro history is 10 a page. */
export const MICRO_PAGE_SIZE = 10;

/** lists' status: 1 in progress, 3 closed. */
export type ListStatus = 1 | 3;

interface Quiet {
  quiet?: boolean;
}

export interface MicroApi extends MarketApi {
  payableCurrencies(options?: Quiet): Promise<PayableCurrency[]>;
  /** The durations of a pair (every pair's defaults without one). */
  seconds(pairId: number | null, options?: Quiet): Promise<SecondsOption[]>;
  /** Rejects with the server's message (not shown by the request layer). */
  submit(body: SubmitBody): Promise<MicroOrder | undefined>;
  /** `pairId` null: every pair. */
  lists(status: ListStatus, page: number, pairId: number | null, options?: Quiet): Promise<MicroPage>;
  proof(id: number): Promise<Proof | undefined>;
}

const emptyPage = (): MicroPage => ({ data: [], total: 0, per_page: MICRO_PAGE_SIZE, current_page: 1, last_page: 1 });

export function createMicroApi(client: Transport = apiClient): MicroApi {
  return {
    ...createMarketApi(client),
    async payableCurrencies(options) {
      const data = await client.get<PayableCurrency[]>('microtrade/payable_currencies', { quiet: options?.quiet });
      return Array.isArray(data) ? data : [];
    },
    async seconds(pairId, options) {
      const data = await client.get<SecondsOption[]>('microtrade/seconds', {
        params: { match_id: pairId },
        quiet: options?.quiet,
      });
      return Array.isArray(data) ? data : [];
    },
    submit(body) {
      return client.post<MicroOrder>('microtrade/submit', body, { showMsg: true, quiet: true });
    },
    async lists(status, page, pairId, options) {
      const data = await client.get<MicroPage>('microtrade/lists', {
        params: { match_id: pairId, page, limit: MICRO_PAGE_SIZE, status },
        quiet: options?.quiet,
      });
      return data && Array.isArray(data.data) ? data : emptyPage();
    },
    proof(id) {
      return client.get<Proof>('microtrade/proof', { params: { id }, quiet: true });
    },
  };
}
