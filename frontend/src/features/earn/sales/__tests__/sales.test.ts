import { beforeEach, describe, expect, it } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';

import { createSalesApi } from '../api/sales-api';
import { checkSubscription, phaseOf, subscriptionCost, tokensLeft } from '../lib/rules';
import { SalesInfoStore, SalesListStore } from '../stores/sales-stores';
import type { Sale } from '../types';

const sale = (id: number, over: Partial<Sale> = {}): Sale => ({
  id,
  title: `Sale ${id}`,
  logo: '',
  desc: 'A new token',
  status: 0,
  phase: 'open',
  total: '100000',
  btime: 1_772_400_000_000,
  etime: 1_773_000_000_000,
  jindu: '12.5',
  rengou: '0.05',
  huodong: 'NEW',
  jieshou: 'USDT',
  cishu: 3,
  shuliang: '12500',
  per_user_max: '10000',
  mine: null,
  ...over,
});

const groups = [
  { account_code: 'change_account', accounts: [{ currency_code: 'USDT', balance: '5' }] },
  { account_code: 'financial_account', accounts: [{ currency_code: 'USDT', balance: '300' }] },
];

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
  transport.answer('shoufa/index', [sale(1), sale(2, { status: 1, phase: 'allocated' })]);
  transport.answer('shoufa/info', sale(1));
  transport.answer('account/list', groups);
});

describe('token-sale rules', () => {
  it('costs tokens × price in the accepted asset', () => {
    expect(subscriptionCost('2000', '0.05')).toBe('100');
    expect(subscriptionCost('', '0.05')).toBeNull();
  });

  it('counts what the user already asked for against the per-user cap (0: none)', () => {
    expect(tokensLeft('10000', '2500')).toBe('7500');
    expect(tokensLeft('10000', undefined)).toBe('10000');
    expect(tokensLeft('0', '2500')).toBeNull();
  });

  it('refuses a wrong quantity, one over the cap, and one the balance cannot pay', () => {
    const s = sale(1, { mine: { nums: '9000', locked: '450', allocated: '0', cost: '0', refunded: '0', status: 0 } });
    expect(checkSubscription('0', s, '300')).toEqual({ ok: false, problem: { kind: 'quantity' } });
    expect(checkSubscription('1001', s, '300')).toEqual({ ok: false, problem: { kind: 'overMax', left: '1000' } });
    expect(checkSubscription('1000', sale(1), '40')).toEqual({ ok: false, problem: { kind: 'insufficient' } });
    expect(checkSubscription('1000', s, '300')).toEqual({ ok: true, nums: '1000' });
  });

  it('asks for whole multiples of the sale step', () => {
    expect(checkSubscription('25', sale(1, { step: '20' }), '300')).toEqual({ ok: false, problem: { kind: 'step', step: '20' } });
    expect(checkSubscription('40', sale(1, { step: '20' }), '300')).toEqual({ ok: true, nums: '40' });
    expect(checkSubscription('0.5', sale(1, { step: '0' }), '300')).toEqual({ ok: true, nums: '0.5' });
  });

  it("reads a sale's phase, falling back on the spec's status", () => {
    expect(phaseOf({ phase: 'closed', status: 0 })).toBe('closed');
    expect(phaseOf({ phase: undefined as never, status: 0 })).toBe('open');
    expect(phaseOf({ phase: undefined as never, status: 1 })).toBe('allocated');
  });
});

describe('SalesListStore', () => {
  it('lists all (99) first, then the tab chosen', async () => {
    const store = new SalesListStore(createSalesApi(transport.api));
    await store.sales.load();
    expect(transport.get).toHaveBeenCalledWith('shoufa/index', { params: { type: 99 }, quiet: true });
    expect(store.sales.data).toHaveLength(2);
    transport.answer('shoufa/index', [sale(2, { status: 1 })]);
    store.setFilter(1);
    expect(store.sales.data).toBeNull(); // the other tab's cards go at once
    await store.sales.load();
    expect(transport.get).toHaveBeenLastCalledWith('shoufa/index', { params: { type: 1 }, quiet: true });
    expect(store.sales.data?.map((s) => s.id)).toEqual([2]);
  });
});

describe('SalesInfoStore', () => {
  it("reads the sale and the savings account's balance of the accepted asset", async () => {
    const store = new SalesInfoStore(createSalesApi(transport.api), 1, () => true);
    await store.start();
    expect(store.sale.data?.id).toBe(1);
    expect(store.balance).toBe('300');
  });

  it('does not read balances for a visitor', async () => {
    const store = new SalesInfoStore(createSalesApi(transport.api), 1, () => false);
    await store.start();
    expect(transport.get).not.toHaveBeenCalledWith('account/list', expect.anything());
    expect(store.balance).toBeNull();
  });

  it('subscribes a number of tokens and shows the subscription the server answers', async () => {
    const store = new SalesInfoStore(createSalesApi(transport.api), 1, () => true);
    await store.start();
    store.setAmount('2000');
    const mine = { nums: '2000', locked: '100', allocated: '0', cost: '0', refunded: '0', status: 0 };
    transport.answer('shoufa/buy', sale(1, { mine }));
    transport.answer('shoufa/info', sale(1, { mine }));
    expect(await store.submit()).toBe(true);
    expect(transport.post).toHaveBeenCalledWith('shoufa/buy', { id: 1, nums: '2000' }, { loading: true, showMsg: true });
    expect(store.sale.data?.mine?.locked).toBe('100');
    expect(store.amount).toBe('');
  });

  it('shows the wrong-quantity message for 0 and sends nothing', async () => {
    const store = new SalesInfoStore(createSalesApi(transport.api), 1, () => true);
    await store.start();
    store.setAmount('0');
    expect(await store.submit()).toBe(false);
    expect(store.problem).toEqual({ kind: 'quantity' });
    expect(transport.post).not.toHaveBeenCalled();
  });
});
