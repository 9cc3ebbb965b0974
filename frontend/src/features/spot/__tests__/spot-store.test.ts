import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { MemoryStorage } from '@/test/memory-storage';

import { SpotStore } from '../stores/spot-store';
import { BUY, SELL } from '../types';
import { deal, fakeApi, flush, group, pair } from './fixtures';

const btc = pair(1, 'BTC', 'USDT');
const acb = pair(64, 'ACB', 'USDT');

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', new MemoryStorage());
});
afterEach(() => {
  vi.useRealTimers();
});

async function setup({ loggedIn = true, dealSeq = 1 } = {}) {
  const api = fakeApi([group(10, 'USDT', [{ ...btc }, { ...acb }])]);
  api.deal.mockResolvedValue(deal(dealSeq)); // best bid 99, best ask 101
  const market = new PairMarketStore(api);
  await market.load();
  const spot = new SpotStore(api, market);
  spot.setLoggedIn(loggedIn);
  await flush();
  return { api, market, spot };
}

describe('SpotStore form', () => {
  it('loads quote and base balances when logged in', async () => {
    const { spot } = await setup();
    expect(spot.quoteBalance).toBe('1000');
    expect(spot.baseBalance).toBe('2');
  });

  it('cuts typed prices to 4 decimals and quantities to 6', async () => {
    const { spot } = await setup();
    spot.setPrice(BUY, '68012.123456');
    spot.setAmount(BUY, '0.1234567');
    expect(spot.buy.price).toBe('68012.1234');
    expect(spot.buy.amount).toBe('0.123456');
  });

  it('shows the total rounded up to 6 decimals', async () => {
    const { spot } = await setup();
    spot.setPrice(BUY, '0.3333');
    spot.setAmount(BUY, '0.000001');
    expect(spot.total(BUY)).toBe('0.000001');
  });

  it('sizes a buy from the slider: quote balance × percent / price, floored', async () => {
    const { spot } = await setup();
    spot.setPrice(BUY, '3');
    spot.setPercent(BUY, 25);
    expect(spot.buy.amount).toBe('83.333333');
    spot.setPercent(BUY, 60); // snapped to 50
    expect(spot.buy.percent).toBe(50);
    expect(spot.buy.amount).toBe('166.666666');
    spot.setPrice(BUY, '4'); // the slider follows the price
    expect(spot.buy.amount).toBe('125');
  });

  it('sizes a sell from the slider: percent of the base balance', async () => {
    const { spot } = await setup();
    spot.setPrice(SELL, '100');
    spot.setPercent(SELL, 75);
    expect(spot.sell.amount).toBe('1.5');
  });

  it('a slider without a price shows spot.notbest', async () => {
    const { spot } = await setup();
    spot.setPercent(BUY, 50);
    expect(spot.buy.error).toBe('notbest');
    expect(spot.buy.amount).toBe('');
    expect(spot.buy.percent).toBe(0);
  });

  it('in market mode the slider and the order use the best book price', async () => {
    const { api, spot } = await setup();
    spot.setMode('market');
    spot.setPercent(BUY, 100);
    expect(spot.buy.amount).toBe('9.90099'); // 1000 / 101, floored to 6 decimals
    expect(spot.total(BUY)).toBe('999.99999');
    await spot.submit(BUY);
    expect(api.placeOrder).toHaveBeenCalledWith(BUY, {
      currency_match_id: 1,
      number: '9.90099',
      price: '101',
      kind: 'market',
      total: '999.99999',
    });
  });

  it('switching mode clears quantities and sliders', async () => {
    const { spot } = await setup();
    spot.setPrice(BUY, '10');
    spot.setPercent(BUY, 50);
    spot.setAmount(SELL, '1');
    spot.setMode('market');
    expect(spot.buy).toMatchObject({ amount: '', percent: 0, price: '10' });
    expect(spot.sell.amount).toBe('');
  });

  it('a click on the book fills both limit prices (and leaves market mode)', async () => {
    const { spot } = await setup();
    spot.setMode('market');
    spot.fillPrice('101.123456');
    expect(spot.mode).toBe('limit');
    expect(spot.buy.price).toBe('101.1234');
    expect(spot.sell.price).toBe('101.1234');
  });

  it('refuses to send invalid orders, with the spec message keys', async () => {
    const { api, market, spot } = await setup();
    await spot.submit(BUY);
    expect(spot.buy.error).toBe('p_price');
    spot.setPrice(BUY, '100');
    await spot.submit(BUY);
    expect(spot.buy.error).toBe('p_num');
    spot.setMode('market');
    market.onDepth({ type: 'market_depth', symbol: 'BTC/USDT', currency_match_id: 1, depth: { seq: 2, in: [], out: [] } });
    spot.setAmount(SELL, '1');
    await spot.submit(SELL);
    expect(spot.sell.error).toBe('notbest');
    expect(api.placeOrder).not.toHaveBeenCalled();
  });

  it('blocks selling on pair 64 with spot.remind', async () => {
    const { api, market, spot } = await setup();
    market.selectPair(64);
    await flush();
    spot.setPrice(SELL, '1');
    spot.setAmount(SELL, '1');
    await spot.submit(SELL);
    expect(spot.sell.error).toBe('remind');
    expect(api.placeOrder).not.toHaveBeenCalled();
  });

  it('places a limit order, clears the quantity and lists it on top', async () => {
    const { api, spot } = await setup();
    spot.setPrice(BUY, '100');
    spot.setAmount(BUY, '0.5');
    expect(await spot.submit(BUY)).toBe(true);
    expect(api.placeOrder).toHaveBeenCalledWith(BUY, {
      currency_match_id: 1,
      number: '0.5',
      price: '100',
      kind: 'limit',
    });
    expect(spot.buy.amount).toBe('');
    expect(spot.buy.price).toBe('100');
    expect(spot.orders.rows.map((r) => r.id)).toEqual([500]);
    api.balance.mockClear();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.balance).toHaveBeenCalled(); // balances reload after an order
  });

  it('keeps the form when the server refuses the order', async () => {
    const { api, spot } = await setup();
    api.placeOrder.mockRejectedValue(new Error('Insufficient balance'));
    spot.setPrice(BUY, '100');
    spot.setAmount(BUY, '0.5');
    expect(await spot.submit(BUY)).toBe(false);
    expect(spot.buy.amount).toBe('0.5');
    expect(spot.buy.submitting).toBe(false);
  });

  it('visitors cannot submit and have no balances', async () => {
    const { api, spot } = await setup({ loggedIn: false });
    spot.setPrice(BUY, '100');
    spot.setAmount(BUY, '1');
    expect(await spot.submit(BUY)).toBe(false);
    expect(api.placeOrder).not.toHaveBeenCalled();
    expect(api.balance).not.toHaveBeenCalled();
    expect(spot.quoteBalance).toBeNull();
  });

  it('a pair change clears the forms and reloads balances', async () => {
    const { api, market, spot } = await setup();
    spot.setPrice(BUY, '100');
    api.balance.mockClear();
    market.selectPair(64);
    spot.onPairChanged();
    await flush();
    expect(spot.buy.price).toBe('');
    expect(api.balance).toHaveBeenCalledWith(acb.quote_currency_id);
    expect(api.balance).toHaveBeenCalledWith(acb.base_currency_id);
  });
});
