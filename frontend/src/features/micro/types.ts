/**
 * Shapes of the second-contract calls and push (spec trading §3 "Micro-trade order", "Micro payable
 * currency", "Seconds option", §7 `microtrade/*`; serve/api/routes/micro.py, store/micro/__init__.py
 * order_public). Every amount is a decimal string; times are milliseconds.
 */
import type { Decimal } from '@/components/market/types';
import type { Paginated } from '@/types/api';

export const UP = 1;
export const DOWN = 2;
export type Direction = typeof UP | typeof DOWN;

/** Order states (spec §4): 1 in progress, 3 closed. */
export const STATUS = { open: 1, closed: 3 } as const;
export type MicroStatus = (typeof STATUS)[keyof typeof STATUS];

/** How a closed order ended: a win pays stake + profit − fee, a loss nothing, a tie or void the stake back. */
export type Outcome = 'win' | 'loss' | 'tie' | 'void';

/** lx of microtrade/submit: 1 a typed stake, 2 one of the presets. */
export const CUSTOM = 1;
export const PRESET = 2;
export type StakeKind = typeof CUSTOM | typeof PRESET;

export interface MicroOrder {
  id: number;
  match_id: number;
  symbol_name: string;
  seconds: number;
  /** The stake. */
  number: Decimal;
  currency_id: number;
  currency_name: string;
  type: Direction;
  type_name?: string;
  status: MicroStatus;
  status_name?: string;
  /** Percent of the stake a win earns (frozen at acceptance). */
  profit_ratio: Decimal;
  /** Percent of a win's profit kept as a fee. */
  fee_rate: Decimal;
  /** The entry tick's price (null until it came). */
  open_price: Decimal | null;
  /** The exit tick's price (null until settled). */
  end_price: Decimal | null;
  /** A win's net profit; minus the stake for a loss; "0" for a tie or a void. */
  fact_profits: Decimal;
  fee: Decimal;
  /** What went back to the balance, the stake included. */
  payout: Decimal;
  outcome: Outcome | null;
  outcome_name?: string;
  accepted_at: number;
  entry_at: number | null;
  end_at: number | null;
  /** Left until the end on the server's clock when answered (the whole duration before the entry tick). */
  remain_milli_seconds: number;
  entry_tick_id: number | null;
  exit_tick_id: number | null;
  settled_at: number | null;
  time: number;
}

/** microtrade/payable_currencies: a stake currency, the user's micro balance in it and its presets. */
export interface PayableCurrency {
  id: number;
  code: string;
  micro_account: { balance: Decimal } | null;
  micro_numbers: { number: Decimal }[];
  min_number?: Decimal;
  max_number?: Decimal;
}

/** microtrade/seconds: a duration and the percent a win earns. */
export interface SecondsOption {
  seconds: number;
  profit_ratio: Decimal;
}

/** microtrade/submit's body (spec §7). */
export interface SubmitBody {
  match_id: number;
  currency_id: number;
  type: Direction;
  lx: StakeKind;
  seconds: number;
  number: string;
}

export type MicroPage = Paginated<MicroOrder>;

/** A tick of a pair's hash-chained mark log (docs/decisions.md "Live prices: mark price and tick log"). */
export interface Tick {
  id: number;
  currency_match_id: number;
  seq: number;
  time: number;
  price: Decimal;
  /** The rule that made the tick (impact, mid, last; touch before hash version 2). */
  rule: string;
  /** What the hash covers: 1 (before the rule was recorded) or 2 (the rule too). */
  version: number;
  prev_hash: string;
  hash: string;
}

/** What the server decided, with the ticks it decided from. */
export interface Verdict {
  outcome: Outcome;
  entry_tick_id: number | null;
  exit_tick_id: number | null;
  open_price: Decimal | null;
  end_price: Decimal | null;
  payout: Decimal;
  fact_profits: Decimal;
}

/** microtrade/proof (public): an order, the last tick before it was accepted, and the ticks that decided it. */
export interface Proof {
  order: MicroOrder;
  /** The last tick at or before `accepted_at` (null when the log has none). */
  anchor: Tick | null;
  /** From the entry tick to the exit tick, plus the first tick after the end when the log has it. */
  ticks: Tick[];
  /** The server's own check of the chain (the browser checks it again). */
  chained: boolean;
  /** Null while the order is open. */
  verdict: Verdict | null;
}

/** The proof of a settled order: the only kind that can be checked. */
export type SettledProof = Proof & { verdict: Verdict };

export interface MicroClosedPush {
  type: 'micro_closed';
  order: MicroOrder;
}
