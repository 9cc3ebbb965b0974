/**
 * The figures the earn screens preview before the server decides (big.js on decimal strings, never
 * floats), and the amount checks shared by the forms. The server recomputes and refuses on its own.
 */
import Big from 'big.js';

import { positive, toBig } from '@/lib/format';

/** Typed amounts keep at most 8 decimals (the server rounds to the currency's own places). */
export const AMOUNT_DECIMALS = 8;

/** `a × b`, or null when either is unreadable. */
export function times(a: unknown, b: unknown): string | null {
  const x = toBig(a);
  const y = toBig(b);
  return x && y ? x.times(y).toFixed() : null;
}

/** A percent of an amount: `amount × percent / 100`, cut to `places`. */
export function percentOf(amount: unknown, percent: unknown, places = 8): string | null {
  const a = toBig(amount);
  const p = toBig(percent);
  if (!a || !p) return null;
  return a.times(p).div(100).round(places, Big.roundDown).toFixed();
}

/** A progress figure for a ring: the percent as a number clamped to 0..100 (the label shows the real one). */
export function ringPercent(value: unknown): number {
  const n = toBig(value);
  if (!n) return 0;
  return Math.min(100, Math.max(0, Number(n)));
}

/** `amount > limit`, false when either is unreadable. */
export function exceeds(amount: unknown, limit: unknown): boolean {
  const a = toBig(amount);
  const l = toBig(limit);
  return Boolean(a && l && a.gt(l));
}

/** The typed amount as a positive decimal string, or null (empty, zero, negative, unreadable). */
export function positiveAmount(text: string): string | null {
  return positive(text)?.toFixed() ?? null;
}
