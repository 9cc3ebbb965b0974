/** Shapes of the backend answers and pushes the trade page uses (serve/api/routes, actors/pair/events.py). */

/** Money and quantities arrive as decimal strings ("68012.5"); never parsed into floats for arithmetic. */
export type Decimal = string;

export interface Quotation {
  currency_match_id?: number;
  close: Decimal;
  /** 24 h change in percent: "1.23" means +1.23 %. */
  change: Decimal;
  high: Decimal;
  low: Decimal;
  volume: Decimal;
}

export interface Pair {
  id: number;
  symbol: string;
  name?: string;
  base_currency_id: number;
  quote_currency_id: number;
  base_currency_code: string;
  quote_currency_code: string;
  /** 1: tradable on the spot page. */
  open_change: number;
  price_decimals?: number;
  qty_decimals?: number;
  currency_quotation: Quotation | null;
}

export interface QuoteGroup {
  id: number;
  code: string;
  name?: string;
  matches: Pair[];
}

export interface DepthLevel {
  price: Decimal;
  amount: Decimal;
  index?: number;
}

/** in: bids (best first), out: asks (best first). */
export interface Depth {
  seq: number;
  in: DepthLevel[];
  out: DepthLevel[];
}

export interface CompletedTrade {
  id: number;
  price: Decimal;
  amount: Decimal;
  /** The taker's side: 1 buy, 2 sell. */
  way: number;
  /** Seconds. */
  timestamp: number;
  /** Milliseconds. */
  time: number;
}

export interface Deal {
  quotation: Quotation;
  depth: Depth;
  tx_completes: CompletedTrade[];
}

export interface KlineBar {
  /** Bucket start, milliseconds. */
  time: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
}

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

export interface DayMarketPush {
  type: 'daymarket';
  currency_match_id: number;
  symbol: string;
  quotation: Quotation;
}

export interface DepthPush {
  type: 'market_depth';
  symbol: string;
  currency_match_id: number;
  depth: Depth;
}

export interface GlobalTxPush {
  type: 'global_tx';
  symbol: string;
  currency_match_id: number;
  /** Newest first. */
  completes: CompletedTrade[];
}

export interface KlinePush extends KlineBar {
  type: 'kline';
  symbol: string;
  /** Canonical period name: 1min, 5min, 15min, 30min, 60min, 1day, 1week, 1mon. */
  period: string;
}

export interface TxSubmitPush {
  type: 'tx_submit';
  order: SpotOrder;
  way: Way;
}

export interface TxMatchedPush {
  type: 'tx_matched';
  order: SpotOrder;
}
