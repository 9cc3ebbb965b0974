import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { MarketsStore } from '../stores/markets-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

const pair = (id: number, symbol: string, extra: object = {}) => ({
  id, symbol, open_change: true, sell_disabled: false, open_lever: true, open_microtrade: false,
  maker_fee: '0.001', taker_fee: '0.002', max_price: '1000000', max_quantity: '10000', min_notional: '5',
  price_band: '0.1', impact_notional: '1000', max_open_orders: 200, price_decimals: 2, qty_decimals: 4, quote: 'USDT',
  lever_share_num: '0.01', lever_fee_rate: '0.001', lever_point_rate: '0.05', lever_overnight_rate: '0.0005',
  lever_max_exposure: '10000000', lever_multiples: '5,10,20', lever_shares: '1,2,5', lever_max_hands: 100,
  micro_seconds: '30:80,60:85', micro_fee_rate: '0', micro_max_exposure: '100000', ...extra,
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

  it("edits a pair's mark impact notional in the fees-and-bounds form", async () => {
    fake.answer('pairs/update', (body: unknown) => ({ ...pair(1, 'BTC/USDT'), ...(body as object), applied_live: true }));
    const store = await loaded();
    store.edit(store.pairs.data![0]!);
    expect(store.fields).toContain('impact_notional');
    expect(store.draft?.impact_notional).toBe('1000');
    store.change('impact_notional', '25000');
    expect(await store.save('deeper book')).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('pairs/update', { id: 1, impact_notional: '25000', reason: 'deeper book' });
    expect(store.pairs.data?.[0]?.impact_notional).toBe('25000');
  });

  it('sends lever terms to pairs/lever, only those changed, the hands as a number', async () => {
    fake.answer('pairs/lever', (body: unknown) => ({ ...pair(1, 'BTC/USDT'), ...(body as object), applied_live: true }));
    const store = await loaded();
    store.edit(store.pairs.data![0]!, 'lever');
    expect(store.section).toBe('lever');
    expect(store.fields).toContain('lever_fee_rate');
    expect(store.fields).not.toContain('taker_fee');
    expect(store.draft?.lever_multiples).toBe('5,10,20');
    store.change('lever_fee_rate', '0.002');
    store.change('lever_max_hands', '50');
    store.change('lever_multiples', '5,10,20'); // as it was
    expect(await store.save('fee review')).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('pairs/lever', { id: 1, lever_fee_rate: '0.002', lever_max_hands: 50, reason: 'fee review' });
    expect(store.pairs.data?.[0]?.lever_fee_rate).toBe('0.002');
    expect(store.stateOf(1)).toBe('saved');
    expect(store.lastSection.get(1)).toBe('lever');
  });

  it('sends second-contract terms to pairs/micro and says when a shard takes them later', async () => {
    fake.answer('pairs/micro', (body: unknown) => ({ ...pair(2, 'ETH/USDT'), ...(body as object), applied_live: false }));
    const store = await loaded();
    store.edit(store.pairs.data![1]!, 'micro');
    store.change('micro_seconds', '30:82,60:85');
    expect(store.changes).toEqual({ micro_seconds: '30:82,60:85' });
    expect(await store.save('promotion')).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('pairs/micro', { id: 2, micro_seconds: '30:82,60:85', reason: 'promotion' });
    expect(store.stateOf(2)).toBe('saved_later');
    expect(store.lastSection.get(2)).toBe('micro');
  });

  it('switches lever and second contracts through their own routes', async () => {
    fake.answer('pairs/lever', { ...pair(1, 'BTC/USDT', { open_lever: false }), applied_live: true });
    fake.answer('pairs/micro', { ...pair(1, 'BTC/USDT', { open_lever: false, open_microtrade: true }), applied_live: true });
    const store = await loaded();
    expect(await store.toggle(1, 'open_lever', false, 'risk review')).toBe(true);
    expect(fake.post).toHaveBeenLastCalledWith('pairs/lever', { id: 1, open_lever: false, reason: 'risk review' });
    expect(store.pairs.data?.[0]?.open_lever).toBe(false);
    expect(await store.toggle(1, 'open_microtrade', true, 'launch')).toBe(true);
    expect(fake.post).toHaveBeenLastCalledWith('pairs/micro', { id: 1, open_microtrade: true, reason: 'launch' });
    expect(store.pairs.data?.[0]?.open_microtrade).toBe(true);
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
