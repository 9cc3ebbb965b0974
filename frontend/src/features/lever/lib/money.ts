/**
 * The lever money rules the screen previews (spec trading §5; docs/decisions.md "Leveraged
 * contracts"), with big.js on decimal strings — never floats:
 * - a market open's price is the mark moved by the pair's spread (lever_point_rate, percent) against
 *   the trader: a long adds (rounded up to the price places), a short subtracts (rounded down);
 *   a fixed price is its target;
 * - margin = price × hands × lever_share_num / multiple, fee = price × hands × lever_share_num ×
 *   lever_fee_rate, both rounded up to USDT's 6 places;
 * - a position's unrealised profit = (mark − open price) × number (negated for a short).
 * The server decides the real figures; these only show what an order will cost.
 */
import Big from 'big.js';

import { positive, toBig } from '@/lib/format';

import { LONG, type Position, type Side, STATUS } from '../types';

/** USDT's places: margins, fees and profits. */
export const MONEY_DECIMALS = 6;
/** A fixed price is typed with at most 4 decimals (spec §5). */
export const LEVER_PRICE_DECIMALS = 4;

/** The market open price of `side`: the mark moved by `pointRate` percent against the trader. */
export function spreadPrice(mark: unknown, pointRate: unknown, side: Side, decimals: number): string | null {
  const m = positive(mark);
  if (!m) return null;
  const rate = toBig(pointRate) ?? new Big(0);
  const factor = new Big(1)[side === LONG ? 'plus' : 'minus'](rate.div(100));
  const price = m.times(factor).round(decimals, side === LONG ? Big.roundUp : Big.roundDown);
  return price.gt(0) ? price.toFixed() : null;
}

export interface OrderFigures {
  /** The price the figures are taken at. */
  price: unknown;
  /** Hands (whole). */
  hands: unknown;
  multiple: unknown;
  /** The pair's lever_share_num: base units per hand. */
  shareNum: unknown;
  /** The pair's lever_fee_rate: a fraction of the value. */
  feeRate: unknown;
}

export interface Preview {
  price: string;
  /** price × hands × share_num. */
  value: string;
  margin: string;
  fee: string;
  /** margin + fee: what leaves the free balance. */
  total: string;
}

/** Margin and fee of an order, or null while a figure is missing. */
export function previewOrder(f: OrderFigures): Preview | null {
  const price = positive(f.price);
  const hands = positive(f.hands);
  const multiple = positive(f.multiple);
  const shareNum = positive(f.shareNum);
  if (!price || !hands || !multiple || !shareNum) return null;
  const value = price.times(hands).times(shareNum);
  const margin = value.div(multiple).round(MONEY_DECIMALS, Big.roundUp);
  const fee = value.times(toBig(f.feeRate) ?? 0).round(MONEY_DECIMALS, Big.roundUp);
  return {
    price: price.toFixed(),
    value: value.toFixed(),
    margin: margin.toFixed(),
    fee: fee.toFixed(),
    total: margin.plus(fee).toFixed(),
  };
}

/** Open (or closing) positions are valued at the mark; the others keep the server's figures. */
export function isLive(position: Pick<Position, 'status'>): boolean {
  return position.status === STATUS.open || position.status === STATUS.closing;
}

/** Unrealised profit of an open position at `mark` (exact); null without a mark. */
export function unrealisedProfit(position: Pick<Position, 'type' | 'price' | 'number'>, mark: unknown): string | null {
  const m = positive(mark);
  const open = toBig(position.price);
  const number = toBig(position.number);
  if (!m || !open || !number) return null;
  const profit = m.minus(open).times(number);
  return (position.type === LONG ? profit : profit.neg()).toFixed();
}

/** The sum of decimal strings (unreadable ones count as 0). */
export function sum(values: readonly unknown[]): string {
  return values.reduce<Big>((total, v) => total.plus(toBig(v) ?? 0), new Big(0)).toFixed();
}
