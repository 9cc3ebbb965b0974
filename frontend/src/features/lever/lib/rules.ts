/**
 * Checks a lever order before its confirm dialog opens (spec trading §5, in the spec's order): a
 * fixed price needs its price (p_delprice), then every order a multiple (p_times) and hands
 * (p_hands). The rest (the multiple and hands offered, the balance, the mark, the exposure cap) is
 * the server's to refuse, with its own message. Errors are keys of the `lever` namespace.
 */
import { positive } from '@/lib/format';

import type { Side, SubmitBody } from '../types';

export type LeverMode = 'market' | 'fixed';

export type LeverOrderError = 'p_delprice' | 'p_times' | 'p_hands';

export interface LeverDraft {
  mode: LeverMode;
  side: Side;
  pairId: number;
  /** The typed fixed price (ignored at the market price). */
  price: string;
  multiple: number | null;
  /** Typed hands (whole digits). */
  hands: string;
}

export type LeverCheck = { ok: true; body: SubmitBody } | { ok: false; error: LeverOrderError };

const wholePositive = (text: string): number | null => {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

export function checkLeverOrder(d: LeverDraft): LeverCheck {
  const price = positive(d.price);
  if (d.mode === 'fixed' && !price) return { ok: false, error: 'p_delprice' };
  if (!d.multiple || d.multiple <= 0) return { ok: false, error: 'p_times' };
  const hands = wholePositive(d.hands);
  if (!hands) return { ok: false, error: 'p_hands' };
  return {
    ok: true,
    body: {
      currency_match_id: d.pairId,
      type: d.side,
      status: d.mode === 'fixed' ? 0 : 1,
      share: hands,
      multiple: d.multiple,
      target_price: d.mode === 'fixed' && price ? price.toFixed() : null,
    },
  };
}

/** What the hands field keeps of typed text: digits only. */
export function sanitizeHands(text: string): string {
  return text.replace(/\D/g, '').replace(/^0+(?=\d)/, '').slice(0, 9);
}
