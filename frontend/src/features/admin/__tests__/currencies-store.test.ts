import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { CurrenciesStore } from '../stores/currencies-store';
import { fakeAdmin } from './fake-admin';

let fake: ReturnType<typeof fakeAdmin>;

const currency = (id: number, code: string, extra: object = {}) => ({
  id, code, name: code, decimals: 6, open_recharge: true, open_draw: true, draw_rate: '0.001', draw_min: '10',
  draw_max: '0', recharge_min: '1', confirmations: 1, micro_numbers: '10,50,100', micro_min: '1',
  micro_max: '10000', micro_max_open: '50000', max_amount: '1000000000', stake: true, ...extra,
}); // prettier-ignore

beforeEach(() => {
  fake = fakeAdmin();
  fake.answer('currencies', [currency(1, 'USDT'), currency(2, 'BTC', { micro_numbers: '', decimals: 8 })]);
});

async function loaded(): Promise<CurrenciesStore> {
  const store = new CurrenciesStore(fake.api);
  await store.currencies.load();
  return store;
}

describe('CurrenciesStore', () => {
  it('reads the currencies', async () => {
    const store = await loaded();
    expect(fake.get).toHaveBeenCalledWith('currencies');
    expect(store.currencies.data?.map((c) => c.code)).toEqual(['USDT', 'BTC']);
  });

  it('closes BTC withdrawals with the reason and shows the answer in the row', async () => {
    fake.answer('currencies/update', { ...currency(2, 'BTC', { open_draw: false }), applied_live: true });
    const store = await loaded();
    const sent = store.toggle(2, 'open_draw', false, 'wallet maintenance');
    expect(store.stateOf(2)).toBe('sending');
    expect(await sent).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('currencies/update', { id: 2, open_draw: false, reason: 'wallet maintenance' });
    expect(store.currencies.data?.find((c) => c.id === 2)?.open_draw).toBe(false);
    expect(store.currencies.data?.find((c) => c.id === 1)?.open_draw).toBe(true);
    expect(store.stateOf(2)).toBe('saved');
    expect(store.currencies.data?.find((c) => c.id === 2)).not.toHaveProperty('applied_live');
  });

  it('sends only the changed fields, confirmations as a number, and says when a shard takes it later', async () => {
    fake.answer('currencies/update', (body: unknown) => ({ ...currency(1, 'USDT'), ...(body as object), applied_live: false }));
    const store = await loaded();
    store.edit(store.currencies.data![0]!);
    expect(store.changes).toEqual({});
    expect(await store.save('nothing')).toBe(false);
    expect(fake.post).not.toHaveBeenCalled();
    store.change('draw_rate', ' 0.002 ');
    store.change('confirmations', '6');
    store.change('micro_numbers', '10,50,100,500');
    store.change('draw_min', '10'); // as it was
    expect(await store.save('new tiers')).toBe(true);
    expect(fake.post).toHaveBeenCalledWith('currencies/update', {
      id: 1, draw_rate: '0.002', confirmations: 6, micro_numbers: '10,50,100,500', reason: 'new tiers',
    }); // prettier-ignore
    expect(store.editingId).toBeNull();
    expect(store.stateOf(1)).toBe('saved_later');
    const row = store.currencies.data?.find((c) => c.id === 1);
    expect([row?.draw_rate, row?.confirmations, row?.micro_numbers]).toEqual(['0.002', 6, '10,50,100,500']);
  });

  it("keeps the server's message and the form when it refuses", async () => {
    fake.answer('currencies/update', new ApiError('micro_min cannot be above micro_max', 'business', { code: 0 }));
    const store = await loaded();
    store.edit(store.currencies.data![0]!);
    store.change('micro_min', '20000');
    expect(await store.save('typo')).toBe(false);
    expect(store.errors.get(1)).toBe('micro_min cannot be above micro_max');
    expect(store.stateOf(1)).toBe('failed');
    expect(store.editingId).toBe(1);
    expect(store.draft?.micro_min).toBe('20000');
    expect(store.currencies.data?.[0]?.micro_min).toBe('1'); // the row keeps what the server holds
  });
});
