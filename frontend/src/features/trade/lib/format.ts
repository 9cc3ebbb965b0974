/** Display helpers of the trade page. Numbers are formatted from their decimal strings (big.js). */
import Big from 'big.js';

import { toBig } from './money';

export const EMPTY = '--';

/** `value` with exactly `decimals` decimals, cut (not rounded) so a shown price is never better than the real one. */
export function fixed(value: unknown, decimals: number): string {
  const n = toBig(value);
  return n ? n.toFixed(decimals, Big.roundDown) : EMPTY;
}

/** Thousands separators for a plain decimal string: "1532418.5" → "1,532,418.5". */
export function groupThousands(text: string): string {
  const [whole = '', fraction] = text.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}

/** 24 h volume: 2 decimals, grouped. */
export function formatVolume(value: unknown): string {
  const n = toBig(value);
  return n ? groupThousands(n.toFixed(2, Big.roundDown)) : EMPTY;
}

/** Change in percent with a plus sign when ≥ 0: "2.3" → "+2.30%", "-1.7" → "-1.70%". */
export function formatChange(value: unknown): string {
  const n = toBig(value);
  if (!n) return EMPTY;
  const text = n.toFixed(2, Big.roundHalfUp);
  return `${n.gte(0) ? '+' : ''}${text}%`;
}

/** Up (green) when the change is ≥ 0, down (red) when negative — matching the plus sign. */
export function changeClass(value: unknown): 'up' | 'down' {
  const n = toBig(value);
  return n && n.lt(0) ? 'down' : 'up';
}

/** Milliseconds from a time value: numbers under 13 digits are seconds; ISO strings are parsed. */
export function toMillis(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number' || /^\d+$/.test(value)) {
    const n = Number(value);
    if (!Number.isFinite(n)) return null;
    return String(Math.trunc(Math.abs(n))).length < 13 ? n * 1000 : n;
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Order time without the year: "03-14 09:26:53" (local time). */
export function formatOrderTime(value: number | string | null | undefined): string {
  const ms = toMillis(value);
  if (ms === null) return EMPTY;
  const d = new Date(ms);
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Trade time of day: "09:26:53" (local time). */
export function formatClock(value: number | string | null | undefined): string {
  const ms = toMillis(value);
  if (ms === null) return EMPTY;
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
