/**
 * Shapes of the market data the chart, order book and pair list show (market/currency_matches,
 * market/deal, market/kline and the public pushes; serve/api/routes/market.py, actors/pair/events.py).
 */

/** Money and quantities arrive as decimal strings ("68012.5"); never parsed into floats for arithmetic. */
export type Decimal = string;

/** The quotation is the shell's (types/api.ts): one shape for the home page, the markets and the trade screens. */
import type { Quotation } from '@/types/api';

export type { Quotation };

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
  /** 1: offers leveraged contracts. */
  open_lever?: number;
  /** 1: offers second contracts (with a USDT quote only, spec trading §5). */
  open_microtrade?: number;
  price_decimals?: number;
  qty_decimals?: number;
  /** The spot fees, fractions of a fill's value: a resting order's (maker) and the one that met it (taker). */
  maker_fee?: Decimal;
  taker_fee?: Decimal;
  /** The lever spread, in percent of the price. */
  lever_point_rate?: Decimal;
  /** Base units per hand. */
  lever_share_num?: Decimal;
  /** The lever fee, a fraction of the position's value. */
  lever_fee_rate?: Decimal;
  currency_quotation: Quotation | null;
}

export interface QuoteGroup {
  id: number;
  code: string;
  name?: string;
  /** The quote currency's live USD and CNY price. */
  usd_price?: Decimal;
  cny_price?: Decimal;
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
  /** Canonical period name: 1min, 3min, 5min, … 720min, 1day, 3day, 1week, 1mon. */
  period: string;
}

/** MARK.{symbol}: a new tick of the pair's mark price (the price lever positions are valued at). */
export interface MarkPush {
  type: 'mark';
  symbol: string;
  currency_match_id: number;
  id: number;
  seq: number;
  /** Milliseconds. */
  time: number;
  price: Decimal;
}
