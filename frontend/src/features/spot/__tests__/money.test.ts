import { describe, expect, it } from 'vitest';

import {
  buyQuantityAt,
  orderTotal,
  PRICE_DECIMALS,
  QUANTITY_DECIMALS,
  sellQuantityAt,
  snapPercent,
} from '../lib/money';

describe('order form decimals', () => {
  it('cuts prices to 4 decimals and quantities to 6 (the field rule is sanitizeDecimal, shared)', () => {
    expect(PRICE_DECIMALS).toBe(4);
    expect(QUANTITY_DECIMALS).toBe(6);
  });
});

describe('orderTotal', () => {
  it('rounds price × quantity up to 6 decimals', () => {
    expect(orderTotal('0.3333', '0.000001')).toBe('0.000001'); // 0.0000003333 → up
    expect(orderTotal('68012.5', '0.123457')).toBe('8396.619213'); // 8396.6192125 → up
    expect(orderTotal('2', '3')).toBe('6');
  });

  it('is null until both are positive numbers', () => {
    expect(orderTotal('', '1')).toBeNull();
    expect(orderTotal('1', '0')).toBeNull();
    expect(orderTotal('abc', '1')).toBeNull();
  });
});

describe('slider quantities', () => {
  it('buy: balance × percent / price, floored to 6 decimals', () => {
    expect(buyQuantityAt('1000', 25, '68012.5')).toBe('0.003675'); // 0.0036757...
    expect(buyQuantityAt('100', 100, '3')).toBe('33.333333');
    expect(buyQuantityAt('0', 50, '3')).toBe('0');
  });

  it('buy without a price cannot be sized', () => {
    expect(buyQuantityAt('1000', 50, '')).toBeNull();
    expect(buyQuantityAt('1000', 50, null)).toBeNull();
    expect(buyQuantityAt('1000', 50, '0')).toBeNull();
  });

  it('sell: percent of the base balance, floored to 6 decimals', () => {
    expect(sellQuantityAt('1.2345678', 50)).toBe('0.617283');
    expect(sellQuantityAt('2', 75)).toBe('1.5');
    expect(sellQuantityAt(null, 75)).toBe('0');
  });

  it('snaps to 25 % steps', () => {
    expect([0, 10, 13, 26, 60, 99, 120, -5].map(snapPercent)).toEqual([0, 0, 25, 25, 50, 100, 100, 0]);
  });
});
