/** Lock savings (spec trading "Lock savings", `storage_currency/*`; issue 13). Money is a decimal string. */
import type { Decimal } from '@/types/api';

export interface LockProduct {
  id: number;
  name: string;
  limit_days: number;
  /** Annual rate in percent. */
  display_rate: Decimal;
  /** One lot: what a purchase locks. */
  limit_number: Decimal;
  currency: { code: string };
  /** 0: no cap. */
  quota_lots: number;
  sold_lots: number;
  open: boolean | number;
}

export const LOCK_ACTIVE = 0;
export const LOCK_ENDED = 1;

/** One of the user's locks (current_setting). */
export interface LockOrder {
  id: number;
  product_id: number;
  name: string;
  currency_code: string;
  amount: Decimal;
  display_rate: Decimal;
  limit_days: number;
  /** First earning day, `YYYY-MM-DD` (UTC). */
  start: string;
  maturity: string;
  accrued: Decimal;
  /** Total interest at maturity. */
  expected: Decimal;
  days_booked: number;
  status: number;
  created_at: number;
}
