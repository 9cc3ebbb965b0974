import { describe, expect, it } from 'vitest';

import { above, below, coinFromFiat, fiatTotal, placesOf, plain, ratePercent } from '../lib/money';

describe('coinFromFiat: fiat / price rounded DOWN to the coin decimals', () => {
  it.each([
    ['100', '7.30', 6, '13.698630'], // 13.6986301369… cut, never rounded up
    ['100', '7.3', 2, '13.69'],
    ['1', '3', 8, '0.33333333'],
    ['2', '3', 8, '0.66666666'], // 0.666… would round up to …67
    ['0.01', '65000', 8, '0.00000015'],
    ['65000', '65000', 8, '1.00000000'],
    ['0.1', '0.3', 1, '0.3'], // no float noise: 0.1 / 0.3 in floats is 0.33333333333333337
  ])('%s / %s at %i places = %s', (fiat, price, decimals, coins) => {
    expect(coinFromFiat(fiat, price, decimals)).toBe(coins);
  });

  it('is null while the fiat or the price is missing, zero or unreadable', () => {
    expect(coinFromFiat('', '7.3', 6)).toBeNull();
    expect(coinFromFiat('0', '7.3', 6)).toBeNull();
    expect(coinFromFiat('100', '0', 6)).toBeNull();
    expect(coinFromFiat('1e3', '7.3', 6)).toBeNull();
  });
});

describe('fiatTotal: amount × price rounded half up to cents', () => {
  it.each([
    ['13.69863', '7.30', '100.00'], // 99.999999 rounds half up to 100.00
    ['1', '7.305', '7.31'], // exactly half a cent: up
    ['1', '7.304', '7.30'],
    ['0.1', '0.2', '0.02'],
    ['1.005', '1', '1.01'], // 1.005 in floats is 1.00499999…, which would round down
    ['0.00000015', '65000', '0.01'], // 0.00975 → 0.01
    ['3', '1.115', '3.35'], // 3.345 → 3.35
  ])('%s × %s = %s', (amount, price, total) => {
    expect(fiatTotal(amount, price)).toBe(total);
  });

  it('is null while a figure is missing', () => {
    expect(fiatTotal('', '7')).toBeNull();
    expect(fiatTotal('1', null)).toBeNull();
  });

  it('by fiat, the total of the rounded-down coins never exceeds what was typed by more than a rounding', () => {
    const coins = coinFromFiat('250', '7.13', 6)!;
    expect(coins).toBe('35.063113');
    expect(fiatTotal(coins, '7.13')).toBe('250.00'); // 249.99999569 → 250.00
  });
});

describe('helpers', () => {
  it('compares decimals exactly', () => {
    expect(below('99.99', '100')).toBe(true);
    expect(below('100', '100')).toBe(false);
    expect(above('0.30000000000000004', '0.3')).toBe(true);
    expect(above('x', '1')).toBe(false);
  });

  it('counts typed decimals and prints plain figures', () => {
    expect(placesOf('1.230')).toBe(3);
    expect(placesOf('12')).toBe(0);
    expect(plain('1.50000000')).toBe('1.5');
    expect(plain('7.30')).toBe('7.3');
    expect(plain(null)).toBeNull();
  });

  it("shows the server's completion rate (a percent) cut to one decimal", () => {
    expect(ratePercent('91.66')).toBe('91.6%');
    expect(ratePercent('100.0')).toBe('100.0%');
    expect(ratePercent('0')).toBe('0.0%');
    expect(ratePercent(null)).toBeNull();
  });
});
