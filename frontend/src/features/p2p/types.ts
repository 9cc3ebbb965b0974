/**
 * The peer-to-peer market's shapes (issue 14; docs/decisions.md "Peer-to-peer market"). Amounts and
 * prices are decimal strings; times are milliseconds.
 */
import type { Decimal } from '@/types/api';

/** What the taker does on the market: buys coins (from a merchant's sell ad) or sells them. */
export type TakerSide = 'buy' | 'sell';

/** An ad's side from the merchant's view: 1 the merchant sells, 2 the merchant buys. */
export type AdSide = 1 | 2;
export const AD_SIDE = { sell: 1, buy: 2 } as const;

/** An ad's status: 1 online, 2 paused (hidden, its lock kept), 3 closed. */
export const AD_STATUS = { online: 1, paused: 2, closed: 3 } as const;
export type AdStatus = (typeof AD_STATUS)[keyof typeof AD_STATUS];

/** An order's state (server-side machine). */
export const ORDER_STATE = { unpaid: 1, paid: 2, completed: 3, cancelled: 4, appeal: 5 } as const;
export type OrderState = (typeof ORDER_STATE)[keyof typeof ORDER_STATE];
/** The list filter: 0 all, else one state. */
export type StateFilter = 0 | OrderState;
export const STATE_FILTERS: readonly StateFilter[] = [0, 1, 2, 3, 4, 5];

/** Merchant application: -1 none, 0 pending, 1 approved, 2 rejected. */
export const MERCHANT_STATUS = { none: -1, pending: 0, approved: 1, rejected: 2 } as const;

/** The payment methods a market knows (a collection setting of the same code holds the details). */
export type PayCode = 'alipay' | 'wxpay' | 'bank';
export const PAY_CODES: readonly PayCode[] = ['alipay', 'wxpay', 'bank'];

export type OrderAction = 'paid' | 'cancel' | 'release' | 'appeal' | 'reply';

export interface P2pCurrency {
  id: number;
  code: string;
  /** The coin's places: an amount bought by fiat is cut to them. */
  decimals: number;
}

/** GET legal/config. */
export interface P2pConfig {
  currencies: P2pCurrency[];
  fiats: string[];
  methods: { code: string; name: string }[];
  /** Payment windows a merchant may choose, in minutes. */
  windows: number[];
  cancel_limit?: number;
  /** Orders a taker may have waiting for payment at once (the site setting p2p_unpaid_max). */
  unpaid_max?: number;
}

export interface MerchantBrief {
  uid: number;
  nickname: string;
  orders_30d: number;
  /** Completed / ended orders of the last 30 days in percent, one decimal ("100.0" when none ended). */
  completion_rate: Decimal | null;
}

/** An ad on the market (GET legal/ads). */
export interface MarketAd {
  id: number;
  side: AdSide;
  taker_side: TakerSide;
  currency_id: number;
  currency: string;
  fiat: string;
  price: Decimal;
  min_fiat: Decimal;
  max_fiat: Decimal;
  /** min(max_fiat, stock × price): the most one order may take now. */
  max_now: Decimal;
  stock: Decimal;
  methods: string[];
  window_min: number;
  remarks: string;
  merchant: MerchantBrief;
}

/** A page of a list: `limit` a page. */
export interface P2pPage<T> {
  list: T[];
  page: number;
  total: number;
  limit: number;
}

/** A merchant's own ad (GET shop/ads). */
export interface ShopAd {
  id: number;
  side: AdSide;
  currency_id: number;
  currency: string;
  fiat: string;
  price: Decimal;
  min_fiat: Decimal;
  max_fiat: Decimal;
  total: Decimal;
  stock: Decimal;
  /** Escrow of the ad's open orders. */
  in_orders?: Decimal;
  sold?: Decimal;
  methods: string[];
  window_min: number;
  remarks: string;
  status: AdStatus;
}

/** POST shop/ad/save. */
export interface AdSave {
  id?: number;
  side: AdSide;
  currency_id: number;
  fiat: string;
  price: string;
  min_fiat: string;
  max_fiat: string;
  total: string;
  methods: string[];
  window_min: number;
  remarks: string;
}

/** What a seller's collection method shows the buyer (copied onto the order when it opened). */
export interface PayDetails {
  real_name?: string;
  account?: string;
  qrcode?: string;
  bank_name?: string;
  bank_address?: string;
  card_no?: string;
}

export interface OrderEvent {
  seq: number;
  from_state: number;
  to_state: number;
  by: string;
  at_ms: number;
  note?: string;
}

/** An order in a list (legal/orders, shop/orders). */
export interface OrderSummary {
  id: number;
  ad_id?: number;
  state: OrderState;
  state_name?: string;
  side?: AdSide;
  role?: 'buyer' | 'seller';
  currency: string;
  fiat: string;
  price: Decimal;
  amount: Decimal;
  total: Decimal;
  created_ms: number;
  pay_method?: string;
  /** What is left of the payment window while unpaid, by the server's clock. */
  remain_ms?: number | null;
}

/** GET legal/order/detail: the order as either side sees it. */
export interface OrderDetail extends OrderSummary {
  role: 'buyer' | 'seller';
  is_merchant: boolean;
  currency_id: number;
  pay_method: string;
  pay_method_name?: string;
  pay_details: PayDetails | null;
  counterparty: { name: string; nickname?: string };
  deadline_ms: number | null;
  /** What is left of the payment window, by the server's clock. */
  remain_ms: number | null;
  paid_ms: number | null;
  ended_ms: number | null;
  cancel_kind: string;
  proof: string;
  appeal: {
    by: string;
    reason: string;
    images: string[];
    /** The other side's answer (once, while in appeal). */
    reply: { reason: string; images: string[]; at_ms: number } | null;
  } | null;
  resolved_to: string;
  actions: OrderAction[];
  events: OrderEvent[];
}

/** GET merchant/info. */
export interface MerchantInfo {
  status: number;
  status_name?: string;
  nickname: string;
  reject_reason: string;
  is_seller: boolean;
  levels: { mobile: boolean; real_name: boolean; advanced: boolean };
  orders_30d: number;
  completion_rate: Decimal | null;
  /** The collection methods the user may offer on a sell ad. */
  methods: string[];
}

/** The LEGAL_ORDER push: an order of the user changed state. */
export interface LegalOrderPush {
  type: 'legal_order';
  order?: {
    id: number;
    ad_id: number;
    state: number;
    buyer_id: number;
    seller_id: number;
    merchant_id: number;
    deadline_ms?: number;
  };
}
