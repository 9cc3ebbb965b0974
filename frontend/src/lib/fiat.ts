/**
 * The "≈ $" values of the web app, from the API's live prices (serve: store/prices.py): a
 * quotation's `usd_price` (its last price in USD), or, when a push brought a newer close without
 * one, that close × the quote currency's live `usd_price`. Never a seed or a fixed rate.
 */
import type { Decimal } from '@/types/api';

import { convert, toBig, truncate } from './format';

/** The part of a quotation the fiat values read. */
export interface FiatPriced {
  close?: Decimal;
  usd_price?: Decimal;
  cny_price?: Decimal;
}

/** "≈ $" of a quotation's last price, cut to 2 decimals (`EMPTY` when nothing prices it). */
export function usdValue(q: FiatPriced | null | undefined, quoteUsdPrice: unknown): string {
  return q && toBig(q.usd_price) ? truncate(q.usd_price) : convert(q?.close, quoteUsdPrice);
}

/**
 * `update` merged over `current`. A new close that comes without its own `usd_price` and
 * `cny_price` drops the old ones: they priced the old close (`usdValue` then prices the new one).
 */
export function mergeQuotation<T extends FiatPriced>(current: T | null | undefined, update: Partial<T>): T {
  const next = { ...current, ...update } as T;
  const closeMoved = update.close !== undefined && String(update.close) !== String(current?.close);
  if (closeMoved && update.usd_price === undefined) {
    delete next.usd_price;
    delete next.cny_price;
  }
  return next;
}
