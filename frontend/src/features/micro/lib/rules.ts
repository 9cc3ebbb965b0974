/**
 * The order rules of the second-contract panel (spec trading §5 "Second contract"): a stake must be
 * greater than 0, else the trade page's p_num message. A preset stake is sent with lx = 2, a typed
 * one with lx = 1. The rest (the presets, min and max stake, the balance, the caps, the product
 * switched off) is the server's to refuse, with its own message.
 */
import { positive, toBig } from '@/lib/format';

import type { Direction, StakeKind, SubmitBody } from '../types';

/** A typed stake keeps at most USDT's 6 places. */
export const STAKE_DECIMALS = 6;

export interface MicroDraft {
  pairId: number;
  currencyId: number;
  type: Direction;
  kind: StakeKind;
  seconds: number;
  /** The stake as typed or picked. */
  stake: string;
}

export type MicroCheck = { ok: true; body: SubmitBody } | { ok: false; error: 'p_num' };

export function checkMicroOrder(d: MicroDraft): MicroCheck {
  const stake = positive(d.stake);
  if (!stake) return { ok: false, error: 'p_num' };
  return {
    ok: true,
    body: { match_id: d.pairId, currency_id: d.currencyId, type: d.type, lx: d.kind, seconds: d.seconds, number: stake.toFixed() },
  };
}

/** What a win pays back (spec): stake + stake × percent / 100, before the fee on the profit, if any. */
export function winPayout(stake: unknown, percent: unknown): string | null {
  const s = positive(stake);
  const p = toBig(percent);
  if (!s || !p || p.lt(0)) return null;
  return s.plus(s.times(p).div(100)).toFixed();
}
