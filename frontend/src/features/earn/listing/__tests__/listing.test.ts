import { beforeEach, describe, expect, it } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';

import { createListingApi } from '../api/listing-api';
import { checkApplication } from '../lib/rules';
import { ListingInfoStore, ListingListStore, ListingOrdersStore } from '../stores/listing-stores';
import type { ListingApplication, ListingProject } from '../types';

const project = (id: number, over: Partial<ListingProject> = {}): ListingProject => ({
  id,
  title: `Project ${id}`,
  desc: 'Listing soon',
  status: 1,
  bizhong: 'LST',
  total: '1000000',
  shengyu: '400000',
  radio: '60',
  price: '0.1',
  btime: 1_772_400_000_000,
  etime: 1_773_000_000_000,
  online: 1_773_600_000_000,
  lock_days: 7,
  money: '250.75',
  ...over,
});

const application = (id: number): ListingApplication => ({
  id,
  times: 1_772_500_000_000,
  bizhong: 'LST',
  total: '100',
  nums: '0',
  won_usdt: '0',
  online: 1_773_600_000_000,
  status: 0,
  release_ms: 1_773_100_000_000,
  released: false,
});

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
  transport.answer('listing/index', { list: [project(1)], nums: 2 });
  transport.answer('listing/info', project(1));
});

describe('listing application rule (spec §5)', () => {
  it('shows the no-funds message for 0 or less, insufficient balance above the balance', () => {
    expect(checkApplication('', '100')).toEqual({ ok: false, problem: 'noFunds' });
    expect(checkApplication('0', '100')).toEqual({ ok: false, problem: 'noFunds' });
    expect(checkApplication('100.01', '100')).toEqual({ ok: false, problem: 'insufficient' });
    expect(checkApplication('100', '100')).toEqual({ ok: true, nums: '100' });
  });
});

describe('ListingListStore', () => {
  it("reads the projects and the user's application count", async () => {
    const store = new ListingListStore(createListingApi(transport.api));
    await store.index.load();
    expect(store.index.data?.nums).toBe(2);
    expect(store.index.data?.list[0]?.radio).toBe('60');
  });
});

describe('ListingInfoStore', () => {
  it('fills All with the savings USDT and applies with it', async () => {
    const store = new ListingInfoStore(createListingApi(transport.api), 1);
    await store.project.load();
    store.fillAll();
    expect(store.amount).toBe('250.75');
    transport.answer('listing/buy', application(5));
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith('listing/buy', { id: 1, nums: '250.75' }, { loading: true, showMsg: true });
  });

  it('sends nothing for an amount of 0', async () => {
    const store = new ListingInfoStore(createListingApi(transport.api), 1);
    await store.project.load();
    store.setAmount('0');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toBe('noFunds');
    expect(transport.post).not.toHaveBeenCalled();
  });
});

describe('ListingOrdersStore', () => {
  it('reads the records page by page', async () => {
    transport.answer('listing/orders', { list: [application(1)], total: 11, page: 2 });
    const store = new ListingOrdersStore(createListingApi(transport.api));
    await store.orders.load();
    expect(transport.get).toHaveBeenCalledWith('listing/orders', { params: { page: 1 }, quiet: true });
    store.setPage(2);
    expect(transport.get).toHaveBeenLastCalledWith('listing/orders', { params: { page: 2 }, quiet: true });
  });
});
