/** Numbers may arrive as JSON numbers or as decimal strings. */
export type Decimal = number | string;

export interface CurrencyQuotation {
  close: Decimal;
  /** 24 h change in percent, e.g. 1.23 means +1.23 %. */
  change: Decimal;
  high: Decimal;
  low: Decimal;
  volume: Decimal;
}

export interface CurrencyMatch {
  id: number;
  symbol: string;
  base_currency_code: string;
  currency_quotation: CurrencyQuotation | null;
}

/** A quote currency (e.g. USDT) and the pairs quoted in it. */
export interface QuoteGroup {
  id: number;
  code: string;
  name: string;
  matches: CurrencyMatch[];
}
