import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { MemoryStorage } from '@/test/memory-storage';

import { isDone, ORDERS_RELOAD_DELAY_MS, OrdersStore } from '../stores/orders-store';
import { BUY, SELL, type SpotOrder } from '../types';
import { fakeApi, flush, group, order, pair } from './fixtures';

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', new MemoryStorage());
});
afterEach(() => {
  vi.useRealTimers();
});

const page = (rows: SpotOrder[], total = rows.length) => ({ data: rows, total, per_page: 10, last_page: Math.max(1, Math.ceil(total / 10)) });

async function setup(rows: SpotOrder[] = [], total = rows.length) {
  const api = fakeApi([group(10, 'USDT', [pair(1, 'BTC', 'USDT'), pair(2, 'ETH', 'USDT')])]);
  api.orders.mockResolvedValue(page(rows, total));
  const market = new PairMarketStore(api);
  await market.load();
  const changed = vi.fn();
  const orders = new OrdersStore(api, market, changed);
  orders.setEnabled(true);
  await flush();
  return { api, market, orders, changed };
}

describe('OrdersStore', () => {
  it('loads the current pair’s open buys, 10 a page', async () => {
    const { api, orders } = await setup([order(1)], 23);
    expect(api.orders).toHaveBeenLastCalledWith({ view: 'current', way: BUY, page: 1, pairId: 1 }, { quiet: undefined });
    expect(orders.rows).toHaveLength(1);
    expect(orders.lastPage).toBe(3);
  });

  it('switches tabs and pages', async () => {
    const { api, orders } = await setup([order(1)], 23);
    orders.setWay(SELL);
    expect(api.orders).toHaveBeenLastCalledWith({ view: 'current', way: SELL, page: 1, pairId: 1 }, { quiet: undefined });
    orders.setView('all');
    expect(api.orders).toHaveBeenLastCalledWith({ view: 'all', way: SELL, page: 1, pairId: 1 }, { quiet: undefined });
    await flush();
    orders.setPage(3);
    expect(api.orders).toHaveBeenLastCalledWith({ view: 'all', way: SELL, page: 3, pairId: 1 }, { quiet: undefined });
    orders.setView('history');
    expect(api.orders).toHaveBeenLastCalledWith({ view: 'history', way: SELL, page: 1, pairId: 1 }, { quiet: undefined });
  });

  it('adds a submitted order on top of page 1 when the tab matches', async () => {
    const { orders } = await setup([order(1)], 1);
    orders.onSubmitted(order(2, { way: SELL })); // other side
    orders.onSubmitted(order(3, { currency_match_id: 2 })); // other pair in the current-pair view
    expect(orders.rows.map((r) => r.id)).toEqual([1]);
    orders.onSubmitted(order(4));
    expect(orders.rows.map((r) => r.id)).toEqual([4, 1]);
    expect(orders.total).toBe(2);
    expect(orders.rows[0]!.created_at).toBeTruthy();
    orders.onSubmitted(order(4)); // the push after our own answer
    expect(orders.rows.map((r) => r.id)).toEqual([4, 1]);
  });

  it('keeps a page at 10 rows and adds nothing to the history view', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => order(100 - i));
    const { orders } = await setup(ten, 10);
    orders.onSubmitted(order(200));
    expect(orders.rows).toHaveLength(10);
    expect(orders.rows[0]!.id).toBe(200);
    expect(orders.total).toBe(11);
    orders.setView('history');
    await flush();
    orders.onSubmitted(order(201));
    expect(orders.rows.some((r) => r.id === 201)).toBe(false);
  });

  it('updates fills and removes an order once its filled quantity reaches its quantity', async () => {
    const { orders } = await setup([order(1, { number: '2' })]);
    orders.onMatched(order(1, { number: '2', transacted_amount: '0.5', transacted_volume: '50', status: 2 }));
    expect(orders.rows[0]).toMatchObject({ transacted_amount: '0.5', status: 2 });
    orders.onMatched(order(1, { number: '2', transacted_amount: '2', status: 2 }));
    expect(orders.rows).toEqual([]);
    expect(orders.total).toBe(0);
  });

  it('never brings back an order that already left (late answer after the fill push)', async () => {
    const { orders } = await setup();
    orders.onMatched(order(9, { transacted_amount: '1', status: 3 }));
    orders.onSubmitted(order(9));
    expect(orders.rows).toEqual([]);
  });

  it('does not list a new order that was filled at once', async () => {
    const { orders } = await setup();
    orders.onSubmitted(order(9, { transacted_amount: '1', status: 3 }));
    expect(orders.rows).toEqual([]);
  });

  it('cancel removes the row and reloads balances', async () => {
    const { api, orders, changed } = await setup([order(1), order(2, { way: BUY })]);
    await orders.cancel(orders.rows[0]!);
    expect(api.cancelOrder).toHaveBeenCalledWith(BUY, 1);
    expect(orders.rows.map((r) => r.id)).toEqual([2]);
    expect(changed).toHaveBeenCalled();
  });

  it('keeps the row when the cancel fails', async () => {
    const { api, orders } = await setup([order(1)]);
    api.cancelOrder.mockRejectedValue(new Error('Order is not open'));
    await orders.cancel(orders.rows[0]!);
    expect(orders.rows).toHaveLength(1);
    expect(orders.cancelling).toEqual([]);
  });

  it('refills the page from the server when a removal leaves later rows behind', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => order(100 - i));
    const { api, orders } = await setup(ten, 15);
    api.orders.mockClear();
    orders.onMatched(order(100, { transacted_amount: '1', status: 3 }));
    expect(orders.rows).toHaveLength(9);
    await vi.advanceTimersByTimeAsync(ORDERS_RELOAD_DELAY_MS);
    expect(api.orders).toHaveBeenCalledWith({ view: 'current', way: BUY, page: 1, pairId: 1 }, { quiet: true });
  });

  it('reloads the current-pair view on a pair change, not the all view', async () => {
    const { api, market, orders } = await setup();
    api.orders.mockClear();
    market.selectPair(2);
    orders.onPairChanged();
    expect(api.orders).toHaveBeenLastCalledWith({ view: 'current', way: BUY, page: 1, pairId: 2 }, { quiet: undefined });
    orders.setView('all');
    api.orders.mockClear();
    orders.onPairChanged();
    expect(api.orders).not.toHaveBeenCalled();
  });

  it('forgets everything on logout and ignores pushes', async () => {
    const { orders } = await setup([order(1)]);
    orders.setEnabled(false);
    expect(orders.rows).toEqual([]);
    orders.onSubmitted(order(2));
    expect(orders.rows).toEqual([]);
  });

  it('isDone follows filled quantity and final statuses only', () => {
    expect(isDone(order(1, { number: '1', transacted_amount: '0.999999' }))).toBe(false);
    expect(isDone(order(1, { number: '1', transacted_amount: '1.0' }))).toBe(true);
    expect(isDone(order(1, { status: 4 }))).toBe(true);
  });
});
