import { describe, expect, it } from 'vitest';

import {
  changeDirection,
  changeValue,
  convert,
  feePercent,
  formatChange,
  formatCompact,
  formatDateTime,
  formatPrice,
  formatTime,
  formatVolume,
  positive,
  sanitizeDecimal,
  shortName,
  toBig,
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

  it('takes fractional seconds as seconds', () => {
    expect(toMillis(1_700_000_000.5)).toBe(1_700_000_000_500);
    expect(toMillis(Number.NaN)).toBeNaN();
  });

  it('parses ISO dates and rejects the unreadable', () => {
    expect(toMillis('2026-11-21T08:00:00Z')).toBe(Date.UTC(2026, 10, 21, 8));
    expect(toMillis('2024-03-14T09:26:53Z')).toBe(Date.UTC(2024, 2, 14, 9, 26, 53));
    expect(toMillis('')).toBeNaN();
    expect(toMillis(null)).toBeNaN();
    expect(toMillis('soon')).toBeNaN();
  });

  it('formats seconds and milliseconds as the same moment', () => {
    expect(formatDateTime(1_700_000_000)).toBe(formatDateTime(1_700_000_000_000));
    expect(formatDateTime(1_700_000_000, { year: false })).toMatch(/^\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(formatDateTime(undefined)).toBe('--');
  });

  it('shows order times without the year and trade times of day', () => {
    const t = new Date(2024, 2, 4, 9, 6, 5).getTime();
    expect(formatDateTime(t, { year: false })).toBe('03-04 09:06:05');
    expect(formatDateTime(Math.floor(t / 1000), { year: false })).toBe('03-04 09:06:05');
    expect(formatDateTime(t)).toBe('2024-03-04 09:06:05');
    expect(formatTime(t)).toBe('09:06:05');
    expect(formatTime(Math.floor(t / 1000))).toBe('09:06:05');
    expect(formatTime('')).toBe('--');
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
    expect(truncate('-0.00001', 4)).toBe('0.0000');
  });

  it('pads prices to the pair decimals, cutting extra digits', () => {
    expect(truncate('68012.5', 4)).toBe('68012.5000');
    expect(truncate('0.123456789', 6)).toBe('0.123456');
    expect(truncate(null, 4)).toBe('--');
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
    expect(formatChange('-1.7')).toBe('-1.70%');
    expect(formatChange('1.235')).toBe('+1.24%');
    expect(formatChange(undefined)).toBe('--');
    expect(changeDirection('2.31')).toBe('up');
    expect(changeDirection('-0.01')).toBe('down');
    expect(changeDirection('0')).toBe('flat');
    expect(changeValue('x')).toBe(Number.NEGATIVE_INFINITY);
  });

  it('shows a fee rate in percent with every digit (rate × 100)', () => {
    expect(feePercent('0.001')).toBe('0.1');
    expect(feePercent('0.05')).toBe('5');
    expect(feePercent('0.0005')).toBe('0.05');
    expect(feePercent('abc')).toBe('0');
  });

  it('converts without float noise', () => {
    expect(convert('0.1', '3')).toBe('0.30');
    expect(convert('0.051442', '68012.5')).toBe('3498.69');
  });
});

describe('sanitizeDecimal', () => {
  it('cuts prices to at most 4 decimals without rounding', () => {
    expect(sanitizeDecimal('68012.123456', 4)).toBe('68012.1234');
    expect(sanitizeDecimal('0.99999', 4)).toBe('0.9999');
    expect(sanitizeDecimal('68012.', 4)).toBe('68012.');
  });

  it('floors quantities to 6 decimals', () => {
    expect(sanitizeDecimal('1.23456789', 6)).toBe('1.234567');
  });

  it('keeps only digits and one point; a comma is a point', () => {
    expect(sanitizeDecimal('1,5', 4)).toBe('1.5');
    expect(sanitizeDecimal('1.2.3', 4)).toBe('1.23');
    expect(sanitizeDecimal('-12a3', 4)).toBe('123');
    expect(sanitizeDecimal('.5', 4)).toBe('0.5');
    expect(sanitizeDecimal('007', 4)).toBe('7');
    expect(sanitizeDecimal('0.07', 4)).toBe('0.07');
    expect(sanitizeDecimal('', 4)).toBe('');
  });
});

describe('toBig', () => {
  it('reads decimal strings and refuses anything else', () => {
    expect(toBig('1.50')?.toFixed()).toBe('1.5');
    expect(toBig(' 2 ')?.toFixed()).toBe('2');
    expect(toBig('1e5')).toBeNull();
    expect(toBig('')).toBeNull();
    expect(toBig('NaN')).toBeNull();
    expect(toBig(undefined)).toBeNull();
  });
});

describe('positive', () => {
  it('keeps only amounts above 0', () => {
    expect(positive('0.01')?.toFixed()).toBe('0.01');
    expect(positive('0')).toBeNull();
    expect(positive('-1')).toBeNull();
    expect(positive('')).toBeNull();
  });

  it('reads finite JSON numbers, tiny ones included', () => {
    expect(toBig(0.0000001)?.toFixed()).toBe('0.0000001');
    expect(toBig(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('volumes', () => {
  it('groups thousands with 2 decimals from 1000 up', () => {
    expect(formatVolume('920400', 'en')).toBe('920,400.00');
    expect(formatVolume('1532418.5', 'en')).toBe('1,532,418.50');
    expect(formatVolume('-1000', 'en')).toBe('-1,000.00');
    expect(formatVolume('1234.5678', 'en')).toBe('1,234.56');
  });

  it('keeps up to 4 decimals below 1000 and 6 below 1, cut not rounded', () => {
    expect(formatVolume('12.5', 'en')).toBe('12.50');
    expect(formatVolume('999.99999', 'en')).toBe('999.9999');
    expect(formatVolume('0.0038', 'en')).toBe('0.0038');
    expect(formatVolume('0.12345678', 'en')).toBe('0.123456');
    expect(formatVolume('0.0000009', 'en')).toBe('0.00');
    expect(formatVolume(0, 'en')).toBe('0.00');
    expect(formatVolume(null, 'en')).toBe('--');
  });

  it('follows the UI language', () => {
    expect(formatVolume('0.0038', 'fr')).toBe('0,0038');
  });

  it('shortens large volumes and keeps small ones readable', () => {
    expect(formatCompact('40125800', 'en')).toBe('40.13M');
    expect(formatCompact('0.0038', 'en')).toBe('0.0038');
    expect(formatCompact('12.5', 'en')).toBe('12.50');
    expect(formatCompact('abc', 'en')).toBe('--');
  });
});
