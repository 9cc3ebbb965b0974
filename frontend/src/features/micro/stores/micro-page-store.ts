/**
 * Everything the second-contract screen holds, created when the page opens and disposed when it is
 * left: the market of the pairs offering second contracts (shared with the trade and lever screens:
 * tabs, ticker), the chart's candles at the contract resolutions (spec §9), the order panel, the
 * history with its countdowns, and the proof dialog.
 */
import { CONTRACT_CHART_PERIODS } from '@/components/market/chart/periods';
import { ChartScreenStore } from '@/components/market/stores/chart-screen';
import type { MarkPush, Pair } from '@/components/market/types';
import { screenContext } from '@/components/market/use-screen';

import { createMicroApi, type MicroApi } from '../api/micro-api';
import type { MicroOrder } from '../types';
import { HistoryStore } from './history-store';
import { MicroOrderStore } from './order-store';
import { ProofStore } from './proof-store';

/** Stakes and payouts are in USDT: only USDT-quoted pairs offer second contracts (spec §5). */
export const MICRO_QUOTE = 'USDT';

/** The pairs the screen lists: open_microtrade = 1 with a USDT quote. */
export const offersSeconds = (pair: Pair): boolean =>
  Number(pair.open_microtrade) === 1 && pair.quote_currency_code === MICRO_QUOTE;

/** Where the screen remembers its pair and chart period (its own: other pairs than spot, other periods). */
export const MICRO_STORAGE_KEYS = { pair: 'second_tradeinfo', chartPeriod: 'second_chart_period' } as const;

export class MicroPageStore extends ChartScreenStore {
  readonly order: MicroOrderStore;
  readonly history: HistoryStore;
  readonly proof: ProofStore;

  constructor(api: MicroApi = createMicroApi()) {
    super(api, {
      market: { listed: offersSeconds, pairKey: MICRO_STORAGE_KEYS.pair },
      kline: { periods: CONTRACT_CHART_PERIODS, periodKey: MICRO_STORAGE_KEYS.chartPeriod },
    });
    this.history = new HistoryStore(api, () => this.market.pairId);
    this.order = new MicroOrderStore(api, this.market, (order) => this.history.onPlaced(order));
    this.proof = new ProofStore(api);
  }

  /** MARK.{symbol}: the price contracts are settled from, shown by the panel. */
  onMark(push: MarkPush): void {
    if (typeof push.price === 'string' && push.currency_match_id === this.market.pairId) this.order.onMark(push.price);
  }

  /** MICRO_CLOSED: an order settled; its payout is in the micro balance. */
  onClosed(order: MicroOrder): void {
    this.history.onClosed(order);
    this.order.scheduleReload();
  }

  protected onPairChanged(): void {
    this.order.onPairChanged();
    this.history.onPairChanged();
  }

  /** The history and the stake currencies load beside the pairs. */
  protected startOwn(): void {
    this.history.start();
    void this.order.loadCurrencies();
  }

  protected reconnectOwn(): void {
    this.order.scheduleReload(0);
    this.history.onReconnected();
  }

  protected disposeOwn(): void {
    this.order.dispose();
    this.history.dispose();
    this.proof.close();
  }
}

export const [MicroPageContext, useMicroPage] = screenContext<MicroPageStore>('second-contract page');
