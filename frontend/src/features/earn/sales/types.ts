/** Token sales (spec shell §2, §3, §4; `shoufa/*`; issue 13). Money, prices and percents are decimal strings. */
import type { Decimal } from '@/types/api';

/** shoufa/index's type: 99 all, 0 in progress, 1 completed. */
export type SaleFilter = 99 | 0 | 1;

/** Where a sale is: before its start, taking subscriptions, over and waiting for allocation, allocated. */
export type SalePhase = 'upcoming' | 'open' | 'closed' | 'allocated';

/** The user's subscription: tokens asked, the accepted asset locked, tokens won, what they cost, the rest refunded. */
export interface SaleMine {
  nums: Decimal;
  locked: Decimal;
  allocated: Decimal;
  cost: Decimal;
  refunded: Decimal;
  /** 0 pending, 1 allocated. */
  status: number;
}

export interface Sale {
  id: number;
  title: string;
  logo: string;
  desc: string;
  /** 0 in progress, 1 completed. */
  status: number;
  phase: SalePhase;
  /** Tokens offered. */
  total: Decimal;
  btime: number;
  etime: number;
  /** Subscribed / total × 100; above 100 when oversubscribed. */
  jindu: Decimal;
  /** Price of one token in the accepted asset. */
  rengou: Decimal;
  /** The token sold. */
  huodong: string;
  /** The accepted asset. */
  jieshou: string;
  /** Subscriptions. */
  cishu: number;
  /** Tokens subscribed. */
  shuliang: Decimal;
  /** Most tokens one user may ask for; 0: no cap. */
  per_user_max: Decimal;
  /** A subscription asks for a whole multiple of this many tokens (so its cost is exact in the accepted asset). */
  step?: Decimal;
  mine: SaleMine | null;
}
