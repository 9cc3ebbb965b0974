/**
 * Checks a second contract's proof (`microtrade/proof`) in the browser, trusting nothing the server
 * concluded (docs/architecture.md "Second contracts"; store/micro/settle.py states the same rule for
 * the server):
 *
 * 1. **the chain**: every tick's hash is SHA-256 of the text its hash version covers (version 2:
 *    `2|prev_hash|pair id|seq|time|price|rule`; version 1, ticks written before the rule was
 *    recorded: `prev_hash|pair id|seq|time|price`; the price as the string given), and each tick
 *    follows the one before it (seq + 1, later time, its prev_hash is that tick's hash) — from the
 *    anchor (the last tick at or before acceptance) to the end (actors/pair/marks.py);
 * 2. **the entry** is the first tick after acceptance: it follows the anchor directly, and the anchor
 *    is not after `accepted_at` (with no anchor, the entry must be the log's first tick);
 * 3. **the exit** is the last tick at or before end = entry time + seconds: the tick after it is past
 *    the end (while the log has no later tick, this cannot be shown yet);
 * 4. **the outcome** follows: up wins if exit > entry, down if exit < entry, equal is a tie; no tick
 *    after acceptance within the window voids the order. It, the tick ids and the prices must be the
 *    verdict's and the order's;
 * 5. **the money** the order was paid (its `payout` and `fact_profits`, also the verdict's): a win
 *    pays stake + net profit, with net profit + fee = stake × ratio / 100 rounded down; a loss pays
 *    nothing (net −stake); a tie or void pays the stake back.
 *
 * Only a settled order (with a verdict) can be checked.
 */
import Big from 'big.js';

import { toBig } from '@/lib/format';

import { DOWN, type MicroOrder, type Outcome, type SettledProof, type Tick, UP } from '../types';

/** The prev_hash of a pair's first tick. */
export const GENESIS_HASH = '0'.repeat(64);
/** The rounding a win's profit may lose: USDT's 6 places (stake currencies have at least 6). */
export const PROFIT_ROUNDING = new Big('0.000001');

/** SHA-256 of a text as lowercase hex. */
export type Digest = (text: string) => Promise<string>;

/** Web Crypto's SHA-256 (only in a secure context: https or localhost); null where it is missing. */
export function webDigest(): Digest | null {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  return async (text) => {
    const bytes = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  };
}

/** The text a tick's hash covers in its hash version; null for a version this page does not know. */
export function tickText(t: Tick): string | null {
  switch (t.version) {
    case 1:
      return `${t.prev_hash}|${t.currency_match_id}|${t.seq}|${t.time}|${t.price}`;
    case 2:
      return `2|${t.prev_hash}|${t.currency_match_id}|${t.seq}|${t.time}|${t.price}|${t.rule}`;
    default:
      return null;
  }
}

/** Where the chain is broken: the tick and why. */
export interface ChainBreak {
  tickId: number;
  reason: 'hash' | 'link' | 'pair' | 'version';
}

/** What the rule gives from the ticks alone. */
export interface Decision {
  outcome: Outcome;
  entry: Tick | null;
  exit: Tick | null;
  /** entry time + seconds (null for a void). */
  end: number | null;
}

export interface ProofCheck {
  /** Null when this browser cannot hash (no Web Crypto outside a secure context). */
  chained: boolean | null;
  broken: ChainBreak | null;
  /** Null when it cannot be shown (no anchor and the entry is not the log's first tick, or no tick at all). */
  entryFirst: boolean | null;
  /** Null while the log has no tick past the end (and for a void). */
  exitLast: boolean | null;
  decision: Decision;
  /** The decision, its tick ids and prices are the verdict's and the order's. */
  matches: boolean;
  /** The payout and net profit follow from the outcome and the frozen terms. */
  paid: boolean;
  /** Nothing failed (an unknown is not a failure: it is shown as such). */
  verified: boolean;
}

/** The rule (settle.py): entry, end, exit and outcome of `order` from its ticks (time order). */
export function decide(order: Pick<MicroOrder, 'type' | 'accepted_at' | 'seconds'>, ticks: readonly Tick[]): Decision {
  const window = order.seconds * 1000;
  const entry = ticks.find((t) => t.time > order.accepted_at) ?? null;
  if (!entry || entry.time > order.accepted_at + window) return { outcome: 'void', entry: null, exit: null, end: null };
  const end = entry.time + window;
  const exit = ticks.filter((t) => t.time <= end).pop() ?? entry;
  const entryPrice = new Big(entry.price);
  const exitPrice = new Big(exit.price);
  if (exitPrice.eq(entryPrice)) return { outcome: 'tie', entry, exit, end };
  const rose = exitPrice.gt(entryPrice);
  const won = (rose && order.type === UP) || (!rose && order.type === DOWN);
  return { outcome: won ? 'win' : 'loss', entry, exit, end };
}

