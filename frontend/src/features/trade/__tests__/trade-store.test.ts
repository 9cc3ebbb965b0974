import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { MemoryStorage } from '@/test/memory-storage';

import { TradeStore } from '../stores/trade-store';
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
  const trade = new TradeStore(api, market);
  trade.setLoggedIn(loggedIn);
  await flush();
  return { api, market, trade };
}

describe('TradeStore form', () => {
  it('loads quote and base balances when logged in', async () => {
    const { trade } = await setup();
    expect(trade.quoteBalance).toBe('1000');
    expect(trade.baseBalance).toBe('2');
  });

  it('cuts typed prices to 4 decimals and quantities to 6', async () => {
    const { trade } = await setup();
    trade.setPrice(BUY, '68012.123456');
    trade.setAmount(BUY, '0.1234567');
    expect(trade.buy.price).toBe('68012.1234');
    expect(trade.buy.amount).toBe('0.123456');
  });

  it('shows the total rounded up to 6 decimals', async () => {
    const { trade } = await setup();
    trade.setPrice(BUY, '0.3333');
    trade.setAmount(BUY, '0.000001');
    expect(trade.total(BUY)).toBe('0.000001');
  });

  it('sizes a buy from the slider: quote balance × percent / price, floored', async () => {
    const { trade } = await setup();
    trade.setPrice(BUY, '3');
    trade.setPercent(BUY, 25);
    expect(trade.buy.amount).toBe('83.333333');
    trade.setPercent(BUY, 60); // snapped to 50
    expect(trade.buy.percent).toBe(50);
    expect(trade.buy.amount).toBe('166.666666');
    trade.setPrice(BUY, '4'); // the slider follows the price
    expect(trade.buy.amount).toBe('125');
  });

  it('sizes a sell from the slider: percent of the base balance', async () => {
    const { trade } = await setup();
    trade.setPrice(SELL, '100');
    trade.setPercent(SELL, 75);
    expect(trade.sell.amount).toBe('1.5');
  });

  it('a slider without a price shows trade.notbest', async () => {
    const { trade } = await setup();
    trade.setPercent(BUY, 50);
    expect(trade.buy.error).toBe('notbest');
    expect(trade.buy.amount).toBe('');
    expect(trade.buy.percent).toBe(0);
  });

  it('in market mode the slider and the order use the best book price', async () => {
    const { api, trade } = await setup();
    trade.setMode('market');
    trade.setPercent(BUY, 100);
    expect(trade.buy.amount).toBe('9.90099'); // 1000 / 101, floored to 6 decimals
    expect(trade.total(BUY)).toBe('999.99999');
    await trade.submit(BUY);
    expect(api.placeOrder).toHaveBeenCalledWith(BUY, {
      currency_match_id: 1,
      number: '9.90099',
      price: '101',
      kind: 'market',
      total: '999.99999',
    });
  });

  it('switching mode clears quantities and sliders', async () => {
    const { trade } = await setup();
    trade.setPrice(BUY, '10');
    trade.setPercent(BUY, 50);
    trade.setAmount(SELL, '1');
    trade.setMode('market');
    expect(trade.buy).toMatchObject({ amount: '', percent: 0, price: '10' });
    expect(trade.sell.amount).toBe('');
  });

  it('a click on the book fills both limit prices (and leaves market mode)', async () => {
    const { trade } = await setup();
    trade.setMode('market');
    trade.fillPrice('101.123456');
    expect(trade.mode).toBe('limit');
    expect(trade.buy.price).toBe('101.1234');
    expect(trade.sell.price).toBe('101.1234');
  });

  it('refuses to send invalid orders, with the spec message keys', async () => {
    const { api, market, trade } = await setup();
    await trade.submit(BUY);
    expect(trade.buy.error).toBe('p_price');
    trade.setPrice(BUY, '100');
    await trade.submit(BUY);
    expect(trade.buy.error).toBe('p_num');
    trade.setMode('market');
    market.onDepth({ type: 'market_depth', symbol: 'BTC/USDT', currency_match_id: 1, depth: { seq: 2, in: [], out: [] } });
    trade.setAmount(SELL, '1');
    await trade.submit(SELL);
    expect(trade.sell.error).toBe('notbest');
    expect(api.placeOrder).not.toHaveBeenCalled();
  });

  it('blocks selling on pair 64 with trade.remind', async () => {
    const { api, market, trade } = await setup();
    market.selectPair(64);
    await flush();
    trade.setPrice(SELL, '1');
    trade.setAmount(SELL, '1');
    await trade.submit(SELL);
    expect(trade.sell.error).toBe('remind');
    expect(api.placeOrder).not.toHaveBeenCalled();
  });

  it('places a limit order, clears the quantity and lists it on top', async () => {
    const { api, trade } = await setup();
    trade.setPrice(BUY, '100');
    trade.setAmount(BUY, '0.5');
    expect(await trade.submit(BUY)).toBe(true);
    expect(api.placeOrder).toHaveBeenCalledWith(BUY, {
      currency_match_id: 1,
      number: '0.5',
      price: '100',
      kind: 'limit',
    });
    expect(trade.buy.amount).toBe('');
    expect(trade.buy.price).toBe('100');
    expect(trade.orders.rows.map((r) => r.id)).toEqual([500]);
    api.balance.mockClear();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.balance).toHaveBeenCalled(); // balances reload after an order
  });

  it('keeps the form when the server refuses the order', async () => {
    const { api, trade } = await setup();
    api.placeOrder.mockRejectedValue(new Error('Insufficient balance'));
    trade.setPrice(BUY, '100');
    trade.setAmount(BUY, '0.5');
    expect(await trade.submit(BUY)).toBe(false);
    expect(trade.buy.amount).toBe('0.5');
    expect(trade.buy.submitting).toBe(false);
  });

  it('visitors cannot submit and have no balances', async () => {
    const { api, trade } = await setup({ loggedIn: false });
    trade.setPrice(BUY, '100');
    trade.setAmount(BUY, '1');
    expect(await trade.submit(BUY)).toBe(false);
    expect(api.placeOrder).not.toHaveBeenCalled();
    expect(api.balance).not.toHaveBeenCalled();
    expect(trade.quoteBalance).toBeNull();
  });

  it('a pair change clears the forms and reloads balances', async () => {
    const { api, market, trade } = await setup();
    trade.setPrice(BUY, '100');
    api.balance.mockClear();
    market.selectPair(64);
    trade.onPairChanged();
    await flush();
    expect(trade.buy.price).toBe('');
    expect(api.balance).toHaveBeenCalledWith(acb.quote_currency_id);
    expect(api.balance).toHaveBeenCalledWith(acb.base_currency_id);
  });
});
