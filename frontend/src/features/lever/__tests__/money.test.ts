import { describe, expect, it } from 'vitest';

import { previewOrder, spreadPrice, sum, unrealisedProfit } from '../lib/money';
import { LONG, SHORT } from '../types';
import { position } from './fixtures';

describe('the market price with the spread (spec §5: long adds, short subtracts)', () => {
  it('moves the mark by lever_point_rate percent against the trader', () => {
    expect(spreadPrice('60000', '0.05', LONG, 4)).toBe('60030');
    expect(spreadPrice('60000', '0.05', SHORT, 4)).toBe('59970');
  });

  it('rounds a long up and a short down to the price places', () => {
    // 100.0001 × 1.001 = 100.1001001; × 0.999 = 99.9000999
    expect(spreadPrice('100.0001', '0.1', LONG, 4)).toBe('100.1002');
    expect(spreadPrice('100.0001', '0.1', SHORT, 4)).toBe('99.9');
  });

  it('is the mark without a spread, and nothing without a mark', () => {
    expect(spreadPrice('123.45', undefined, LONG, 4)).toBe('123.45');
    expect(spreadPrice(null, '0.05', LONG, 4)).toBeNull();
    expect(spreadPrice('0', '0.05', SHORT, 4)).toBeNull();
  });
});

describe('margin and fee (spec §5)', () => {
  it('margin = price × hands × share_num / multiple; fee = that value × fee rate', () => {
    // 60030 × 2 × 0.01 = 1200.6 → margin at 200× 6.003, fee at 0.1 % 1.2006
    expect(previewOrder({ price: '60030', hands: '2', multiple: 200, shareNum: '0.01', feeRate: '0.001' })).toEqual({
      price: '60030',
      value: '1200.6',
      margin: '6.003',
      fee: '1.2006',
      total: '7.2036',
    });
  });

  it('rounds both up to 6 places, exactly (no float noise)', () => {
    // 0.1 × 3 × 0.1 = 0.03 (a float gives 0.030000000000000006); / 7 = 0.0042857… → 0.004286
    const p = previewOrder({ price: '0.1', hands: 3, multiple: 7, shareNum: '0.1', feeRate: '0.0000001' })!;
    expect(p.value).toBe('0.03');
    expect(p.margin).toBe('0.004286');
    expect(p.fee).toBe('0.000001'); // 0.000000003 rounds up
  });

  it('needs a price, hands, a multiple and a hand size', () => {
    const full = { price: '100', hands: '1', multiple: 10, shareNum: '1', feeRate: '0' };
    expect(previewOrder(full)?.fee).toBe('0');
    for (const missing of ['price', 'hands', 'multiple', 'shareNum'] as const) {
      expect(previewOrder({ ...full, [missing]: '' })).toBeNull();
    }
  });
});

describe('unrealised profit at the mark', () => {
  it('is (mark − open) × number for a long and the opposite for a short', () => {
    const long = position(1, { type: LONG, price: '60000', number: '0.02' });
    const short = position(2, { type: SHORT, price: '60000', number: '0.02' });
    expect(unrealisedProfit(long, '61000.5')).toBe('20.01');
    expect(unrealisedProfit(short, '61000.5')).toBe('-20.01');
    expect(unrealisedProfit(long, null)).toBeNull();
  });

  it('sums decimal strings exactly', () => {
    expect(sum(['0.1', '0.2', '-0.3', 'junk'])).toBe('0');
    expect(sum([])).toBe('0');
  });
});
