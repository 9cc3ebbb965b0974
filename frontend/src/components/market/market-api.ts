/**
 * The market calls the chart, order book and pair list read (spec trading §7): the pairs, a pair's
 * deal (quotation, depth, trades) and its candles, through the app's one HTTP client. The trade and
 * lever pages build their own APIs on top of this one.
 */
import { apiClient } from '@/lib/api-client';

import type { Deal, KlineBar, QuoteGroup } from './types';

export type Query = Record<string, string | number | null | undefined>;

export interface CallOptions {
  params?: Query;
  /** Do not report a failure to the user (the app's request layer honours it). */
  quiet?: boolean;
  /** Show the answer's success message. */
  showMsg?: boolean;
}

/** The part of `apiClient` used here; tests pass a fake. */
export interface Transport {
  get<T>(path: string, options?: CallOptions): Promise<T | undefined>;
  post<T>(path: string, body?: unknown, options?: CallOptions): Promise<T | undefined>;
}

export interface KlineQuery {
  pairId: number;
  symbol: string;
  period: string;
  /** Seconds (the server takes values under 13 digits as seconds). */
  from: number;
  to: number;
}

export interface MarketApi {
  currencyMatches(): Promise<QuoteGroup[]>;
  deal(pairId: number, options?: { quiet?: boolean }): Promise<Deal | undefined>;
  kline(query: KlineQuery, options?: { quiet?: boolean }): Promise<KlineBar[]>;
}

export function createMarketApi(client: Transport = apiClient): MarketApi {
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
  };
}
