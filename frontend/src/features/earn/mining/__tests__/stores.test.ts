import { beforeEach, describe, expect, it } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';

import { createMiningApi } from '../api/mining-api';
import { MiningInfoStore, MiningListStore, MiningOrdersStore } from '../stores/mining-stores';
import { detail, order, product, summary } from './fixtures';

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
  transport.answer('mining/index', { list: [product(1), product(2, { penalty_rate: '0.5' })], info: summary });
  transport.answer('mining/info', detail());
});

describe('MiningListStore', () => {
  it('reads the products and the summary', async () => {
    const store = new MiningListStore(createMiningApi(transport.api));
    await store.index.load();
    expect(store.index.data?.list).toHaveLength(2);
    expect(store.index.data?.info.total).toBe('1000');
  });
});

describe('MiningInfoStore', () => {
  async function opened() {
    const store = new MiningInfoStore(createMiningApi(transport.api), 1);
    await store.detail.load();
    return store;
  }

  it('fills All with the balance of the selected asset', async () => {
    const store = await opened();
    store.fillAll();
    expect(store.amount).toBe('1500.5');
    store.setType(2);
    store.fillAll();
    expect(store.amount).toBe('20');
  });

  it('refuses an amount below the minimum here, with the number, and sends nothing', async () => {
    const store = await opened();
    store.setAmount('50');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toEqual({ kind: 'min', limit: '100' });
    expect(transport.post).not.toHaveBeenCalled();
    store.setAmount('6000');
    transport.answer('mining/info', detail({ money: '10000' }));
    await store.detail.load();
    await store.submit();
    expect(store.problem).toEqual({ kind: 'max', limit: '5000' });
  });

  it('subscribes with id, nums and type, then reads the balances again', async () => {
    const store = await opened();
    store.setAmount('1000');
    transport.answer('mining/buy', order(9));
    transport.answer('mining/info', detail({ money: '500.5' }));
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith('mining/buy', { id: 1, nums: '1000', type: 1 }, { loading: true, showMsg: true });
    expect(store.amount).toBe('');
    expect(store.balance).toBe('500.5');
  });
});

describe('MiningOrdersStore', () => {
  it('reads in-progress orders first, the ended tab from its first page', async () => {
    transport.answer('mining/orders', { list: [order(1)], info: summary, page: 3 });
    const store = new MiningOrdersStore(createMiningApi(transport.api));
    store.start();
    await store.orders.load();
    expect(transport.get).toHaveBeenCalledWith('mining/orders', { params: { page: 1, type: 0 }, quiet: true });
    expect(store.pages).toBe(3);
    store.setPage(2);
    expect(transport.get).toHaveBeenLastCalledWith('mining/orders', { params: { page: 2, type: 0 }, quiet: true });
    store.setTab(1);
    expect(store.page).toBe(1);
    expect(transport.get).toHaveBeenLastCalledWith('mining/orders', { params: { page: 1, type: 1 }, quiet: true });
  });

  it("shows the penalty from the order's own ratio, else its product's", async () => {
    const store = new MiningOrdersStore(createMiningApi(transport.api));
    await store.products.load();
    expect(store.penaltyOf(order(1))).toBe('12');
    expect(store.penaltyOf(order(1, { product_id: 2 }))).toBe('15');
    expect(store.penaltyOf(order(1, { product_id: 2, penalty_rate: '0.4' }))).toBe('12');
  });

  it('cancels an order only after the confirmation, then reads the page again', async () => {
    transport.answer('mining/orders', { list: [order(1)], info: summary, page: 1 });
    const store = new MiningOrdersStore(createMiningApi(transport.api));
    await store.orders.load();
    store.ask(store.orders.data!.list[0]!);
    expect(transport.post).not.toHaveBeenCalled();
    transport.answer('mining/cancel', { id: 1, penalty: '12', returned: '988' });
    transport.answer('mining/orders', { list: [], info: summary, page: 1 });
    expect(await store.confirm()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith('mining/cancel', { id: 1 }, { loading: true, showMsg: true });
    expect(store.cancelling).toBeNull();
    expect(store.orders.data?.list).toEqual([]);
  });
});
