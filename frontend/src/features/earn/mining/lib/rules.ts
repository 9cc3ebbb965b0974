/**
 * Mining rules the screens apply before the server does (spec shell §5, §9; issue 13):
 * - an amount below the product's `mins` shows the minimum message with the number, above `maxs`
 *   the maximum message with the number; more than the selected asset's balance is refused too;
 * - All fills the balance of the selected asset;
 * - cancelling early costs penalty_rate % × remaining days × amount (remaining = cycle − days
 *   booked): 3 days left on 1000 at 0.4 % is 12.
 */
import Big from 'big.js';

import { positive, toBig } from '@/lib/format';

import type { MiningAsset, MiningDetail } from '../types';

export type AmountProblem =
  | { kind: 'empty' }
  | { kind: 'min'; limit: string }
  | { kind: 'max'; limit: string }
  | { kind: 'insufficient' };

export type AmountCheck = { ok: true; nums: string } | { ok: false; problem: AmountProblem };

/** The selected asset's balance in the financial account. */
export function balanceOf(detail: Pick<MiningDetail, 'money' | 'acb' | 'mvbt'> | null, type: MiningAsset): string {
  if (!detail) return '0';
  const value = type === 1 ? detail.money : type === 2 ? detail.acb : detail.mvbt;
  return toBig(value)?.toFixed() ?? '0';
}

export function checkMiningAmount(text: string, limits: { mins: unknown; maxs: unknown }, balance: unknown): AmountCheck {
  const nums = positive(text);
  if (!nums) return { ok: false, problem: { kind: 'empty' } };
  const min = toBig(limits.mins);
  const max = toBig(limits.maxs);
  if (min && nums.lt(min)) return { ok: false, problem: { kind: 'min', limit: min.toFixed() } };
  if (max && max.gt(0) && nums.gt(max)) return { ok: false, problem: { kind: 'max', limit: max.toFixed() } };
  const have = toBig(balance);
  if (have && nums.gt(have)) return { ok: false, problem: { kind: 'insufficient' } };
  return { ok: true, nums: nums.toFixed() };
}

/** Days of the cycle not yet booked (never below 0). */
export function remainingDays(zhouqi: number, days: number): number {
  return Math.max(0, Math.trunc(zhouqi) - Math.trunc(days));
}

/** The penalty of cancelling now: rate % × remaining days × amount, cut to 8 places; null when unreadable. */
export function cancelPenalty(penaltyRate: unknown, remaining: number, nums: unknown): string | null {
  const rate = toBig(penaltyRate);
  const amount = toBig(nums);
  if (!rate || !amount) return null;
  return rate.div(100).times(remaining).times(amount).round(8, Big.roundDown).toFixed();
}

/** What comes back after the penalty (never below 0). */
export function afterPenalty(nums: unknown, penalty: unknown): string | null {
  const amount = toBig(nums);
  const cost = toBig(penalty);
  if (!amount || !cost) return null;
  const left = amount.minus(cost);
  return (left.lt(0) ? new Big(0) : left).toFixed();
}

/** Earnings expected over the cycle for `nums` at `yuji` percent, cut to 8 places. */
export function expectedEarnings(nums: unknown, yuji: unknown): string | null {
  const amount = positive(nums);
  const percent = toBig(yuji);
  if (!amount || !percent) return null;
  return amount.times(percent).div(100).round(8, Big.roundDown).toFixed();
}
