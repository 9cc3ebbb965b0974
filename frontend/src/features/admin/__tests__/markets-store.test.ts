import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { MarketsStore } from '../stores/markets-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

const pair = (id: number, symbol: string, extra: object = {}) => ({
  id, symbol, open_change: true, sell_disabled: false, open_lever: true, open_microtrade: false,
  maker_fee: '0.001', taker_fee: '0.002', max_price: '1000000', max_quantity: '10000', min_notional: '5',
  price_band: '0.1', max_open_orders: 200, price_decimals: 2, qty_decimals: 4, ...extra,
}); // prettier-ignore

beforeEach(() => {
  fake = fakeAdmin();
  fake.answer('pairs', [pair(1, 'BTC/USDT'), pair(2, 'ETH/USDT')]);
});

async function loaded(): Promise<MarketsStore> {
  const store = new MarketsStore(fake.api);
  await store.pairs.load();
  return store;
}

describe('MarketsStore', () => {
  it('reads the pairs', async () => {
    const store = await loaded();
    expect(fake.get).toHaveBeenCalledWith('pairs');
    expect(store.pairs.data?.map((p) => p.symbol)).toEqual(['BTC/USDT', 'ETH/USDT']);
  });

  it('closes ETH/USDT with the reason and shows the server answer in the row', async () => {
    fake.answer('pairs/update', { ...pair(2, 'ETH/USDT', { open_change: false }), applied_live: true });
    const store = await loaded();
    const sent = store.toggle(2, 'open_change', false, 'exchange maintenance');
    expect(store.stateOf(2)).toBe('sending');
    expect(await sent).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('pairs/update', { id: 2, open_change: false, reason: 'exchange maintenance' });
    expect(store.pairs.data?.find((p) => p.id === 2)?.open_change).toBe(false);
    expect(store.pairs.data?.find((p) => p.id === 1)?.open_change).toBe(true);
    expect(store.stateOf(2)).toBe('saved');
    expect(store.pairs.data?.find((p) => p.id === 2)).not.toHaveProperty('applied_live');
  });

  it('says when a pair without a running actor takes the change only at its next start', async () => {
    fake.answer('pairs/update', { ...pair(1, 'BTC/USDT', { sell_disabled: true }), applied_live: false });
    const store = await loaded();
    await store.toggle(1, 'sell_disabled', true, 'sell side paused');
    expect(fake.post).toHaveBeenCalledWith('pairs/update', { id: 1, sell_disabled: true, reason: 'sell side paused' });
    expect(store.stateOf(1)).toBe('saved_later');
  });

  it('sends only the changed fields plus the reason', async () => {
    fake.answer('pairs/update', (body: unknown) => ({ ...pair(2, 'ETH/USDT'), ...(body as object), applied_live: true }));
    const store = await loaded();
    store.edit(store.pairs.data![1]!);
    expect(store.changes).toEqual({});
    expect(await store.save('nothing')).toBe(false);
    expect(fake.post).not.toHaveBeenCalled();
    store.change('taker_fee', ' 0.0015 ');
    store.change('max_open_orders', '50');
    store.change('maker_fee', '0.001'); // as it was
    expect(await store.save('promotion')).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('pairs/update', { id: 2, taker_fee: '0.0015', max_open_orders: 50, reason: 'promotion' });
    expect(store.editingId).toBeNull();
    const row = store.pairs.data?.find((p) => p.id === 2);
    expect([row?.taker_fee, row?.max_open_orders]).toEqual(['0.0015', 50]);
  });

  it("keeps the server's message and the form when it refuses", async () => {
    fake.answer('pairs/update', new ApiError('Invalid parameters', 'business', { code: 0 }));
    const store = await loaded();
    store.edit(store.pairs.data![0]!);
    store.change('taker_fee', '0.5');
    expect(await store.save('typo')).toBe(false);
    expect(store.errors.get(1)).toBe('Invalid parameters');
    expect(store.stateOf(1)).toBe('failed');
    expect(store.editingId).toBe(1);
    expect(store.draft?.taker_fee).toBe('0.5');
    expect(store.pairs.data?.[0]?.taker_fee).toBe('0.002'); // the row keeps what the server holds
    expect(await store.toggle(1, 'open_change', false, 'x')).toBe(false);
    expect(store.errors.get(1)).toBe('Invalid parameters');
  });
});
