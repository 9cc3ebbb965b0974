import { describe, expect, it } from 'vitest';

import { afterPenalty, balanceOf, cancelPenalty, checkMiningAmount, expectedEarnings, remainingDays } from '../lib/rules';
import { detail } from './fixtures';

const limits = { mins: '100', maxs: '5000' };

describe('mining amount (spec §5)', () => {
  it('refuses below the minimum and above the maximum, naming the number', () => {
    expect(checkMiningAmount('99.99', limits, '10000')).toEqual({ ok: false, problem: { kind: 'min', limit: '100' } });
    expect(checkMiningAmount('5000.01', limits, '10000')).toEqual({ ok: false, problem: { kind: 'max', limit: '5000' } });
    expect(checkMiningAmount('100', limits, '10000')).toEqual({ ok: true, nums: '100' });
    expect(checkMiningAmount('5000', limits, '10000')).toEqual({ ok: true, nums: '5000' });
  });

  it('asks for an amount, and refuses more than the selected balance', () => {
    expect(checkMiningAmount('', limits, '10')).toEqual({ ok: false, problem: { kind: 'empty' } });
    expect(checkMiningAmount('0', limits, '10')).toEqual({ ok: false, problem: { kind: 'empty' } });
    expect(checkMiningAmount('200', limits, '150')).toEqual({ ok: false, problem: { kind: 'insufficient' } });
  });

  it('reads the balance of the selected asset: 1 USDT (money), 2 ACB, 3 MVBT', () => {
    const d = detail();
    expect(balanceOf(d, 1)).toBe('1500.5');
    expect(balanceOf(d, 2)).toBe('20');
    expect(balanceOf(d, 3)).toBe('0');
    expect(balanceOf(null, 1)).toBe('0');
  });
});

describe('early exit (spec §9)', () => {
  it('costs ratio × remaining days × amount: 3 days left on 1000 at 0.4 % is 12', () => {
    const remaining = remainingDays(10, 7);
    expect(remaining).toBe(3);
    expect(cancelPenalty('0.4', remaining, '1000')).toBe('12');
    expect(afterPenalty('1000', '12')).toBe('988');
  });

  it('never counts days below 0, nor returns less than nothing', () => {
    expect(remainingDays(10, 12)).toBe(0);
    expect(cancelPenalty('0.4', 0, '1000')).toBe('0');
    expect(afterPenalty('10', '12')).toBe('0');
    expect(cancelPenalty(null, 3, '1000')).toBeNull();
  });

  it('previews the earnings of the cycle at the expected percent', () => {
    expect(expectedEarnings('1000', '10.5')).toBe('105');
    expect(expectedEarnings('', '10.5')).toBeNull();
  });
});
