/**
 * What the fee page shows, free of React and MobX: the schedule rows from the API's answers and the
 * spec's fee illustration (shell §9: 0.3 % and 0.4 % on 10,000 USDT). Money is big.js on decimal
 * strings, never floats.
 */
import Big from 'big.js';

import type { Pair, QuoteGroup } from '@/components/market/types';
import { feePercent, toBig } from '@/lib/format';

import type { FeeCurrency } from '../types';

/** The spec's illustration, in one place: a fee of each rate on this amount. */
export const FEE_ILLUSTRATION = { amount: '10000', currency: 'USDT', rates: ['0.003', '0.004'] } as const;

export interface IllustrationRow {
  /** The rate as a fraction ("0.003") and in percent ("0.3"). */
  rate: string;
  percent: string;
  /** amount × rate, and what is left of the amount after it. */
  fee: string;
  rest: string;
}

/** The fee of each rate on `amount`: `10000` at `0.003` is a fee of `30`, leaving `9970`. */
export function illustrate(
  amount: string = FEE_ILLUSTRATION.amount,
  rates: readonly string[] = FEE_ILLUSTRATION.rates,
): IllustrationRow[] {
  const value = new Big(amount);
  return rates.map((rate) => {
    const fee = value.times(rate);
    return { rate, percent: feePercent(rate), fee: fee.toFixed(), rest: value.minus(fee).toFixed() };
  });
}

export interface PairFees {
  id: number;
  symbol: string;
  /** Spot fees in percent, null when the pair is not traded on the spot page. */
  maker: string | null;
  taker: string | null;
  /** The lever fee in percent, null when the pair offers no leveraged contracts. */
  lever: string | null;
}

const percentOf = (rate: unknown) => (toBig(rate) ? feePercent(rate) : null);

function pairFees(pair: Pair): PairFees {
  const spot = Number(pair.open_change) === 1;
  return {
    id: pair.id,
    symbol: pair.symbol,
    maker: spot ? percentOf(pair.maker_fee) : null,
    taker: spot ? percentOf(pair.taker_fee) : null,
    lever: Number(pair.open_lever) === 1 ? percentOf(pair.lever_fee_rate) : null,
  };
}

/** Every pair open on the spot page or for leveraged contracts, in the server's order (quote group, then pair). */
export function tradingFees(groups: readonly QuoteGroup[]): PairFees[] {
  return groups
    .flatMap((g) => g.matches)
    .map(pairFees)
    .filter((p) => p.maker !== null || p.taker !== null || p.lever !== null);
}

export interface WithdrawFees {
  code: string;
  open: boolean;
  percent: string;
  min: string;
  max: string;
}

/** Each currency's withdrawal fee (percent of the amount) and bounds, in the server's order. */
export function withdrawFees(currencies: readonly FeeCurrency[]): WithdrawFees[] {
  return currencies.map((c) => ({
    code: c.code,
    open: Number(c.open_draw) === 1,
    percent: feePercent(c.draw_rate),
    min: c.draw_min,
    max: c.draw_max,
  }));
}
