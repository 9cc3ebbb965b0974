/**
 * Everything the trade page holds, created when the page opens and disposed when it is left:
 * the market (pairs, ticker, book, trades), the chart's candles and the forms with the orders.
 */
import { ChartScreenStore } from '@/components/market/stores/chart-screen';
import { screenContext } from '@/components/market/use-screen';

import { createTradeApi, type TradeApi } from '../api/trade-api';
import { TradeStore } from './trade-store';

export class TradePageStore extends ChartScreenStore {
  readonly trade: TradeStore;

  constructor(api: TradeApi = createTradeApi()) {
    super(api);
    this.trade = new TradeStore(api, this.market);
  }

  protected onPairChanged(): void {
    this.trade.onPairChanged();
  }

  protected startOwn(): void {}

  protected reconnectOwn(): void {
    this.trade.onReconnected();
  }

  protected disposeOwn(): void {
    this.trade.dispose();
  }
}

export const [TradePageContext, useTradePage] = screenContext<TradePageStore>('trade page');
