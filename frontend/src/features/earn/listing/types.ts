/** Listing applications (spec shell §2, §3, §4, §9; `listing/*`; issue 13). Money is a decimal string. */
import type { Decimal } from '@/types/api';

/** Project status: 0 upcoming, 1 in progress, 2 ended. */
export const PROJECT_STATUS = { upcoming: 0, running: 1, ended: 2 } as const;

export interface ListingProject {
  id: number;
  title: string;
  desc: string;
  status: number;
  /** The token listed. */
  bizhong: string;
  /** Tokens issued. */
  total: Decimal;
  /** Tokens remaining for applicants. */
  shengyu: Decimal;
  /** Progress in percent. */
  radio: Decimal;
  /** USDT per token. */
  price: Decimal;
  btime: number;
  etime: number;
  /** When won tokens are credited (ms). */
  online: number;
  /** Days applied USDT stays locked (7). */
  lock_days: number;
  /** The user's USDT in the savings account. */
  money: Decimal;
}

export interface ListingIndex {
  list: ListingProject[];
  /** The user's applications. */
  nums: number;
}

/** Application status: 0 under review, 1 won, 2 not won. */
export const APPLICATION_STATUS = { review: 0, won: 1, lost: 2 } as const;

export interface ListingApplication {
  id: number;
  times: number;
  bizhong: string;
  /** USDT applied. */
  total: Decimal;
  /** Tokens won. */
  nums: Decimal;
  won_usdt: Decimal;
  online: number;
  status: number;
  release_ms: number;
  released: boolean;
}

export interface ListingOrders {
  list: ListingApplication[];
  total: number;
  page: number;
}
