/**
 * Shapes of the API answers the shell and public pages read. Field names are the contract of
 * serve/api (routes/*.py); money is a decimal string.
 */

/** Numbers may arrive as JSON numbers or as decimal strings. */
export type Decimal = number | string;

export interface Quotation {
  currency_match_id?: number;
  close: Decimal;
  /** 24 h change in percent: 1.23 means +1.23 %. */
  change: Decimal;
  high: Decimal;
  low: Decimal;
  volume: Decimal;
  /** The last price in USD and CNY at the quote currency's live price (serve: store/prices.py). */
  usd_price?: Decimal;
  cny_price?: Decimal;
}

/** A trading pair ("currency match"). */
export interface CurrencyMatch {
  id: number;
  name: string;
  symbol: string;
  base_currency_id: number;
  quote_currency_id: number;
  base_currency_code: string;
  quote_currency_code: string;
  base_currency?: { code: string; logo: string };
  open_change: number;
  open_lever: number;
  open_microtrade: number;
  added: number;
  price_decimals?: number;
  qty_decimals?: number;
  currency_quotation: Quotation | null;
}

/** A quote currency (USDT, BTC, ETH) with the pairs quoted in it. */
export interface QuoteGroup {
  id: number;
  code: string;
  name: string;
  /** The quote currency's live USD and CNY price; `usd_live` false: no live mark, the seeded price. */
  usd_price?: Decimal;
  cny_price?: Decimal;
  usd_live?: boolean;
  matches: CurrencyMatch[];
}

/** The push event of the DAY_MARKET channel (and what the poller turns a fresh list into). */
export interface DayMarketUpdate {
  currency_match_id: number;
  symbol?: string;
  quotation: Partial<Quotation>;
}

export interface NewsItem {
  id: number;
  category_id: number;
  title: string;
  banner: string;
  created_at: string;
}

export interface NewsArticle extends NewsItem {
  content: string;
}

export interface NewsCategory {
  id: number;
  name: string;
}

export interface Paginated<T> {
  data: T[];
  total: number;
  per_page: number;
  current_page: number;
  last_page: number;
}

export interface Area {
  id: number;
  name: string;
  global_code: string;
}

export interface UserInfo {
  id: number;
  email: string;
  mobile: string;
  country_code?: string;
  area_id?: number | null;
  is_seller: number;
  is_set?: number;
  invite_code?: string;
  show_code?: number;
  show_auth?: number;
  security_level?: number;
}

export interface LoginAnswer {
  token: string;
  uid: number;
  account: string;
  is_seller: number;
}
