/**
 * Display helpers shared by every page. Money arrives from the API as decimal strings and is
 * formatted with big.js, never through floats, so "0.1 + 0.2" style noise cannot show up.
 */
import Big from 'big.js';

import type { Decimal } from '@/types/api';

/** Default display rounding of the spec: 2 decimals, truncating. */
export const DEFAULT_DECIMALS = 2;
/** Names longer than this are shortened (spec §9). */
export const MAX_NAME_LENGTH = 9;

/** What a cell shows when its value is missing or unreadable. */
export const EMPTY = '--';

const PLAIN_DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * A value as Big, or null when it is empty or not a finite number. Strings must be plain decimals
 * ("1.50", " 2 "): "1e5", "NaN" or "12abc" typed into a field are refused. Finite JSON numbers are
 * taken as they are (a tiny one may print as 1e-7, which is still a number the server sent).
 */
export function toBig(value: unknown): Big | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Big(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!PLAIN_DECIMAL.test(text)) return null;
  try {
    return new Big(text);
  } catch {
    return null;
  }
}

/** A strictly positive amount, or null. */
export function positive(value: unknown): Big | null {
  const n = toBig(value);
  return n && n.gt(0) ? n : null;
}

/**
 * What a number field keeps of the typed text: digits and one decimal point (a comma counts as
 * one), at most `decimals` digits after it — extra digits are cut, never rounded up.
 */
export function sanitizeDecimal(text: string, decimals: number): string {
  let cleaned = text.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  if (dot >= 0) {
    const whole = cleaned.slice(0, dot);
    const fraction = cleaned.slice(dot + 1).replace(/\./g, '');
    cleaned = decimals > 0 ? `${whole || '0'}.${fraction.slice(0, decimals)}` : whole;
  }
  // "007" → "7", but "0" and "0.5" stay.
  return cleaned.replace(/^0+(?=\d)/, '');
}

/**
 * A time value as milliseconds. Numbers (or digit strings) whose whole part has fewer than 13
 * digits are seconds (spec §9); other strings are parsed as dates (the API sends ISO 8601).
 * NaN when unreadable.
 */
export function toMillis(value: Decimal | null | undefined): number {
  if (value === null || value === undefined || value === '') return Number.NaN;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return Number.NaN;
    return String(Math.trunc(Math.abs(value))).length < 13 ? value * 1000 : value;
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return text.length < 13 ? n * 1000 : n;
  }
  return Date.parse(text);
}

const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: Decimal | null | undefined): Date | null {
  const ms = toMillis(value);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** `2026-11-21 08:23:42`, or `11-21 08:23:42` without the year; local time. */
export function formatDateTime(value: Decimal | null | undefined, options: { year?: boolean } = {}): string {
  const d = toDate(value);
  if (!d) return EMPTY;
  const date = `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${options.year === false ? '' : `${d.getFullYear()}-`}${date} ${formatTime(d.getTime())}`;
}

/** `2026-11-21`; local time. */
export function formatDate(value: Decimal | null | undefined): string {
  const d = toDate(value);
  if (!d) return EMPTY;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Time of day, `08:23:42`; local time. */
export function formatTime(value: Decimal | null | undefined): string {
  const d = toDate(value);
  if (!d) return EMPTY;
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Names over 9 characters lose their last 4 (spec §9). */
export function shortName(name: string | null | undefined): string {
  if (!name) return '';
  return name.length > MAX_NAME_LENGTH ? name.slice(0, -4) : name;
}

/**
 * Cut (never round up) to `places` decimals, keeping the trailing zeros: `1.239` → `1.23`. Prices
 * and amounts are cut so a shown figure is never better than the real one. A cut that leaves
 * nothing is 0, never `-0.00` (a tiny loss).
 */
export function truncate(value: unknown, places = DEFAULT_DECIMALS): string {
  const n = toBig(value);
  if (!n) return EMPTY;
  const cut = n.round(places, Big.roundDown);
  return (cut.eq(0) ? cut.abs() : cut).toFixed(places);
}

/** A price as the backend sent it, or cut to the pair's `decimals` when given. */
export function formatPrice(value: unknown, decimals?: number): string {
  const n = toBig(value);
  if (!n) return EMPTY;
  return decimals === undefined ? n.toString() : n.round(decimals, Big.roundDown).toFixed(decimals);
}

/** A 24 h change in percent: `1.234` → `+1.23%`, `0` → `+0.00%`, `-0.5` → `-0.50%`. */
export function formatChange(value: unknown): string {
  const n = toBig(value);
  if (!n) return EMPTY;
  return `${n.gte(0) ? '+' : ''}${n.toFixed(2, Big.roundHalfUp)}%`;
}

/**
 * How many decimals a volume may show: a base-currency volume can be tiny (0.0038 BTC), so the
 * smaller the figure, the more decimals it keeps — 6 below 1, 4 below 1000, 2 from 1000 up.
 */
export function volumeDecimals(value: Big): number {
  const size = value.abs();
  if (size.lt(1)) return 6;
  if (size.lt(1000)) return 4;
  return 2;
}

/**
 * Volumes, grouped in the UI language's style, cut (not rounded) to `volumeDecimals` and showing
 * 2 to that many decimals: `920400` → `920,400.00`, `12.5` → `12.50`, `0.0038` → `0.0038`.
 */
export function formatVolume(value: unknown, locale?: string): string {
  const n = toBig(value);
  if (!n) return EMPTY;
  const places = volumeDecimals(n);
  const cut = n.round(places, Big.roundDown);
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: places }).format(
    Number(cut),
  );
}

/** Short volumes for dense cells: `40125800` → `40.13M`; below 1000 as `formatVolume` (`0.0038`). */
export function formatCompact(value: unknown, locale?: string): string {
  const n = toBig(value);
  if (!n) return EMPTY;
  if (n.abs().lt(1000)) return formatVolume(value, locale);
  return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 2 }).format(Number(n));
}

/** A fee rate (a fraction) in percent, every digit kept: `0.001` → `0.1`, `0.05` → `5`; unreadable is `0`. */
export function feePercent(rate: unknown): string {
  const r = toBig(rate);
  return r ? r.times(100).toFixed() : '0';
}

/** `close × rate`, cut to 2 decimals, e.g. the USD value of a BTC-quoted price. */
export function convert(value: unknown, rate: unknown): string {
  const n = toBig(value);
  const r = toBig(rate);
  return n && r ? truncate(n.times(r).toString()) : EMPTY;
}

export type Direction = 'up' | 'down' | 'flat';

/** Colour class of a change: green up, red down. */
export function changeDirection(value: unknown): Direction {
  const n = toBig(value);
  if (!n || n.eq(0)) return 'flat';
  return n.gt(0) ? 'up' : 'down';
}

/** Sort key of a change; unreadable values sort last. */
export function changeValue(value: unknown): number {
  const n = toBig(value);
  return n ? Number(n) : Number.NEGATIVE_INFINITY;
}
