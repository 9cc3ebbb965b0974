import { beforeEach, describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { fakeTransport } from '@/test/fake-transport';

import { createP2pApi } from '../api/p2p-api';
import { AdMarketStore } from '../stores/ad-market-store';
import { ad, config, detail } from './fixtures';

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
  transport.answer('legal/config', config);
  transport.answer('legal/ads', { list: [ad(1), ad(2)], page: 1, total: 2, limit: 10 });
});

async function started() {
  const store = new AdMarketStore(createP2pApi(transport.api));
  await store.start();
  return store;
}

describe('AdMarketStore', () => {
  it('reads the config, then the ads of its first coin and fiat for a taker who buys', async () => {
    const store = await started();
    expect(store.currencyId).toBe(1);
    expect(store.fiat).toBe('CNY');
    expect(transport.get).toHaveBeenLastCalledWith('legal/ads', {
      params: { side: 'buy', currency_id: 1, fiat: 'CNY', page: 1 },
      quiet: true,
    });
    expect(store.ads.data?.list).toHaveLength(2);
  });

  it('reads the list again from its first page on another side, coin or fiat', async () => {
    const store = await started();
    store.setPage(2);
    expect(transport.get).toHaveBeenLastCalledWith('legal/ads', expect.objectContaining({ params: expect.objectContaining({ page: 2 }) }));
    store.setSide('sell');
    expect(store.page).toBe(1);
    expect(store.ads.data).toBeNull(); // the last side's ads are not shown meanwhile
    expect(transport.get).toHaveBeenLastCalledWith('legal/ads', {
      params: { side: 'sell', currency_id: 1, fiat: 'CNY', page: 1 },
      quiet: true,
    });
    store.setCurrency(2);
    store.setFiat('USD');
    expect(transport.get).toHaveBeenLastCalledWith('legal/ads', {
      params: { side: 'sell', currency_id: 2, fiat: 'USD', page: 1 },
      quiet: true,
    });
  });

  it('opens the order form of an ad with the coin decimals', async () => {
    const store = await started();
    store.open(ad(3, { currency_id: 2, currency: 'BTC', price: '65000', max_now: '65000', stock: '1' }));
    expect(store.form?.decimals).toBe(8);
    store.close();
    expect(store.form).toBeNull();
  });
});

describe('OrderFormStore', () => {
  async function form(extra = {}) {
    const store = await started();
    store.open(ad(1, extra));
    return store.form!;
  }

  it('computes the coins from the fiat (rounded down) and the fiat from the coins (half up)', async () => {
    const f = await form();
    f.setFiat('100');
    expect(f.coinText).toBe('13.698630');
    expect(f.figures).toEqual({ amount: '13.698630', total: '100.00' });
    f.setCoin('1.2345678'); // cut to USDT's 6 places as typed
    expect(f.coinText).toBe('1.234567');
    expect(f.fiatText).toBe('9.01'); // 9.0123391 → 9.01
    f.setFiat('12.345'); // cents only
    expect(f.fiatText).toBe('12.34');
  });

  it('fills the most the ad takes now', async () => {
    const f = await form();
    f.fillMax();
    expect(f.fiatText).toBe('3650');
    expect(f.coinText).toBe('500.000000');
  });

  it('checks before sending and sends nothing out of the limits', async () => {
    const f = await form();
    f.setFiat('50');
    f.setMethod('alipay');
    expect(await f.submit()).toBeNull();
    expect(f.problem).toEqual({ kind: 'min', limit: '100' });
    expect(transport.post).not.toHaveBeenCalled();
  });

  it('opens an order by fiat with fiat_amount, by coins with number', async () => {
    transport.answer('legal/order/create', detail(77));
    const f = await form();
    f.setFiat('100.');
    f.setMethod('bank');
    expect((await f.submit())?.id).toBe(77);
    expect(transport.post).toHaveBeenLastCalledWith(
      'legal/order/create',
      { ad_id: 1, pay_method: 'bank', fiat_amount: '100' },
      { loading: true, quiet: true },
    );
    f.setCoin('20');
    await f.submit();
    expect(transport.post).toHaveBeenLastCalledWith(
      'legal/order/create',
      { ad_id: 1, pay_method: 'bank', number: '20' },
      { loading: true, quiet: true },
    );
  });

  it("picks the only method of an ad by itself", async () => {
    const f = await form({ methods: ['wxpay'] });
    expect(f.method).toBe('wxpay');
  });

  it("shows the server's refusal (no approved real name) in the dialog", async () => {
    transport.answer('legal/order/create', new ApiError('Complete real-name verification first', 'business', { code: 0 }));
    const f = await form();
    f.setFiat('200');
    f.setMethod('alipay');
    expect(await f.submit()).toBeNull();
    expect(f.refusal).toBe('Complete real-name verification first');
    expect(f.busy).toBe(false);
    f.setFiat('201');
    expect(f.refusal).toBeNull();
  });
});
