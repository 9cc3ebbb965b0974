/**
 * Everything the lever screen holds, created when the page opens and disposed when it is left: the
 * market of the open-lever pairs (shared with the trade page: pair list, book, ticker), the chart's
 * candles at the lever resolutions (spec §9), the order panel and the positions.
 */
import { CONTRACT_CHART_PERIODS } from '@/components/market/chart/periods';
import { ChartScreenStore } from '@/components/market/stores/chart-screen';
import { screenContext } from '@/components/market/use-screen';
import type { MarkPush, Pair } from '@/components/market/types';

import { createLeverApi, type LeverApi } from '../api/lever-api';
import { LeverOrderStore } from './order-store';
import { PositionsStore } from './positions-store';

/** The pairs the lever screen lists: open_lever = 1. */
export const offersLever = (pair: Pair): boolean => Number(pair.open_lever) === 1;

/** Where the screen remembers its pair and chart period (not the spot page's: other pairs, other periods). */
export const LEVER_STORAGE_KEYS = { pair: 'lever_tradeinfo', chartPeriod: 'lever_chart_period' } as const;

export class LeverPageStore extends ChartScreenStore {
  readonly order: LeverOrderStore;
  readonly positions: PositionsStore;

  constructor(api: LeverApi = createLeverApi()) {
    super(api, {
      market: { listed: offersLever, pairKey: LEVER_STORAGE_KEYS.pair },
      kline: { periods: CONTRACT_CHART_PERIODS, periodKey: LEVER_STORAGE_KEYS.chartPeriod },
    });
    this.positions = new PositionsStore(api, this.market, () => this.order.scheduleReload());
    this.order = new LeverOrderStore(api, this.market, (position) => this.positions.onTrade(position));
  }

  /** MARK.{symbol}: the order preview and the open rows follow the mark. */
  onMark(push: MarkPush): void {
    if (typeof push.price !== 'string') return;
    this.positions.onMark(push.currency_match_id, push.price);
    if (push.currency_match_id === this.market.pairId) this.order.onMark(push.price);
  }

  protected onPairChanged(): void {
    this.order.onPairChanged();
    this.positions.onPairChanged();
  }

  protected startOwn(): void {
    this.positions.start();
  }

  protected reconnectOwn(): void {
    void this.order.loadDeal({ quiet: true });
    this.positions.onReconnected();
  }

  protected disposeOwn(): void {
    this.order.dispose();
    this.positions.dispose();
  }
}

export const [LeverPageContext, useLeverPage] = screenContext<LeverPageStore>('lever page');
