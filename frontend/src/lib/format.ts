/**
 * Display helpers shared by every page. Money arrives from the API as decimal strings and is
 * formatted with big.js, never through floats, so "0.1 + 0.2" style noise cannot show up.
 */
import Big from 'big.js';

/** Numbers may arrive as JSON numbers or as decimal strings. */
export type Decimal = number | string;

/** Default display rounding of the spec: 2 decimals, truncating. */
export const DEFAULT_DECIMALS = 2;
/** Names longer than this are shortened (spec §9). */
export const MAX_NAME_LENGTH = 9;

const PLACEHOLDER = '--';

export function toBig(value: Decimal | null | undefined): Big | null {
  if (value === null || value === undefined || value === '') return null;
  try {
    return new Big(value);
  } catch {
    return null;
  }
}

/**
 * A time value as milliseconds. Numbers (or digit strings) shorter than 13 digits are seconds;
 * other strings are parsed as dates (the API sends ISO 8601). NaN when unreadable.
 */
export function toMillis(value: Decimal | null | undefined): number {
  if (value === null || value === undefined || value === '') return Number.NaN;
  const text = String(value).trim();
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return text.length < 13 ? n * 1000 : n;
  }
  return Date.parse(text);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-21 08:23:42`, or `11-21 08:23:42` without the year; local time. */
export function formatDateTime(value: Decimal | null | undefined, options: { year?: boolean } = {}): string {
  const ms = toMillis(value);
  if (!Number.isFinite(ms)) return PLACEHOLDER;
  const d = new Date(ms);
  const date = `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return `${options.year === false ? '' : `${d.getFullYear()}-`}${date} ${time}`;
}

/** `2026-11-21`; local time. */
export function formatDate(value: Decimal | null | undefined): string {
  const ms = toMillis(value);
  if (!Number.isFinite(ms)) return PLACEHOLDER;
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Names over 9 characters lose their last 4 (spec §9). */
export function shortName(name: string | null | undefined): string {
  if (!name) return '';
  return name.length > MAX_NAME_LENGTH ? name.slice(0, -4) : name;
}

/** Cut (never round up) to `places` decimals, keeping the trailing zeros: `1.239` → `1.23`. */
export function truncate(value: Decimal | null | undefined, places = DEFAULT_DECIMALS): string {
  const n = toBig(value);
  return n ? n.round(places, Big.roundDown).toFixed(places) : PLACEHOLDER;
}

/** A price as the backend sent it, or cut to the pair's `decimals` when given. */
export function formatPrice(value: Decimal | null | undefined, decimals?: number): string {
  const n = toBig(value);
  if (!n) return PLACEHOLDER;
  return decimals === undefined ? n.toString() : n.round(decimals, Big.roundDown).toFixed(decimals);
}

/** A 24 h change in percent: `1.234` → `+1.23%`, `0` → `+0.00%`, `-0.5` → `-0.50%`. */
export function formatChange(value: Decimal | null | undefined): string {
  const n = toBig(value);
  if (!n) return PLACEHOLDER;
  return `${n.gte(0) ? '+' : ''}${n.toFixed(2)}%`;
}

/** Volumes with grouping and at most 2 decimals, in the UI language's style. */
export function formatVolume(value: Decimal | null | undefined, locale?: string): string {
  const n = toBig(value);
  if (!n) return PLACEHOLDER;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(Number(n.round(2, Big.roundDown)));
}

/** Short volumes for dense cells: `40125800` → `40.13M`. */
export function formatCompact(value: Decimal | null | undefined, locale?: string): string {
  const n = toBig(value);
  if (!n) return PLACEHOLDER;
  return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 2 }).format(Number(n));
}

/** `close × rate`, cut to 2 decimals, e.g. the USD value of a BTC-quoted price. */
export function convert(value: Decimal | null | undefined, rate: Decimal | null | undefined): string {
  const n = toBig(value);
  const r = toBig(rate);
  return n && r ? truncate(n.times(r).toString()) : PLACEHOLDER;
}

export type Direction = 'up' | 'down' | 'flat';

/** Colour class of a change: green up, red down. */
export function changeDirection(value: Decimal | null | undefined): Direction {
  const n = toBig(value);
  if (!n || n.eq(0)) return 'flat';
  return n.gt(0) ? 'up' : 'down';
}

/** Sort key of a change; unreadable values sort last. */
export function changeValue(value: Decimal | null | undefined): number {
  const n = toBig(value);
  return n ? Number(n) : Number.NEGATIVE_INFINITY;
}
