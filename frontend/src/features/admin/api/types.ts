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
  needs_two: boolean;
  first_approval: string | null;
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
  appeal: { by: 'buyer' | 'seller'; reason: string; images: string[] };
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
