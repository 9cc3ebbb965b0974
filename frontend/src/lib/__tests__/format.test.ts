import { describe, expect, it } from 'vitest';

import {
  changeDirection,
  changeValue,
  convert,
  formatChange,
  formatDateTime,
  formatPrice,
  shortName,
  toMillis,
  truncate,
} from '../format';

describe('toMillis', () => {
  it('takes values under 13 digits as seconds', () => {
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toMillis('1700000000')).toBe(1_700_000_000_000);
    expect(toMillis(999_999_999_999)).toBe(999_999_999_999_000); // 12 digits
  });

  it('keeps 13-digit values as milliseconds', () => {
    expect(toMillis(1_700_000_000_123)).toBe(1_700_000_000_123);
    expect(toMillis('1700000000123')).toBe(1_700_000_000_123);
  });

  it('parses ISO dates and rejects the unreadable', () => {
    expect(toMillis('2026-11-21T08:00:00Z')).toBe(Date.UTC(2026, 10, 21, 8));
    expect(toMillis('')).toBeNaN();
    expect(toMillis(null)).toBeNaN();
    expect(toMillis('soon')).toBeNaN();
  });

  it('formats seconds and milliseconds as the same moment', () => {
    expect(formatDateTime(1_700_000_000)).toBe(formatDateTime(1_700_000_000_000));
    expect(formatDateTime(1_700_000_000, { year: false })).toMatch(/^\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(formatDateTime(undefined)).toBe('--');
  });
});

describe('shortName', () => {
  it('keeps names of up to 9 characters', () => {
    expect(shortName('Bitcoin')).toBe('Bitcoin');
    expect(shortName('123456789')).toBe('123456789');
  });

  it('drops the last 4 characters of longer names', () => {
    expect(shortName('1234567890')).toBe('123456');
    expect(shortName('alice@example.com')).toBe('alice@example');
  });

  it('treats a missing name as empty', () => {
    expect(shortName(undefined)).toBe('');
  });
});

describe('numbers', () => {
  it('truncates to 2 decimals by default, never rounding up', () => {
    expect(truncate('1.239')).toBe('1.23');
    expect(truncate('-1.239')).toBe('-1.23');
    expect(truncate(2)).toBe('2.00');
    expect(truncate('0.129999', 4)).toBe('0.1299');
    expect(truncate('abc')).toBe('--');
  });

  it('formats prices exactly, optionally cut to the pair decimals', () => {
    expect(formatPrice('68012.5')).toBe('68012.5');
    expect(formatPrice('68012.5', 2)).toBe('68012.50');
    expect(formatPrice('0.00125431', 6)).toBe('0.001254');
    expect(formatPrice(null)).toBe('--');
  });

  it('signs changes, a plus for zero and up', () => {
    expect(formatChange('2.31')).toBe('+2.31%');
    expect(formatChange(0)).toBe('+0.00%');
    expect(formatChange('-0.5')).toBe('-0.50%');
    expect(changeDirection('2.31')).toBe('up');
    expect(changeDirection('-0.01')).toBe('down');
    expect(changeDirection('0')).toBe('flat');
    expect(changeValue('x')).toBe(Number.NEGATIVE_INFINITY);
  });

  it('converts without float noise', () => {
    expect(convert('0.1', '3')).toBe('0.30');
    expect(convert('0.051442', '68012.5')).toBe('3498.69');
  });
});
