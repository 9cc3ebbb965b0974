/** Builders and a fake LeverApi for the lever store tests. */
import { vi } from 'vitest';

import { fakeMarketApi, group, pair } from '@/components/market/__tests__/fixtures';
import type { Pair, QuoteGroup } from '@/components/market/types';
import type { Paginated } from '@/types/api';

import type { LeverApi } from '../api/lever-api';
import type { LeverDeal, Position } from '../types';

export { deal, flush, group, pair } from '@/components/market/__tests__/fixtures';

/** A lever pair: 0.01 base a hand, 0.1 % fee, 0.05 % spread (as seeded for BTC/USDT). */
export function leverPair(id: number, base: string, over: Partial<Pair> = {}): Pair {
  return pair(id, base, 'USDT', {
    open_lever: 1,
    lever_share_num: '0.01',
    lever_fee_rate: '0.001',
    lever_point_rate: '0.05',
    ...over,
  });
}

export const btc = () => leverPair(1, 'BTC');
export const eth = () => leverPair(2, 'ETH', { lever_share_num: '0.1' });
/** A spot-only pair: not listed on the lever screen. */
export const ltc = () => leverPair(3, 'LTC', { open_lever: 0 });
export const usdtGroups = (): QuoteGroup[] => [group(10, 'USDT', [btc(), eth(), ltc()])];

export function leverDeal(over: Partial<LeverDeal> = {}): LeverDeal {
  return {
    user_lever: '1000',
    multiple: {
      muit: [5, 10, 20, 50, 100, 200],
      share: [1, 2, 5, 10, 20, 50].map((n) => ({ value: n, label: String(n) })),
    },
    my_transaction: [],
    mark: '60000',
    hazard_rate: null,
    ...over,
  };
}

export function position(id: number, over: Partial<Position> = {}): Position {
  return {
    id,
    currency_match_id: 1,
    symbol: 'BTC/USDT',
    type: 1,
    status: 1,
    share: 1,
    multiple: 10,
    number: '0.01',
    price: '60000',
    origin_price: '60000',
    target_price: '0',
    caution_money: '60',
    origin_caution_money: '60',
    trade_fee: '0.6',
    overnight_money: '0',
    target_profit_price: '0',
    stop_loss_price: '0',
    update_price: '60000',
    profits: '0',
    close_price: '0',
    close_reason: null,
    time: 1_700_000_000_000 + id,
    ...over,
  };
}

/** One page of 10 (the total may say there are more). */
export function page<T>(data: T[], total = data.length): Paginated<T> {
  return { data, total, per_page: 10, current_page: 1, last_page: Math.max(1, Math.ceil(total / 10)) };
}

export type FakeLeverApi = { [K in keyof LeverApi]: ReturnType<typeof vi.fn<LeverApi[K]>> };

export function fakeLeverApi(groups: QuoteGroup[] = usdtGroups()): FakeLeverApi {
  return {
    ...fakeMarketApi(groups),
    leverDeal: vi.fn<LeverApi['leverDeal']>().mockResolvedValue(leverDeal()),
    submit: vi.fn<LeverApi['submit']>().mockImplementation(async (body) =>
      position(900, { type: body.type, share: body.share, multiple: body.multiple, status: body.status === 1 ? 1 : 0 }),
    ),
    cancel: vi.fn<LeverApi['cancel']>().mockImplementation(async (id) => position(id, { status: 4, close_reason: 'cancelled' })),
    close: vi.fn<LeverApi['close']>().mockImplementation(async (id) =>
      position(id, { status: 3, close_reason: 'manual', close_price: '61000', profits: '10' }),
    ),
    setStop: vi.fn<LeverApi['setStop']>().mockImplementation(async (id, tp, sl) =>
      position(id, { target_profit_price: tp || '0', stop_loss_price: sl || '0' }),
    ),
    batchClose: vi.fn<LeverApi['batchClose']>().mockResolvedValue({ closed: 0, data: [] }),
    dealAll: vi.fn<LeverApi['dealAll']>().mockResolvedValue({ order: page<Position>([]), hazard_rate: null, profits_all: '0' }),
    myTrade: vi.fn<LeverApi['myTrade']>().mockResolvedValue(page<Position>([])),
  };
}
