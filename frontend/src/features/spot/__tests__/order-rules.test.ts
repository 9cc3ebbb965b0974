import { describe, expect, it } from 'vitest';

import { checkOrder, type OrderDraft, SELL_BLOCKED_PAIR_ID } from '../lib/order-rules';
import { BUY, SELL } from '../types';

const draft = (over: Partial<OrderDraft> = {}): OrderDraft => ({
  way: BUY,
  mode: 'limit',
  pairId: 1,
  price: '100',
  amount: '0.5',
  bestPrice: '101',
  balance: null,
  ...over,
});

describe('checkOrder (spec §5)', () => {
  it('a limit order needs a price: spot.p_price', () => {
    expect(checkOrder(draft({ price: '' }))).toEqual({ ok: false, error: 'p_price' });
    expect(checkOrder(draft({ price: '0' }))).toEqual({ ok: false, error: 'p_price' });
  });

  it('a market order needs a best price: spot.notbest', () => {
    expect(checkOrder(draft({ mode: 'market', bestPrice: null }))).toEqual({ ok: false, error: 'notbest' });
    expect(checkOrder(draft({ mode: 'market', way: SELL, bestPrice: null }))).toEqual({
      ok: false,
      error: 'notbest',
    });
  });

  it('needs a quantity: spot.p_num', () => {
    expect(checkOrder(draft({ amount: '' }))).toEqual({ ok: false, error: 'p_num' });
    expect(checkOrder(draft({ amount: '0' }))).toEqual({ ok: false, error: 'p_num' });
  });

  it('blocks selling on pair 64: spot.remind (buying is fine)', () => {
    expect(checkOrder(draft({ way: SELL, pairId: SELL_BLOCKED_PAIR_ID }))).toEqual({ ok: false, error: 'remind' });
    expect(checkOrder(draft({ way: BUY, pairId: SELL_BLOCKED_PAIR_ID })).ok).toBe(true);
  });

  it('checks the known balance', () => {
    expect(checkOrder(draft({ balance: '49.99' }))).toEqual({ ok: false, error: 'insufficient' });
    expect(checkOrder(draft({ balance: '50' })).ok).toBe(true);
    expect(checkOrder(draft({ way: SELL, balance: '0.4' }))).toEqual({ ok: false, error: 'insufficient' });
  });

  it('shapes a limit order', () => {
    expect(checkOrder(draft({ price: '68012.5', amount: '0.010000' }))).toEqual({
      ok: true,
      body: { currency_match_id: 1, number: '0.01', price: '68012.5', kind: 'limit' },
    });
  });

  it('a market buy spends the best ask × quantity, rounded up to 6 decimals', () => {
    expect(checkOrder(draft({ mode: 'market', price: '', bestPrice: '0.3333', amount: '0.000001' }))).toEqual({
      ok: true,
      body: { currency_match_id: 1, number: '0.000001', price: '0.3333', kind: 'market', total: '0.000001' },
    });
  });

  it('a market sell sends the quantity at the best bid', () => {
    expect(checkOrder(draft({ mode: 'market', way: SELL, bestPrice: '99', amount: '2' }))).toEqual({
      ok: true,
      body: { currency_match_id: 1, number: '2', price: '99', kind: 'market' },
    });
  });
});
