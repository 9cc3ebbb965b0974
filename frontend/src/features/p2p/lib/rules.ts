/**
 * The checks the P2P forms make before anything is sent (docs/decisions.md "Ads", "Orders and
 * escrow", "Merchants"), each answering the first problem found or null. The server checks again.
 */
import { positive, toBig } from '@/lib/format';

import { type AdSave, type MarketAd, PAY_CODES } from '../types';
import { above, below, coinFromFiat, FIAT_DECIMALS, fiatTotal, placesOf } from './money';

// -- an order on an ad -------------------------------------------------------------------------------

/** Which of the two fields the taker typed in: the other one is computed from it. */
export type AmountMode = 'fiat' | 'coin';

export type OrderProblem =
  | { kind: 'amount' }
  | { kind: 'min'; limit: string }
  | { kind: 'max'; limit: string }
  | { kind: 'stock'; limit: string }
  | { kind: 'method' };

export interface OrderFigures {
  /** The coins the order moves. */
  amount: string | null;
  /** The fiat the buyer pays. */
  total: string | null;
}

/**
 * The figures of what was typed: by fiat the coins are `fiat / price` rounded down and the total
 * is recomputed from them (what the server will charge); by coin the total is `amount × price`.
 */
export function orderFigures(ad: Pick<MarketAd, 'price'>, decimals: number, mode: AmountMode, text: string): OrderFigures {
  const amount = mode === 'fiat' ? coinFromFiat(text, ad.price, decimals) : positive(text) ? text : null;
  return { amount, total: amount ? fiatTotal(amount, ad.price) : null };
}

/** The first reason the order cannot be sent as typed, or null. */
export function checkOrder(
  ad: Pick<MarketAd, 'price' | 'min_fiat' | 'max_now' | 'stock' | 'methods'>,
  figures: OrderFigures,
  method: string | null,
): OrderProblem | null {
  const { amount, total } = figures;
  if (!amount || !total || !positive(amount)) return { kind: 'amount' };
  if (below(total, ad.min_fiat)) return { kind: 'min', limit: String(ad.min_fiat) };
  if (above(total, ad.max_now)) return { kind: 'max', limit: String(ad.max_now) };
  if (above(amount, ad.stock)) return { kind: 'stock', limit: String(ad.stock) };
  if (!method || !ad.methods.includes(method)) return { kind: 'method' };
  return null;
}

// -- an ad -------------------------------------------------------------------------------------------

export const REMARKS_MAX = 500;
export const WINDOW_MIN = 10;
export const WINDOW_MAX = 120;
export const METHODS_MAX = 3;

/** The ad form's fields as typed. */
export interface AdForm {
  side: AdSave['side'];
  currency_id: number | null;
  fiat: string;
  price: string;
  min_fiat: string;
  max_fiat: string;
  total: string;
  methods: string[];
  window_min: number;
  remarks: string;
}

export type AdProblem =
  | 'currency'
  | 'fiat'
  | 'price'
  | 'min'
  | 'max'
  | 'minAboveMax'
  | 'total'
  | 'totalPlaces'
  | 'methods'
  | 'window'
  | 'remarks';

/** The first problem of an ad form (coins within `decimals`), or null. */
export function checkAd(form: AdForm, decimals: number): AdProblem | null {
  if (form.currency_id === null) return 'currency';
  if (!form.fiat) return 'fiat';
  if (!positive(form.price) || placesOf(form.price) > FIAT_DECIMALS) return 'price';
  const min = toBig(form.min_fiat);
  if (!min || min.lt(1) || placesOf(form.min_fiat) > FIAT_DECIMALS) return 'min';
  const max = toBig(form.max_fiat);
  if (!max || max.lte(0) || placesOf(form.max_fiat) > FIAT_DECIMALS) return 'max';
  if (min.gt(max)) return 'minAboveMax';
  if (!positive(form.total)) return 'total';
  if (placesOf(form.total) > decimals) return 'totalPlaces';
  const known = form.methods.filter((m) => (PAY_CODES as readonly string[]).includes(m));
  if (known.length < 1 || known.length > METHODS_MAX) return 'methods';
  if (!Number.isInteger(form.window_min) || form.window_min < WINDOW_MIN || form.window_min > WINDOW_MAX) return 'window';
  if (form.remarks.length > REMARKS_MAX) return 'remarks';
  return null;
}

// -- an appeal, a merchant application ----------------------------------------------------------------

export const APPEAL_MIN = 10;
export const APPEAL_MAX = 500;
export const APPEAL_IMAGES_MAX = 3;

export type AppealProblem = 'short' | 'long' | 'images';

export function checkAppeal(reason: string, images: readonly string[]): AppealProblem | null {
  const length = [...reason.trim()].length;
  if (length < APPEAL_MIN) return 'short';
  if (length > APPEAL_MAX) return 'long';
  if (images.length > APPEAL_IMAGES_MAX) return 'images';
  return null;
}

/** A merchant's nickname: 2-20 latin letters, digits, `_` or `-` (as the server checks it). */
const NICKNAME = /^[A-Za-z0-9_-]{2,20}$/;

export function checkNickname(nickname: string): boolean {
  return NICKNAME.test(nickname.trim());
}
