/** The console API's answers (serve/api/routes/admin/). */
export const ROLES = ['support', 'finance', 'risk', 'content', 'markets', 'products', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface Operator {
  id: number;
  email: string;
  roles: Role[];
  must_change_password: boolean;
}

export interface LoginAnswer extends Operator {
  token: string;
}

export interface Page<T> {
  list: T[];
  page: number;
  total: number;
  limit: number;
}

export interface Dashboard {
  users: number;
  pairs: { pair: string; volume_24h: string; close: string }[];
  open_interest: Record<string, string>;
  house: Record<string, Record<string, string>>;
  insurance_fund: Record<string, string>;
  queues: { real_names: number; withdrawals: number; p2p_appeals: number; merchants: number };
}

export interface RealNameReview {
  user_id: number;
  account: string;
  name: string;
  card_id: string;
  images: string[];
  review_status: number;
  reject_reason: string;
}

export interface PendingWithdrawal {
  id: number;
  account: string;
  user_id: number;
  currency: string;
  amount: string;
  fee: string;
  address: string;
  memo: string;
  usd: string;
  /** The user's withdrawals in the 24 h up to this request (this one included, rejected ones not), USD. */
  usd_24h: string;
  /** The two-operator threshold in force: `usd_24h` at or above it needs a second operator. */
  second_approval_usd: string;
  needs_two: boolean;
  first_approval: string | null;
  /** An operator froze the user's withdrawals: an approval is refused until they are unfrozen. */
  withdraw_frozen: boolean;
  status: number;
  created_at: string;
}

export interface WithdrawalDecision {
  id: number;
  status: number;
  waiting_for_second_approval: boolean;
}

export interface ConservationLine {
  currency_id: number;
  currency: string;
  accounts: Record<string, string>;
  fees: string;
  house: Record<string, string>;
  deposits: string;
  withdrawals: string;
  conversions: string;
  total: string;
  expected: string;
  difference: string;
  ok: boolean;
}

export interface Appeal {
  id: number;
  state: number;
  side: string;
  currency: string;
  fiat: string;
  price: string;
  amount: string;
  total: string;
  pay_method: string;
  buyer_id: number;
  seller_id: number;
  created_ms: number;
  proof: string;
  appeal: {
    by: 'buyer' | 'seller';
    reason: string;
    images: string[];
    /** The other side's answer, once it gave one. */
    reply: { reason: string; images: string[]; at_ms: number } | null;
  };
  events: { seq: number; to_state: number; by: string; at_ms: number; note: string }[];
}

export interface UserRow {
  id: number;
  email: string | null;
  mobile: string | null;
  is_seller: boolean;
  is_bot: boolean;
  login_frozen: boolean;
  withdraw_frozen: boolean;
  created_at: string;
}

export interface UserDetail extends UserRow {
  accounts: { type: string; currency: string; balance: string; lock_balance: string }[];
  orders: { id: number; pair_id: number; way: number; price: string; number: string; status: number }[];
  open_positions: number;
  records: { id: number; type: string; currency_id: number; amount: string; lock: string; memo: string; at: string }[];
  sessions: number;
  real_name: { name: string; review_status: number } | null;
}

export interface Notice {
  id: number;
  category_id: number;
  title: string;
  banner: string;
  created_at: string;
  content: string;
  sort: number;
}

export interface NoticeDraft {
  id: number | null;
  category_id: number;
  title: string;
  banner: string;
  content: string;
  sort: number;
}

export interface Category {
  id: number;
  name: string;
}

export interface Setting {
  key: string;
  value: string;
  takes: string;
}

export interface AuditRow {
  id: number;
  at_ms: number;
  operator: string;
  role: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  reason: string;
  address: string;
}

/** A pair as the markets screen reads it (`admin/pairs`); amounts are strings. */
export interface MarketPair {
  id: number;
  symbol: string;
  /** The quote currency's code: lever and second contracts need USDT. */
  quote: string;
  open_change: boolean;
  sell_disabled: boolean;
  open_lever: boolean;
  open_microtrade: boolean;
  maker_fee: string;
  taker_fee: string;
  max_price: string;
  max_quantity: string;
  min_notional: string;
  price_band: string;
  /** The mark's impact notional (quote currency): its impact bid and ask fill this much. */
  impact_notional: string;
  max_open_orders: number;
  price_decimals: number;
  qty_decimals: number;
  /** Lever terms (`admin/pairs/lever`): fractions, the spread in percent, comma lists of whole numbers. */
  lever_share_num: string;
  lever_fee_rate: string;
  lever_point_rate: string;
  lever_overnight_rate: string;
  lever_max_exposure: string;
  lever_multiples: string;
  lever_shares: string;
  lever_max_hands: number;
  /** Second-contract terms (`admin/pairs/micro`): "seconds:percent" pairs, the fee in percent of a win. */
  micro_seconds: string;
  micro_fee_rate: string;
  micro_max_exposure: string;
}

/** `admin/pairs/update`'s answer: the pair's new view; `applied_live` false when no actor runs it. */
export interface MarketPairUpdated extends MarketPair {
  applied_live: boolean;
}

/** A currency as the currencies screen reads it (`admin/currencies`); amounts are strings. */
export interface AdminCurrency {
  id: number;
  code: string;
  name: string;
  decimals: number;
  open_recharge: boolean;
  open_draw: boolean;
  draw_rate: string;
  draw_min: string;
  draw_max: string;
  recharge_min: string;
  confirmations: number;
  micro_numbers: string;
  micro_min: string;
  micro_max: string;
  micro_max_open: string;
  max_amount: string;
  /** Whether its micro account may hold it (a stake currency once it has presets). */
  stake: boolean;
}

/** `admin/currencies/update`'s answer; `applied_live` false when a second-contract shard did not take it. */
export interface AdminCurrencyUpdated extends AdminCurrency {
  applied_live: boolean;
}

/** The server's one pagination shape (serve/api/paging.py), used by the newer console lists. */
export interface PagedData<T> {
  data: T[];
  total: number;
  per_page: number;
  current_page: number;
  last_page: number;
}

/** A chain deposit's state: 0 confirming, 1 credited, 2 below the currency's minimum. */
export const DEPOSIT_STATES = [0, 1, 2] as const;
export type DepositState = (typeof DEPOSIT_STATES)[number];

/** A transfer to a user's deposit address (`admin/deposits`); the amount is a string. */
export interface ChainDeposit {
  id: number;
  user_id: number;
  account: string;
  currency: string;
  protocol: string;
  tx_hash: string;
  address: string;
  memo: string;
  amount: string;
  confirmations: number;
  status: DepositState;
  status_name: string;
  created_at: string;
}

/**
 * What `admin/deposits/credit` takes: the user's e-mail or phone, a currency code, the amount, why, and
 * the operator's reference (the wire's or transaction's id: the same reference is the same credit).
 */
export interface ManualDeposit {
  account: string;
  currency: string;
  amount: string;
  reason: string;
  ref: string;
}

export type ManualCreditState = 'pending' | 'credited' | 'rejected';

/**
 * A manual credit (`admin/deposits/credit`'s answer, `admin/deposits/credits`' rows): credited at once,
 * or pending until a second finance operator approves it.
 */
export interface ManualCredit {
  id: number;
  ref: string;
  user_id: number;
  /** The user's e-mail or phone. */
  account: string;
  currency: string;
  /** The account credited: `change` from the console. */
  account_type: string;
  amount: string;
  usd: string;
  status: 1 | 2 | 3;
  status_name: ManualCreditState;
  reason: string;
  requested_by: string;
  decided_by: string;
  decision_reason: string;
  created_ms: number;
  decided_ms: number | null;
}

export interface ManualCreditDone extends ManualCredit {
  waiting_for_second_approval: boolean;
}

/** `admin/deposits/credits`: a page of credits and the threshold above which one needs two operators. */
export interface ManualCredits extends Page<ManualCredit> {
  credit_second_approval_usd: string;
}

/** A cluster node that can run pairs (`admin/placement`). */
export interface PlacementNode {
  name: string;
  id: string;
  ip: string;
  pair_slots: number;
  pairs: string[];
}

/** A pair's actor: where it runs, its pin, open orders and whether it answers. */
export interface PlacedPair {
  symbol: string;
  pair_id: number;
  node: string | null;
  pin: string | null;
  open_orders: number | null;
  state: 'up' | 'paused' | 'down';
}

export interface Placement {
  nodes: PlacementNode[];
  pairs: PlacedPair[];
}

/** `admin/placement/move`'s report; `moved` false when the pair already ran on the target. */
export interface MoveReport {
  symbol: string;
  moved: boolean;
  from: string | null;
  to: string | null;
  pause_ms: number | null;
  drain_ms: number | null;
  open_orders_after: number | null;
  matches_database: boolean | null;
}

/** The earn products the products role edits (`admin/products…`). */
export const PRODUCT_KINDS = ['lock', 'mining', 'sale', 'listing'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/** One field of a kind (`admin/products/kinds`): the store's table, so the form follows the server's. */
export interface ProductField {
  name: string;
  type: 'text' | 'int' | 'amount' | 'currency' | 'time' | 'bool';
  required: boolean;
  /** A sale's or listing's term: fixed once it has orders. */
  fixed: boolean;
  /** A text's most characters or a whole number's largest value. */
  max: number | null;
}

export interface ProductKindFields {
  kind: ProductKind;
  fields: ProductField[];
}

/** A product as listed: every field as the text the form sends back (times `2026-12-01T08:00`, UTC). */
export interface AdminProduct {
  kind: ProductKind;
  id: number;
  values: Record<string, string>;
  state: 'open' | 'closed' | 'upcoming' | 'ended' | 'allocated';
  can_open: boolean;
  can_close: boolean;
  orders: number;
  /** A sale's tokens asked and subscriptions. */
  subscribed?: string;
  cishu?: number;
  /** A listing's USDT applied. */
  applied?: string;
}
