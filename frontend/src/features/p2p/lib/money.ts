/**
 * The order figures the market previews before the server decides (docs/decisions.md "Opening"),
 * with big.js on decimal strings, never floats:
 * - by fiat, the coin amount is `fiat / price` rounded DOWN to the coin's decimals (the buyer never
 *   gets more than was paid for);
 * - the fiat total is `amount × price` rounded half up to cents.
 * The server recomputes both and refuses on its own.
 */
import Big from 'big.js';

import { positive, toBig } from '@/lib/format';

/** Fiat is in cents. */
export const FIAT_DECIMALS = 2;
/** Completion rates show one decimal of a percent. */
const RATE_DECIMALS = 1;

/** `fiat / price` rounded down to `decimals`, or null while either is missing or not positive. */
export function coinFromFiat(fiat: unknown, price: unknown, decimals: number): string | null {
  const f = positive(fiat);
  const p = positive(price);
  if (!f || !p) return null;
  return f.div(p).round(decimals, Big.roundDown).toFixed(decimals);
}

/** `amount × price` rounded half up to cents, or null while either is missing or not positive. */
export function fiatTotal(amount: unknown, price: unknown): string | null {
  const a = positive(amount);
  const p = positive(price);
  if (!a || !p) return null;
  return a.times(p).round(FIAT_DECIMALS, Big.roundHalfUp).toFixed(FIAT_DECIMALS);
}

/** `a < b`, false when either is unreadable. */
export function below(a: unknown, b: unknown): boolean {
  const x = toBig(a);
  const y = toBig(b);
  return Boolean(x && y && x.lt(y));
}

/** `a > b`, false when either is unreadable. */
export function above(a: unknown, b: unknown): boolean {
  const x = toBig(a);
  const y = toBig(b);
  return Boolean(x && y && x.gt(y));
}

/** How many decimals a typed decimal has (`"1.230"` → 3). */
export function placesOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** A decimal without trailing zeros, as the server's exact figures print: `"1.50000000"` → `"1.5"`. */
export function plain(value: unknown): string | null {
  const n = toBig(value);
  return n ? n.toFixed() : null;
}

/** A completion rate (the server's percent: `"95.55"`) cut to one decimal: `95.5%`; null when unknown. */
export function ratePercent(value: unknown): string | null {
  const n = toBig(value);
  if (!n) return null;
  return `${n.round(RATE_DECIMALS, Big.roundDown).toFixed(RATE_DECIMALS)}%`;
}
