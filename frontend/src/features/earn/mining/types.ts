/** Hosted mining (spec shell §2, §3, §5, §9; `mining/*`; issue 13). Money and rates are decimal strings. */
import type { Decimal } from '@/types/api';

/** What a mining order is paid with: 1 USDT, 2 ACB, 3 MVBT (from the financial account). */
export type MiningAsset = 1 | 2 | 3;
export const MINING_ASSETS: readonly MiningAsset[] = [1, 2, 3];
export const ASSET_CODE: Record<MiningAsset, string> = { 1: 'USDT', 2: 'ACB', 3: 'MVBT' };

/** Product status: 0 not started, 1 in progress, 2 ended. */
export const PRODUCT_STATUS = { notStarted: 0, running: 1, ended: 2 } as const;

export interface MiningProduct {
  id: number;
  title: string;
  logo: string;
  /** The daily yield range in percent, e.g. "0.3-0.4". */
  shouyi: string;
  rate_min: Decimal;
  rate_max: Decimal;
  /** Cycle in days. */
  zhouqi: number;
  mins: Decimal;
  maxs: Decimal;
  /** Early exit: percent of the amount per remaining day. */
  penalty_rate: Decimal;
  status: number;
  /** Expected yield over the cycle in percent (at the mid rate). */
  yuji: Decimal;
}

/** The user's mining figures (zeros for a visitor). */
export interface MiningSummary {
  /** Principal hosted in active orders. */
  total: Decimal;
  /** Expected yield today. */
  today: Decimal;
  /** Cumulative earnings. */
  shouyi: Decimal;
  /** Active orders. */
  nums: number;
}

export interface MiningIndex {
  list: MiningProduct[];
  info: MiningSummary;
}

/** mining/info: the product with the financial account's USDT, ACB and MVBT. */
export interface MiningDetail extends MiningProduct {
  money: Decimal;
  acb: Decimal;
  mvbt: Decimal;
  /** Today's published daily rate, when there is one. */
  rate_today?: Decimal | null;
}

/** Order status: 0 active (cancellable), 1 ended, 2 cancelled. */
export const ORDER_STATUS = { active: 0, ended: 1, cancelled: 2 } as const;

export interface MiningOrder {
  id: number;
  product_id: number;
  title: string;
  shouyi: string;
  zhouqi: number;
  /** When it was bought (ms). */
  times: number;
  type: MiningAsset;
  currency_code: string;
  nums: Decimal;
  /** Days booked so far. */
  days: number;
  /** Earned so far. */
  total: Decimal;
  penalty: Decimal;
  /** The order's copied penalty ratio, when the server sends it (else the product's). */
  penalty_rate?: Decimal;
  status: number;
  end_date: string;
}

export interface MiningOrders {
  list: MiningOrder[];
  info: MiningSummary;
  /** The number of pages (6 a page). */
  page: number;
}

export interface CancelResult {
  id: number;
  penalty: Decimal;
  returned: Decimal;
}
