/**
 * The listing application check (spec shell §5, §8): the USDT amount must be above 0, else the
 * no-funds message; more than the savings account's USDT is insufficient balance.
 */
import { positive, toBig } from '@/lib/format';

export type ApplyProblem = 'noFunds' | 'insufficient';

export type ApplyCheck = { ok: true; nums: string } | { ok: false; problem: ApplyProblem };

export function checkApplication(text: string, balance: unknown): ApplyCheck {
  const nums = positive(text);
  if (!nums) return { ok: false, problem: 'noFunds' };
  const have = toBig(balance);
  if (have && nums.gt(have)) return { ok: false, problem: 'insufficient' };
  return { ok: true, nums: nums.toFixed() };
}
