/** Shapes of the backend answers and pushes the trade page uses (serve/api/routes, actors/pair/events.py). */

// The market data the trade page shares with the lever screen.
export type {
  CompletedTrade,
  Deal,
  DayMarketPush,
  Decimal,
  Depth,
  DepthLevel,
  DepthPush,
  GlobalTxPush,
  KlineBar,
  KlinePush,
  Pair,
  Quotation,
  QuoteGroup,
} from '@/components/market/types';
import type { Decimal } from '@/components/market/types';

export const BUY = 1;
export const SELL = 2;
export type Way = typeof BUY | typeof SELL;

export const ORDER_STATUS = { open: 1, partial: 2, filled: 3, cancelled: 4 } as const;

export interface SpotOrder {
  id: number;
  currency_match_id: number;
  symbol: string;
  currency_match?: { symbol: string };
  way: Way;
  kind?: number;
  price: Decimal;
  number: Decimal;
  transacted_amount: Decimal;
  transacted_volume: Decimal;
  status: number;
  way_name?: string;
  status_name?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Paged<T> {
  data: T[];
  total: number;
  per_page: number;
  current_page?: number;
  last_page: number;
}

export interface AccountBalance {
  currency_id: number;
  currency_code: string;
  balance: Decimal;
  lock_balance: Decimal;
}

// -- pushes (type field as sent by the server) ---------------------------------------------------

export interface TxSubmitPush {
  type: 'tx_submit';
  order: SpotOrder;
  way: Way;
}

export interface TxMatchedPush {
  type: 'tx_matched';
  order: SpotOrder;
}
