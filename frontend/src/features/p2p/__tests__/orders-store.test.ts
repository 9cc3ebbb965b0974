import { beforeEach, describe, expect, it } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';

import { createP2pApi } from '../api/p2p-api';
import { OrdersStore } from '../stores/orders-store';
import { detail } from './fixtures';

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
  const page = { list: [detail(1), detail(2)], page: 1, total: 25, limit: 10 };
  transport.answer('legal/orders', page);
  transport.answer('shop/orders', page);
});

describe('OrdersStore', () => {
  it("reads the taker's orders by state and page", async () => {
    const store = new OrdersStore(createP2pApi(transport.api), 'taker');
    store.start();
    await store.orders.load();
    expect(transport.get).toHaveBeenCalledWith('legal/orders', { params: { state: 0, page: 1 }, quiet: true });
    expect(store.orders.data?.list).toHaveLength(2);
    store.setPage(3);
    expect(transport.get).toHaveBeenLastCalledWith('legal/orders', { params: { state: 0, page: 3 }, quiet: true });
    store.setState(2);
    expect(store.page).toBe(1);
    expect(store.orders.data).toBeNull();
    expect(transport.get).toHaveBeenLastCalledWith('legal/orders', { params: { state: 2, page: 1 }, quiet: true });
  });

  it("reads the orders on the merchant's ads from shop/orders, again on a push", async () => {
    const store = new OrdersStore(createP2pApi(transport.api), 'shop');
    await store.orders.load();
    expect(transport.get).toHaveBeenLastCalledWith('shop/orders', { params: { state: 0, page: 1 }, quiet: true });
    store.refresh();
    store.onReconnected();
    expect(transport.get).toHaveBeenCalledTimes(3);
  });
});
