/**
 * Everything the trade page holds, created when the page opens and disposed when it is left:
 * the market (pairs, ticker, book, trades), the chart's candles and the forms with the orders.
 */
import { ChartScreenStore } from '@/components/market/stores/chart-screen';
import { screenContext } from '@/components/market/use-screen';

import { createSpotApi, type SpotApi } from '../api/spot-api';
import { SpotStore } from './spot-store';

export class SpotPageStore extends ChartScreenStore {
  readonly spot: SpotStore;

  constructor(api: SpotApi = createSpotApi()) {
    super(api);
    this.spot = new SpotStore(api, this.market);
  }

  protected onPairChanged(): void {
    this.spot.onPairChanged();
  }

  protected startOwn(): void {}

  protected reconnectOwn(): void {
    this.spot.onReconnected();
  }

  protected disposeOwn(): void {
    this.spot.dispose();
  }
}

export const [SpotPageContext, useSpotPage] = screenContext<SpotPageStore>('spot page');
