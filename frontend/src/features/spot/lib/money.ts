/**
 * The money rules of the order form (spec trading §5, §9), all with big.js on decimal strings:
 * prices cut to the pair's price decimals (4 by default), quantities floored to 6 decimals,
 * totals rounded up to 6 decimals, sliders in steps of 25 %.
 */
import Big from 'big.js';

import { QUANTITY_DECIMALS } from '@/components/market/decimals';
import { positive, toBig } from '@/lib/format';

export { PRICE_DECIMALS, QUANTITY_DECIMALS } from '@/components/market/decimals';
export const TOTAL_DECIMALS = 6;
export const SLIDER_STEP = 25;
export const SLIDER_STOPS = [0, 25, 50, 75, 100] as const;

export function floorTo(value: Big, decimals: number): Big {
  return value.round(decimals, Big.roundDown);
}

export function ceilTo(value: Big, decimals: number): Big {
  return value.round(decimals, Big.roundUp);
}

/** price × quantity, rounded up to 6 decimals; null until both are positive. */
export function orderTotal(price: unknown, quantity: unknown): string | null {
  const p = positive(price);
  const q = positive(quantity);
  if (!p || !q) return null;
  return ceilTo(p.times(q), TOTAL_DECIMALS).toFixed();
}

/**
 * The quantity a slider stop buys: quote balance × percent / price, floored to the quantity
 * decimals. Null when there is no price to divide by (the caller shows spot.notbest).
 */
export function buyQuantityAt(
  quoteBalance: unknown,
  percent: number,
  price: unknown,
  decimals = QUANTITY_DECIMALS,
): string | null {
  const p = positive(price);
  if (!p) return null;
  const balance = toBig(quoteBalance) ?? new Big(0);
  return floorTo(balance.times(percent).div(100).div(p), decimals).toFixed();
}

/** The quantity a slider stop sells: base balance × percent, floored to the quantity decimals. */
export function sellQuantityAt(baseBalance: unknown, percent: number, decimals = QUANTITY_DECIMALS): string {
  const balance = toBig(baseBalance) ?? new Big(0);
  return floorTo(balance.times(percent).div(100), decimals).toFixed();
}

/** Snap any percent to the slider's 25 % stops (0 … 100). */
export function snapPercent(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  const snapped = Math.round(percent / SLIDER_STEP) * SLIDER_STEP;
  return Math.min(100, Math.max(0, snapped));
}
