/**
 * Shapes of the lever calls and pushes (docs/decisions.md "Leveraged contracts (issue 11)";
 * serve/api/routes/lever.py, store/lever.py position_public). Every amount is a decimal string.
 */
import type { Decimal } from '@/components/market/types';
import type { Paginated } from '@/types/api';

export const LONG = 1;
export const SHORT = 2;
export type Side = typeof LONG | typeof SHORT;

/** Position states (spec §4): 0 entrusted, 1 open, 2 closing, 3 closed, 4 cancelled. */
export const STATUS = { entrusted: 0, open: 1, closing: 2, closed: 3, cancelled: 4 } as const;

export type CloseReason =
  | 'manual'
  | 'batch'
  | 'take_profit'
  | 'stop_loss'
  | 'liquidation'
  | 'cancelled'
  | 'cover'
  | 'exposure';

export interface Position {
  id: number;
  currency_match_id: number;
  symbol: string;
  type: Side;
  type_name?: string;
  status: number;
  status_name?: string;
  /** Hands. */
  share: number;
  multiple: number;
  /** hands × the pair's lever_share_num (base units). */
  number: Decimal;
  /** Open price (an entrustment's: its target until it opens). */
  price: Decimal;
  origin_price: Decimal;
  target_price: Decimal;
  caution_money: Decimal;
  origin_caution_money: Decimal;
  trade_fee: Decimal;
  overnight_money: Decimal;
  /** "0" when not set. */
  target_profit_price: Decimal;
  stop_loss_price: Decimal;
  /** The current mark (while open), else the close (or open) price. */
  update_price: Decimal;
  /** Unrealised at the mark while open, realised once closed. */
  profits: Decimal;
  close_price: Decimal;
  close_reason: CloseReason | null;
  close_reason_name?: string;
  open_tick_id?: number | null;
  close_tick_id?: number | null;
  /** Created, ms. */
  time: number | null;
  opened_at?: number | null;
  closed_at?: number | null;
  base_currency_id?: number;
  quote_currency_id?: number;
}

/** lever/deal: what the order panel needs for one pair. */
export interface LeverDeal {
  /** Free lever USDT. */
  user_lever: Decimal;
  multiple: {
    /** The multiples offered. */
    muit: number[];
    /** The hand presets. */
    share: { value: number; label: string }[];
  };
  /** The user's entrustments on the pair. */
  my_transaction: Position[];
  mark: Decimal | null;
  hazard_rate: Decimal | null;
}

/** lever/dealall: the pair's open positions, the account's risk rate and their unrealised profit. */
export interface DealAll {
  order: Paginated<Position>;
  hazard_rate: Decimal | null;
  profits_all: Decimal;
}

export interface BatchClosed {
  closed: number;
  data: Position[];
}

/** lever/submit's body (spec §7). */
export interface SubmitBody {
  currency_match_id: number;
  type: Side;
  /** 1 at the market price, 0 at a fixed price (an entrustment). */
  status: 0 | 1;
  share: number;
  multiple: number;
  target_price: string | null;
}

// -- pushes ----------------------------------------------------------------------------------------

export interface LeverTradePush {
  type: 'lever_trade';
  position: Position;
}

export interface LeverClosedPush {
  type: 'lever_closed';
  position: Position;
}
