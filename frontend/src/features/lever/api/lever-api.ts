/**
 * The calls of the lever screen (spec trading §7 `lever/*`, all POST with JSON) on top of the market
 * calls its chart, book and pair list read. Commands show the server's success message; background
 * reads are `quiet`.
 */
import { createMarketApi, type MarketApi, type Transport } from '@/components/market/market-api';
import { apiClient } from '@/lib/api-client';
import type { Paginated } from '@/types/api';

import type { BatchClosed, DealAll, LeverDeal, Position, Side, SubmitBody } from '../types';

export const POSITIONS_PAGE_SIZE = 10;

/** my_trade's status: 0 entrusted, 1 open, 3 closed (every pair), 5 open on one pair. */
export type TradeStatus = 0 | 1 | 3 | 5;

/** batch_close's side: 0 both, 1 long, 2 short. */
export type CloseSide = 0 | Side;

interface Quiet {
  quiet?: boolean;
}

export interface LeverApi extends MarketApi {
  leverDeal(pairId: number, options?: Quiet): Promise<LeverDeal | undefined>;
  submit(body: SubmitBody): Promise<Position | undefined>;
  cancel(id: number): Promise<Position | undefined>;
  close(id: number): Promise<Position | undefined>;
  /** Empty clears; the dialog shows a refusal itself (the call is quiet). */
  setStop(id: number, takeProfit: string, stopLoss: string): Promise<Position | undefined>;
  batchClose(side: CloseSide, pairId: number): Promise<BatchClosed | undefined>;
  dealAll(pairId: number, page: number, options?: Quiet): Promise<DealAll | undefined>;
  myTrade(status: TradeStatus, page: number, pairId: number, options?: Quiet): Promise<Paginated<Position>>;
}

const emptyPage = (): Paginated<Position> => ({
  data: [],
  total: 0,
  per_page: POSITIONS_PAGE_SIZE,
  current_page: 1,
  last_page: 1,
});

export function createLeverApi(client: Transport = apiClient): LeverApi {
  const command = <T>(path: string, body: unknown) => client.post<T>(path, body, { showMsg: true });
  return {
    ...createMarketApi(client),
    leverDeal(pairId, options) {
      return client.post<LeverDeal>('lever/deal', { currency_match_id: pairId }, { quiet: options?.quiet });
    },
    submit(body) {
      return command<Position>('lever/submit', body);
    },
    cancel(id) {
      return command<Position>('lever/cancel', { id });
    },
    close(id) {
      return command<Position>('lever/close', { id });
    },
    setStop(id, takeProfit, stopLoss) {
      return client.post<Position>(
        'lever/setstop',
        { id, target_profit_price: takeProfit, stop_loss_price: stopLoss },
        { quiet: true },
      );
    },
    batchClose(side, pairId) {
      return command<BatchClosed>('lever/batch_close', { type: side, currency_match_id: pairId });
    },
    dealAll(pairId, page, options) {
      return client.post<DealAll>('lever/dealall', { currency_match_id: pairId, page }, { quiet: options?.quiet });
    },
    async myTrade(status, page, pairId, options) {
      const data = await client.post<Paginated<Position>>(
        'lever/my_trade',
        { status, page, currency_match_id: pairId },
        { quiet: options?.quiet },
      );
      return data && Array.isArray(data.data) ? data : emptyPage();
    },
  };
}
