/**
 * Checks a spot order before it is sent (spec trading §5) and shapes the request body.
 * Errors are keys of the `spot` translation namespace.
 */
import { positive, toBig } from '@/lib/format';

import { BUY, SELL, type Way } from '../types';
import { ceilTo, TOTAL_DECIMALS } from './money';

/** Selling on this pair is blocked (spec §9; the server refuses it too). */
export const SELL_BLOCKED_PAIR_ID = 64;

export type OrderMode = 'limit' | 'market';

export type OrderError = 'remind' | 'p_price' | 'notbest' | 'p_num' | 'insufficient';

export interface OrderDraft {
  way: Way;
  mode: OrderMode;
  pairId: number;
  /** Typed limit price. */
  price: string;
  amount: string;
  /** Best book price on the side the order takes: lowest ask for a buy, highest bid for a sell. */
  bestPrice: string | null;
  /** Spendable balance: quote for a buy, base for a sell; null while unknown (not checked). */
  balance: string | null;
}

export interface OrderBody {
  currency_match_id: number;
  number: string;
  price: string;
  kind: OrderMode;
  /** A market buy spends this much quote (best price × quantity, rounded up). */
  total?: string;
}

export type OrderCheck = { ok: true; body: OrderBody } | { ok: false; error: OrderError };

export function checkOrder(d: OrderDraft): OrderCheck {
  if (d.way === SELL && d.pairId === SELL_BLOCKED_PAIR_ID) return { ok: false, error: 'remind' };
  const price = d.mode === 'limit' ? positive(d.price) : positive(d.bestPrice);
  if (!price) return { ok: false, error: d.mode === 'limit' ? 'p_price' : 'notbest' };
  const amount = positive(d.amount);
  if (!amount) return { ok: false, error: 'p_num' };

  const total = ceilTo(price.times(amount), TOTAL_DECIMALS);
  const balance = toBig(d.balance);
  if (balance) {
    // A limit buy holds price × quantity exactly; a market buy holds its rounded-up total.
    const needed = d.way === BUY ? (d.mode === 'market' ? total : price.times(amount)) : amount;
    if (needed.gt(balance)) return { ok: false, error: 'insufficient' };
  }

  const body: OrderBody = {
    currency_match_id: d.pairId,
    number: amount.toFixed(),
    price: price.toFixed(),
    kind: d.mode,
  };
  if (d.mode === 'market' && d.way === BUY) body.total = total.toFixed();
  return { ok: true, body };
}
