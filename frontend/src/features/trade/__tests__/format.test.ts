import { describe, expect, it } from 'vitest';

import {
  changeClass,
  fixed,
  formatChange,
  formatClock,
  formatOrderTime,
  formatVolume,
  groupThousands,
  toMillis,
} from '../lib/format';

describe('format', () => {
  it('shows a plus sign when the change is ≥ 0 and colours it', () => {
    expect(formatChange('2.31')).toBe('+2.31%');
    expect(formatChange('0')).toBe('+0.00%');
    expect(formatChange('-1.7')).toBe('-1.70%');
    expect(formatChange(undefined)).toBe('--');
    expect(changeClass('0')).toBe('up');
    expect(changeClass('2')).toBe('up');
    expect(changeClass('-0.01')).toBe('down');
  });

  it('pads prices to the pair decimals, cutting extra digits', () => {
    expect(fixed('68012.5', 4)).toBe('68012.5000');
    expect(fixed('0.123456789', 6)).toBe('0.123456');
    expect(fixed(null, 4)).toBe('--');
  });

  it('groups thousands', () => {
    expect(groupThousands('1532418.5')).toBe('1,532,418.5');
    expect(groupThousands('-1000')).toBe('-1,000');
    expect(formatVolume('920400')).toBe('920,400.00');
  });

  it('takes time values under 13 digits as seconds', () => {
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toMillis('1700000000')).toBe(1_700_000_000_000);
    expect(toMillis(1_700_000_000_123)).toBe(1_700_000_000_123);
    expect(toMillis('2024-03-14T09:26:53Z')).toBe(Date.UTC(2024, 2, 14, 9, 26, 53));
    expect(toMillis('')).toBeNull();
  });

  it('shows order times without the year', () => {
    const t = new Date(2024, 2, 4, 9, 6, 5).getTime();
    expect(formatOrderTime(t)).toBe('03-04 09:06:05');
    expect(formatOrderTime(Math.floor(t / 1000))).toBe('03-04 09:06:05');
    expect(formatClock(t)).toBe('09:06:05');
  });
});
