/** Builders, a hand-made tick chain and a fake MicroApi for the second-contract store tests. */
import { vi } from 'vitest';

import { fakeMarketApi, group, pair } from '@/components/market/__tests__/fixtures';
import type { Pair, QuoteGroup } from '@/components/market/types';

import type { MicroApi } from '../api/micro-api';
import { tickText, webDigest } from '../lib/proof';
import type { MicroOrder, MicroPage, PayableCurrency, SecondsOption, SettledProof, Tick } from '../types';

export { flush } from '@/components/market/__tests__/fixtures';

/** The hand-made log's first time (ms). */
export const T0 = 1_700_000_000_000;

export function microPair(id: number, base: string, quote = 'USDT', over: Partial<Pair> = {}): Pair {
  return pair(id, base, quote, { open_microtrade: 1, ...over });
}

export const btc = () => microPair(1, 'BTC');
export const eth = () => microPair(2, 'ETH');
/** Spot only: not listed on the second screen. */
export const ltc = () => microPair(3, 'LTC', 'USDT', { open_microtrade: 0 });
/** Offers second contracts but is not USDT-quoted: not listed either (spec §5). */
export const ethBtc = () => microPair(4, 'ETH', 'BTC');
export const microGroups = (): QuoteGroup[] => [group(10, 'USDT', [btc(), eth(), ltc()]), group(11, 'BTC', [ethBtc()])];

export function payable(over: Partial<PayableCurrency> = {}): PayableCurrency {
  return {
    id: 1,
    code: 'USDT',
    micro_account: { balance: '100.00000000' },
    micro_numbers: ['10', '50', '100', '500'].map((number) => ({ number })),
    min_number: '1',
    max_number: '10000',
    ...over,
  };
}

export const secondsOptions = (): SecondsOption[] => [
  { seconds: 30, profit_ratio: '80' },
  { seconds: 60, profit_ratio: '85' },
  { seconds: 120, profit_ratio: '90' },
];

export function microOrder(id: number, over: Partial<MicroOrder> = {}): MicroOrder {
  return {
    id,
    match_id: 1,
    symbol_name: 'BTC/USDT',
    seconds: 30,
    number: '25',
    currency_id: 1,
    currency_name: 'USDT',
    type: 1,
    status: 1,
    profit_ratio: '80',
    fee_rate: '0',
    open_price: '60000',
    end_price: null,
    fact_profits: '0',
    fee: '0',
    payout: '0',
    outcome: null,
    accepted_at: T0,
    entry_at: T0 + 100,
    end_at: T0 + 30_100,
    remain_milli_seconds: 30_000,
    entry_tick_id: 11,
    exit_tick_id: null,
    settled_at: null,
    time: T0 + id,
    ...over,
  };
}

/** One page of 10 (the total may say there are more). */
export function page(data: MicroOrder[], total = data.length): MicroPage {
  return { data, total, per_page: 10, current_page: 1, last_page: Math.max(1, Math.ceil(total / 10)) };
}

// -- a hand-made tick log -------------------------------------------------------------------------

const sha256 = webDigest()!;

/** A tick whose hash is computed from its facts, as the pair actor writes it (actors/pair/marks.py). */
export async function sealed(t: Omit<Tick, 'hash'>): Promise<Tick> {
  return { ...t, hash: await sha256(tickText({ ...t, hash: '' })!) };
}

/**
 * A chained log of pair 1: tick i (id 10 + i, seq 100 + i) at `start + times[i]` ms with `prices[i]`,
 * linked from `prev` (64 zeros: the log's first tick).
 */
export async function chain(prices: string[], times: number[], start = T0, prev = 'ab'.repeat(32)): Promise<Tick[]> {
  const ticks: Tick[] = [];
  for (const [i, price] of prices.entries()) {
    const before = ticks[i - 1];
    ticks.push(
      await sealed({
        id: 10 + i,
        currency_match_id: 1,
        seq: 100 + i,
        time: start + times[i]!,
        price,
        rule: 'impact',
        version: 2,
        prev_hash: before ? before.hash : prev,
      }),
    );
  }
  return ticks;
}

/**
 * The proof of a 30 s up order of 25 USDT at 80 % accepted at T0 + 50 ms: anchor at T0, entry at
 * T0 + 100 (60000), ticks through the end at T0 + 30100, exit at T0 + 30000 (`exitPrice`), and the
 * first tick after the end at T0 + 30500.
 */
export async function proofOf(exitPrice: string, over: { type?: 1 | 2 } = {}): Promise<SettledProof> {
  const log = await chain(['59990', '60000', '60010', exitPrice, '61000'], [0, 100, 15_000, 30_000, 30_500], T0);
  const [anchor, ...ticks] = log;
  const entry = ticks[0]!;
  const exit = ticks[2]!;
  const type = over.type ?? 1;
  const rose = Number(exitPrice) > 60000;
  const tie = Number(exitPrice) === 60000;
  const won = !tie && rose === (type === 1);
  const outcome = tie ? 'tie' : won ? 'win' : 'loss';
  // stake 25 at 80 %: a win pays 45 (net 20), a loss nothing (net -25), a tie the stake back
  const [payout, net] = ({ win: ['45', '20'], loss: ['0', '-25'], tie: ['25', '0'] } as const)[outcome];
  const order = microOrder(7, {
    type,
    status: 3,
    accepted_at: T0 + 50,
    open_price: entry.price,
    end_price: exit.price,
    entry_tick_id: entry.id,
    exit_tick_id: exit.id,
    outcome,
    payout,
    fact_profits: net,
    remain_milli_seconds: 0,
  });
  return {
    order,
    anchor: anchor!,
    ticks,
    chained: true,
    verdict: {
      outcome,
      entry_tick_id: entry.id,
      exit_tick_id: exit.id,
      open_price: entry.price,
      end_price: exit.price,
      payout,
      fact_profits: net,
    },
  };
}

// -- the fake API ---------------------------------------------------------------------------------

export type FakeMicroApi = { [K in keyof MicroApi]: ReturnType<typeof vi.fn<MicroApi[K]>> };

export function fakeMicroApi(groups: QuoteGroup[] = microGroups()): FakeMicroApi {
  return {
    ...fakeMarketApi(groups),
    payableCurrencies: vi.fn<MicroApi['payableCurrencies']>().mockResolvedValue([payable()]),
    seconds: vi.fn<MicroApi['seconds']>().mockResolvedValue(secondsOptions()),
    submit: vi.fn<MicroApi['submit']>().mockImplementation(async (body) =>
      microOrder(900, { type: body.type, seconds: body.seconds, number: body.number, open_price: null, remain_milli_seconds: body.seconds * 1000 }),
    ),
    lists: vi.fn<MicroApi['lists']>().mockResolvedValue(page([])),
    proof: vi.fn<MicroApi['proof']>().mockImplementation(() => proofOf('60500')),
  };
}
