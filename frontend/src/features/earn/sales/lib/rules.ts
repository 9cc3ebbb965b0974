/**
 * The subscription checks of a token sale (issue 13, beyond the spec): a quantity of tokens above 0
 * and a whole multiple of the sale's step (else the spec's "wrong purchase quantity"), within the
 * per-user cap counting what the user already asked for, and costing (tokens × price) no more than
 * the accepted asset's balance. The server
 * decides; at the end an oversubscribed sale is allocated pro rata and the rest refunded.
 */
import Big from 'big.js';

import { positive, toBig } from '@/lib/format';

import type { Sale, SalePhase } from '../types';

export type SubscribeProblem =
  | { kind: 'quantity' }
  | { kind: 'step'; step: string }
  | { kind: 'overMax'; left: string } | { kind: 'insufficient' };

export type SubscribeCheck = { ok: true; nums: string } | { ok: false; problem: SubscribeProblem };

/** What `nums` tokens cost at `price`; null when unreadable. */
export function subscriptionCost(nums: unknown, price: unknown): string | null {
  const n = positive(nums);
  const p = toBig(price);
  return n && p ? n.times(p).toFixed() : null;
}

/** Tokens the user may still ask for under `perUserMax` (null: no cap). */
export function tokensLeft(perUserMax: unknown, already: unknown): string | null {
  const max = toBig(perUserMax);
  if (!max || max.lte(0)) return null;
  const left = max.minus(toBig(already) ?? 0);
  return (left.lt(0) ? new Big(0) : left).toFixed();
}

export function checkSubscription(
  text: string,
  sale: { rengou: unknown; per_user_max: unknown; step?: unknown; mine?: { nums: unknown } | null },
  balance: unknown,
): SubscribeCheck {
  const nums = positive(text);
  if (!nums) return { ok: false, problem: { kind: 'quantity' } };
  const step = positive(sale.step);
  if (step && !nums.mod(step).eq(0)) return { ok: false, problem: { kind: 'step', step: step.toFixed() } };
  const left = tokensLeft(sale.per_user_max, sale.mine?.nums);
  if (left !== null && nums.gt(left)) return { ok: false, problem: { kind: 'overMax', left } };
  const cost = subscriptionCost(nums.toFixed(), sale.rengou);
  const have = toBig(balance);
  if (cost && have && new Big(cost).gt(have)) return { ok: false, problem: { kind: 'insufficient' } };
  return { ok: true, nums: nums.toFixed() };
}

const PHASES: readonly SalePhase[] = ['upcoming', 'open', 'closed', 'allocated'];

/** Where a sale is: its phase, or from the spec's status (0 in progress, else completed) when it has none. */
export function phaseOf(sale: Pick<Sale, 'phase' | 'status'>): SalePhase {
  if (PHASES.includes(sale.phase)) return sale.phase;
  return sale.status === 0 ? 'open' : 'allocated';
}
