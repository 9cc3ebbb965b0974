/**
 * Everything the trade page holds, created when the page opens and disposed when it is left:
 * the market (pairs, ticker, book, trades), the chart's candles and the forms with the orders.
 */
import { reaction } from 'mobx';

import { KlineStore } from '@/components/market/stores/kline-store';
import { MarketStore } from '@/components/market/stores/market-store';
import { screenContext } from '@/components/market/use-screen';

import { createTradeApi, type TradeApi } from '../api/trade-api';
import { TradeStore } from './trade-store';

export class TradePageStore {
  readonly market: MarketStore;
  readonly kline: KlineStore;
  readonly trade: TradeStore;
  private readonly disposers: (() => void)[] = [];

  constructor(api: TradeApi = createTradeApi()) {
    this.market = new MarketStore(api);
    this.kline = new KlineStore(api, this.market);
    this.trade = new TradeStore(api, this.market);
  }

  /** Load the pairs (which opens the default pair) and start the chart refresh. */
  start(): void {
    this.disposers.push(
      reaction(
        () => this.market.pairId,
        () => {
          void this.kline.load();
          this.trade.onPairChanged();
        },
      ),
    );
    this.kline.start();
    void this.market.load();
  }

  /** The socket reconnected: refetch what pushes would have updated meanwhile. */
  onReconnected(): void {
    this.market.onReconnected();
    void this.kline.refresh();
    this.trade.onReconnected();
  }

  dispose(): void {
    this.disposers.splice(0).forEach((dispose) => dispose());
    this.market.dispose();
    this.kline.dispose();
    this.trade.dispose();
  }
}

export const [TradePageContext, useTradePage] = screenContext<TradePageStore>('trade page');