/** Recompute every hash and link of `ticks` (anchor first); the first break, or null. */
export async function checkChain(ticks: readonly Tick[], pairId: number, digest: Digest): Promise<ChainBreak | null> {
  for (let i = 0; i < ticks.length; i += 1) {
    const tick = ticks[i]!;
    const before = ticks[i - 1];
    if (tick.currency_match_id !== pairId) return { tickId: tick.id, reason: 'pair' };
    if (before && (tick.seq !== before.seq + 1 || tick.time <= before.time || tick.prev_hash !== before.hash)) {
      return { tickId: tick.id, reason: 'link' };
    }
    const text = tickText(tick);
    if (text === null) return { tickId: tick.id, reason: 'version' };
    if ((await digest(text)) !== tick.hash) return { tickId: tick.id, reason: 'hash' };
  }
  return null;
}

const sameAmount = (a: unknown, b: unknown): boolean => {
  const x = toBig(a);
  const y = toBig(b);
  return x !== null && y !== null ? x.eq(y) : (a ?? null) === (b ?? null);
};

/** The money of the outcome, from the order's frozen terms (rule 5). */
export function checkPayout(outcome: Outcome, order: Pick<MicroOrder, 'number' | 'profit_ratio' | 'fee'>, payout: unknown, net: unknown): boolean {
  const stake = toBig(order.number);
  const paid = toBig(payout);
  const profit = toBig(net);
  if (!stake || !paid || !profit) return false;
  switch (outcome) {
    case 'loss':
      return paid.eq(0) && profit.eq(stake.neg());
    case 'tie':
    case 'void':
      return paid.eq(stake) && profit.eq(0);
    case 'win': {
      const exact = stake.times(toBig(order.profit_ratio) ?? 0).div(100);
      const gross = profit.plus(toBig(order.fee) ?? 0);
      const shortBy = exact.minus(gross);
      return paid.eq(stake.plus(profit)) && profit.gte(0) && shortBy.gte(0) && shortBy.lt(PROFIT_ROUNDING);
    }
  }
}

/** Every check of a settled order's proof; `digest` null: the chain is left unknown. */
export async function verifyProof(proof: SettledProof, digest: Digest | null): Promise<ProofCheck> {
  const { order, anchor, ticks, verdict } = proof;
  const logged = anchor ? [anchor, ...ticks] : [...ticks];
  const broken = digest ? await checkChain(logged, order.match_id, digest) : null;
  const chained = digest ? broken === null : null;
  const decision = decide(order, ticks);

  const first = ticks[0] ?? null;
  let entryFirst: boolean | null = null;
  if (first && anchor) entryFirst = anchor.time <= order.accepted_at && first.seq === anchor.seq + 1 && first.time > order.accepted_at;
  else if (first && first.prev_hash === GENESIS_HASH) entryFirst = first.time > order.accepted_at;

  let exitLast: boolean | null = null;
  if (decision.exit && decision.end !== null) {
    const next = ticks[ticks.indexOf(decision.exit) + 1];
    if (next) exitLast = next.time > decision.end;
  }

  const entryId = decision.entry?.id ?? null;
  const exitId = decision.exit?.id ?? null;
  const matches =
    decision.outcome === verdict.outcome &&
    (order.outcome === null || order.outcome === verdict.outcome) &&
    entryId === (verdict.entry_tick_id ?? null) &&
    exitId === (verdict.exit_tick_id ?? null) &&
    sameAmount(decision.entry?.price ?? null, verdict.open_price ?? null) &&
    sameAmount(decision.exit?.price ?? null, verdict.end_price ?? null) &&
    sameAmount(order.payout, verdict.payout) &&
    sameAmount(order.fact_profits, verdict.fact_profits);
  const paid = checkPayout(decision.outcome, order, order.payout, order.fact_profits);

  const verified = chained !== false && entryFirst !== false && exitLast !== false && matches && paid;
  return { chained, broken, entryFirst, exitLast, decision, matches, paid, verified };
}
