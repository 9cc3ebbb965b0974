import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { fakeTransport } from '@/test/fake-transport';

import { createLockApi } from '../api/lock-api';
import { LockStore, lockBlock } from '../stores/lock-store';
import type { LockOrder, LockProduct } from '../types';

const product = (id: number, over: Partial<LockProduct> = {}): LockProduct => ({
  id,
  name: `USDT ${id * 30} days`,
  limit_days: id * 30,
  display_rate: '8.5',
  limit_number: '100',
  currency: { code: 'USDT' },
  quota_lots: 0,
  sold_lots: 0,
  open: true,
  ...over,
});

const lock = (id: number): LockOrder => ({
  id,
  product_id: 1,
  name: 'USDT 30 days',
  currency_code: 'USDT',
  amount: '100',
  display_rate: '8.5',
  limit_days: 30,
  start: '2026-03-02',
  maturity: '2026-03-31',
  accrued: '0',
  expected: '0.69863',
  days_booked: 0,
  status: 0,
  created_at: 1_772_400_000_000,
});

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
  transport.answer('storage_currency/lock_list', [product(1), product(2)]);
  transport.answer('storage_currency/current_setting', []);
});

describe('LockStore', () => {
  it('lists 30 products for everyone and reads the locks only of a logged-in user', async () => {
    const visitor = new LockStore(createLockApi(transport.api), () => false);
    visitor.start();
    await visitor.products.load();
    expect(transport.get).toHaveBeenCalledWith('storage_currency/lock_list', { params: { limit: 30 }, quiet: true });
    expect(transport.get).not.toHaveBeenCalledWith('storage_currency/current_setting', expect.anything());
    expect(visitor.products.data?.map((p) => p.id)).toEqual([1, 2]);
  });

  it('locks one lot of the product only after the confirmation, then reads both lists again', async () => {
    const store = new LockStore(createLockApi(transport.api), () => true);
    store.start();
    await store.products.load();
    transport.answer('storage_currency/submit_lock', lock(7));
    transport.answer('storage_currency/current_setting', [lock(7)]);

    store.ask(store.products.data![0]!);
    expect(transport.post).not.toHaveBeenCalled();
    expect(await store.confirm()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith('storage_currency/submit_lock', { id: 1 }, { loading: true, showMsg: true });
    expect(store.confirming).toBeNull();
    expect(store.locks.data?.map((l) => l.id)).toEqual([7]);
  });

  it('keeps the prompt open when the server refuses (its message is shown by the client)', async () => {
    const store = new LockStore(createLockApi(transport.api), () => true);
    transport.answer('storage_currency/submit_lock', new ApiError('Insufficient balance', 'business', { code: 0 }));
    store.ask(product(1));
    expect(await store.confirm()).toBe(false);
    expect(store.confirming?.id).toBe(1);
    expect(store.busy).toBe(false);
    store.dismiss();
    expect(store.confirming).toBeNull();
  });

  it('does not offer a closed or sold-out product', () => {
    expect(lockBlock(product(1, { open: false }))).toBe('closed');
    expect(lockBlock(product(1, { quota_lots: 10, sold_lots: 10 }))).toBe('soldOut');
    expect(lockBlock(product(1, { quota_lots: 10, sold_lots: 9 }))).toBeNull();
    const store = new LockStore(createLockApi(transport.api), () => true);
    store.ask(product(1, { open: 0 }));
    expect(store.confirming).toBeNull();
  });
});
