/**
 * The backend calls of the trade page (spec trading §7), through the app's one HTTP client.
 * Background calls (polls, refetches after a push) are `quiet`: their failures are not shown.
 */
import { apiClient } from '@/lib/api-client';

import type {
  AccountBalance,
  Deal,
  KlineBar,
  Paged,
  QuoteGroup,
  SpotOrder,
  Way,
} from '../types';
import { BUY } from '../types';
import type { OrderBody } from '../lib/order-rules';

type Query = Record<string, string | number | null | undefined>;

interface CallOptions {
  params?: Query;
  /** Do not report a failure to the user (the app's request layer honours it). */
  quiet?: boolean;
}

/** The part of `apiClient` used here; tests pass a fake. */
export interface Transport {
  get<T>(path: string, options?: CallOptions): Promise<T | undefined>;
  post<T>(path: string, body?: unknown, options?: CallOptions): Promise<T | undefined>;
}

export type OrdersView = 'current' | 'all' | 'history';

export const ORDERS_PAGE_SIZE = 10;

export interface OrdersQuery {
  view: OrdersView;
  way: Way;
  page: number;
  /** Only for the current-pair view. */
  pairId?: number | null;
}

export interface KlineQuery {
  pairId: number;
  symbol: string;
  period: string;
  /** Seconds (the server takes values under 13 digits as seconds). */
  from: number;
  to: number;
}

export interface TradeApi {
  currencyMatches(): Promise<QuoteGroup[]>;
  deal(pairId: number, options?: { quiet?: boolean }): Promise<Deal | undefined>;
  kline(query: KlineQuery, options?: { quiet?: boolean }): Promise<KlineBar[]>;
  /** The change account (type 1) balance of one currency. */
  balance(currencyId: number): Promise<AccountBalance | undefined>;
  placeOrder(way: Way, body: OrderBody): Promise<SpotOrder | undefined>;
  orders(query: OrdersQuery, options?: { quiet?: boolean }): Promise<Paged<SpotOrder>>;
  cancelOrder(way: Way, id: number): Promise<unknown>;
}

const side = (way: Way) => (way === BUY ? 'tx_in' : 'tx_out');

const emptyPage = (): Paged<SpotOrder> => ({ data: [], total: 0, per_page: ORDERS_PAGE_SIZE, last_page: 1 });

export function createTradeApi(client: Transport = apiClient): TradeApi {
  return {
    async currencyMatches() {
      const data = await client.get<QuoteGroup[]>('market/currency_matches');
      return Array.isArray(data) ? data : [];
    },
    deal(pairId, options) {
      return client.get<Deal>('market/deal', { params: { currency_match_id: pairId }, quiet: options?.quiet });
    },
    async kline(q, options) {
      const data = await client.get<KlineBar[]>('market/kline', {
        params: { currency_match_id: q.pairId, symbol: q.symbol, period: q.period, from: q.from, to: q.to },
        quiet: options?.quiet,
      });
      return Array.isArray(data) ? data : [];
    },
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
