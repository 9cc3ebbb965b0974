import { describe, expect, it } from 'vitest';

import { type AdForm, checkAd, checkAppeal, checkNickname, checkOrder, orderFigures } from '../lib/rules';
import { ad } from './fixtures';

describe('orderFigures', () => {
  it('by fiat: coins cut to the decimals, the total recomputed from them', () => {
    expect(orderFigures(ad(1), 6, 'fiat', '100')).toEqual({ amount: '13.698630', total: '100.00' });
  });

  it('by coin: the typed coins, the total half up to cents', () => {
    expect(orderFigures(ad(1, { price: '7.305' }), 6, 'coin', '1')).toEqual({ amount: '1', total: '7.31' });
  });

  it('nothing while the field is empty or zero', () => {
    expect(orderFigures(ad(1), 6, 'fiat', '')).toEqual({ amount: null, total: null });
    expect(orderFigures(ad(1), 6, 'coin', '0')).toEqual({ amount: null, total: null });
  });
});

describe('checkOrder', () => {
  const a = ad(1); // 100 – 3650 CNY now, 500 USDT in stock, alipay or bank
  const by = (fiat: string) => orderFigures(a, 6, 'fiat', fiat);

  it('takes an order within the limits and the stock with one of the ad methods', () => {
    expect(checkOrder(a, by('100'), 'alipay')).toBeNull();
    expect(checkOrder(a, by('3650'), 'bank')).toBeNull();
  });

  it('names the limit that was crossed', () => {
    expect(checkOrder(a, by(''), 'alipay')).toEqual({ kind: 'amount' });
    expect(checkOrder(a, by('99.99'), 'alipay')).toEqual({ kind: 'min', limit: '100' });
    expect(checkOrder(a, by('3650.01'), 'alipay')).toEqual({ kind: 'max', limit: '3650' });
    const thin = ad(1, { price: '100', max_now: '99999', stock: '10' });
    expect(checkOrder(thin, orderFigures(thin, 6, 'coin', '10.5'), 'alipay')).toEqual({ kind: 'stock', limit: '10' });
  });

  it('wants a method of the ad', () => {
    expect(checkOrder(a, by('200'), null)).toEqual({ kind: 'method' });
    expect(checkOrder(a, by('200'), 'wxpay')).toEqual({ kind: 'method' });
  });
});

describe('checkAd', () => {
  const form: AdForm = {
    side: 1,
    currency_id: 1,
    fiat: 'CNY',
    price: '7.3',
    min_fiat: '100',
    max_fiat: '5000',
    total: '1000',
    methods: ['alipay'],
    window_min: 15,
    remarks: '',
  };

  it('takes a complete ad', () => {
    expect(checkAd(form, 6)).toBeNull();
  });

  it.each<[Partial<AdForm>, string]>([
    [{ currency_id: null }, 'currency'],
    [{ fiat: '' }, 'fiat'],
    [{ price: '0' }, 'price'],
    [{ price: '7.305' }, 'price'],
    [{ min_fiat: '0.5' }, 'min'],
    [{ max_fiat: '' }, 'max'],
    [{ min_fiat: '6000' }, 'minAboveMax'],
    [{ total: '0' }, 'total'],
    [{ total: '1.1234567' }, 'totalPlaces'],
    [{ methods: [] }, 'methods'],
    [{ window_min: 5 }, 'window'],
    [{ window_min: 121 }, 'window'],
    [{ remarks: 'x'.repeat(501) }, 'remarks'],
  ])('%o → %s', (change, problem) => {
    expect(checkAd({ ...form, ...change }, 6)).toBe(problem);
  });

  it('counts only the methods the market knows', () => {
    expect(checkAd({ ...form, methods: ['paypal'] }, 6)).toBe('methods');
    expect(checkAd({ ...form, methods: ['alipay', 'wxpay', 'bank', 'paypal'] }, 6)).toBeNull();
  });
});

describe('checkAppeal and checkNickname', () => {
  it('wants 10 to 500 characters and at most 3 images', () => {
    expect(checkAppeal('too short', [])).toBe('short');
    expect(checkAppeal('  padded   ', [])).toBe('short');
    expect(checkAppeal('I paid, no release', [])).toBeNull();
    expect(checkAppeal('y'.repeat(501), [])).toBe('long');
    expect(checkAppeal('I paid, no release', ['a', 'b', 'c', 'd'])).toBe('images');
  });

  it('takes 2-20 letters, digits, _ or -', () => {
    expect(checkNickname('alice_01')).toBe(true);
    expect(checkNickname('Shop-1')).toBe(true);
    expect(checkNickname('商家-1')).toBe(false);
    expect(checkNickname('a')).toBe(false);
    expect(checkNickname('has space')).toBe(false);
    expect(checkNickname('x'.repeat(21))).toBe(false);
  });
});
