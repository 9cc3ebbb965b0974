/**
 * The backend calls of the trade page (spec trading §7), through the app's one HTTP client.
 * Background calls (polls, refetches after a push) are `quiet`: their failures are not shown.
 */
import { createMarketApi, type MarketApi, type Query, type Transport } from '@/components/market/market-api';
import { apiClient } from '@/lib/api-client';

import type { OrderBody } from '../lib/order-rules';
import type { AccountBalance, Paged, SpotOrder, Way } from '../types';
import { BUY } from '../types';

export type { Transport };

export type OrdersView = 'current' | 'all' | 'history';

export const ORDERS_PAGE_SIZE = 10;

export interface OrdersQuery {
  view: OrdersView;
  way: Way;
  page: number;
  /** Only for the current-pair view. */
  pairId?: number | null;
}

/** The market calls (pairs, deal, candles) and the spot order calls. */
export interface SpotApi extends MarketApi {
  /** The change account (type 1) balance of one currency. */
  balance(currencyId: number): Promise<AccountBalance | undefined>;
  placeOrder(way: Way, body: OrderBody): Promise<SpotOrder | undefined>;
  orders(query: OrdersQuery, options?: { quiet?: boolean }): Promise<Paged<SpotOrder>>;
  cancelOrder(way: Way, id: number): Promise<unknown>;
}

const side = (way: Way) => (way === BUY ? 'tx_in' : 'tx_out');

const emptyPage = (): Paged<SpotOrder> => ({ data: [], total: 0, per_page: ORDERS_PAGE_SIZE, last_page: 1 });

export function createSpotApi(client: Transport = apiClient): SpotApi {
  return {
    ...createMarketApi(client),
    balance(currencyId) {
      return client.get<AccountBalance>('account/detail', {
        params: { currency_id: currencyId, account_type_id: 1 },
        quiet: true,
      });
    },
    placeOrder(way, body) {
      return client.post<SpotOrder>(`${side(way)}/add`, body);
    },
    async orders(q, options) {
      const params: Query = { page: q.page, limit: ORDERS_PAGE_SIZE };
      if (q.view === 'current') params.currency_match_id = q.pairId;
      const path = q.view === 'history' ? 'tx_history/list' : `${side(q.way)}/list`;
      const data = await client.get<Paged<SpotOrder>>(path, { params, quiet: options?.quiet });
      return data && Array.isArray(data.data) ? data : emptyPage();
    },
    cancelOrder(way, id) {
      return client.post(`${side(way)}/cancel`, { id });
    },
  };
}
