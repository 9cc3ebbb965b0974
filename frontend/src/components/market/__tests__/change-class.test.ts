import { describe, expect, it } from 'vitest';

import { changeClass, tradeClass } from '../change-class';

describe('changeClass', () => {
  it('colours a change up when ≥ 0, matching its plus sign', () => {
    expect(changeClass('0')).toBe('up');
    expect(changeClass('2')).toBe('up');
    expect(changeClass('-0.01')).toBe('down');
  });
});

describe('tradeClass', () => {
  it('colours a completed trade green for way 2 and red for anything else (spec trading §3)', () => {
    expect(tradeClass(2)).toBe('up');
    expect(tradeClass('2')).toBe('up');
    expect(tradeClass(1)).toBe('down');
    expect(tradeClass(undefined)).toBe('down');
  });
});
