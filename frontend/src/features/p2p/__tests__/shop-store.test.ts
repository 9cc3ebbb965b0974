import { beforeEach, describe, expect, it } from 'vitest';

import { fakeTransport } from '@/test/fake-transport';

import { createP2pApi } from '../api/p2p-api';
import { ShopStore } from '../stores/shop-store';
import { config, merchantInfo, shopAd } from './fixtures';

let transport: ReturnType<typeof fakeTransport>;

beforeEach(() => {
  transport = fakeTransport();
  transport.answer('legal/config', config);
  transport.answer('merchant/info', merchantInfo());
  transport.answer('shop/ads', [shopAd(1), shopAd(2, { status: 2 })]);
});

async function started() {
  const store = new ShopStore(createP2pApi(transport.api));
  await store.start();
  return store;
}

describe('ShopStore: the merchant standing', () => {
  it("reads an approved merchant's ads", async () => {
    const store = await started();
    expect(store.isMerchant).toBe(true);
    expect(transport.get).toHaveBeenCalledWith('shop/ads', { params: { status: 0 }, quiet: true });
    expect(store.ads.data).toHaveLength(2);
    store.setFilter(2);
    expect(transport.get).toHaveBeenLastCalledWith('shop/ads', { params: { status: 2 }, quiet: true });
  });

  it('takes a page of ads too', async () => {
    transport.answer('shop/ads', { list: [shopAd(1)], page: 1, total: 1, limit: 20 });
    const store = await started();
    expect(store.ads.data).toHaveLength(1);
  });

  it('does not read ads for a user who is not a merchant, and lets them apply when allowed', async () => {
    transport.answer('merchant/info', merchantInfo({ status: -1, is_seller: false, nickname: '', levels: { mobile: false, real_name: true, advanced: false } }));
    const store = await started();
    expect(store.isMerchant).toBe(false);
    expect(store.canApply).toBe(true);
    expect(transport.get).not.toHaveBeenCalledWith('shop/ads', expect.anything());
    store.setNickname('x');
    expect(await store.apply()).toBe(false);
    expect(store.nicknameProblem).toBe(true);
    expect(transport.post).not.toHaveBeenCalled();
    store.setNickname(' Alice_Store ');
    transport.answer('merchant/apply', merchantInfo({ status: 0, is_seller: false }));
    expect(await store.apply()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith('merchant/apply', { nickname: 'Alice_Store' }, { loading: true, showMsg: true });
  });

  it('lets no one apply without an approved real name, nor while an application is pending', async () => {
    transport.answer('merchant/info', merchantInfo({ status: -1, is_seller: false, levels: { mobile: true, real_name: false, advanced: false } }));
    expect((await started()).canApply).toBe(false);
    transport.answer('merchant/info', merchantInfo({ status: 0, is_seller: false }));
    expect((await started()).canApply).toBe(false);
    transport.answer('merchant/info', merchantInfo({ status: 2, is_seller: false, reject_reason: 'nickname' }));
    expect((await started()).canApply).toBe(true);
  });
});

describe('ShopStore: ads', () => {
  it('posts a sell ad with the checked fields as plain decimals, then reads the list again', async () => {
    const store = await started();
    store.edit();
    const form = store.form!;
    expect(form.editing).toBe(false);
    expect(form.values.window_min).toBe(15);
    expect(form.methodChoices).toEqual(['alipay']); // a sell ad: only the saved collection methods
    form.setAmount('price', '7.305'); // cents only
    expect(form.values.price).toBe('7.30');
    form.setAmount('min_fiat', '100');
    form.setAmount('max_fiat', '5000');
    form.setAmount('total', '1000.1234567'); // USDT's 6 places
    expect(form.values.total).toBe('1000.123456');
    expect(await store.save()).toBe(false);
    expect(form.problem).toBe('methods');
    form.toggleMethod('alipay');
    transport.answer('shop/ad/save', shopAd(3));
    expect(await store.save()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith(
      'shop/ad/save',
      {
        side: 1,
        currency_id: 1,
        fiat: 'CNY',
        price: '7.3',
        min_fiat: '100',
        max_fiat: '5000',
        total: '1000.123456',
        methods: ['alipay'],
        window_min: 15,
        remarks: '',
      },
      { loading: true, showMsg: true },
    );
    expect(store.form).toBeNull();
    expect(transport.get.mock.calls.filter(([p]) => p === 'shop/ads')).toHaveLength(2);
  });

  it('offers every method on a buy ad, and drops the ones a sell ad cannot take', async () => {
    const store = await started();
    store.edit();
    const form = store.form!;
    form.set('side', 2);
    expect(form.methodChoices).toEqual(['alipay', 'wxpay', 'bank']);
    form.toggleMethod('bank');
    form.toggleMethod('alipay');
    form.set('side', 1);
    expect(form.values.methods).toEqual(['alipay']);
  });

  it('edits an ad with its id and its fields', async () => {
    const store = await started();
    store.edit(store.ads.data![0]);
    const form = store.form!;
    expect(form.editing).toBe(true);
    expect(form.values.price).toBe('7.3');
    expect(form.values.total).toBe('1000');
    form.setAmount('total', '1200');
    transport.answer('shop/ad/save', shopAd(1));
    await store.save();
    expect(transport.post).toHaveBeenLastCalledWith(
      'shop/ad/save',
      expect.objectContaining({ id: 1, total: '1200', remarks: 'fast' }),
      { loading: true, showMsg: true },
    );
  });

  it('pauses an online ad, resumes a paused one, and closes one only after the confirmation', async () => {
    const store = await started();
    const [online, paused] = store.ads.data!;
    await store.toggle(online!);
    expect(transport.post).toHaveBeenLastCalledWith('shop/ad/status', { id: 1, status: 2 }, { loading: true, showMsg: true });
    await store.toggle(paused!);
    expect(transport.post).toHaveBeenLastCalledWith('shop/ad/status', { id: 2, status: 1 }, { loading: true, showMsg: true });
    store.askClose(online!);
    expect(transport.post).toHaveBeenCalledTimes(2);
    expect(await store.confirmClose()).toBe(true);
    expect(transport.post).toHaveBeenLastCalledWith('shop/ad/close', { id: 1 }, { loading: true, showMsg: true });
    expect(store.closing).toBeNull();
    expect(await store.toggle(shopAd(4, { status: 3 }))).toBe(false);
  });
});
