/**
 * What every chart screen (trade, lever, second) holds and does the same way: the market of the
 * pairs it lists and the chart's candles, following the pair, started when the page opens,
 * refreshed after a socket reconnect and disposed when it is left. A screen adds its own stores
 * through the four hooks.
 */
import { reaction } from 'mobx';

import type { MarketApi } from '../market-api';
import { KlineStore, type KlineOptions } from './kline-store';
import { type MarketOptions, PairMarketStore } from './pair-market-store';

/** What a screen's hooks (`use-screen.ts`) drive: started when it opens, disposed when it is left. */
export interface ScreenStore {
  start(): void;
  /** The socket came back after a drop: pushes were missed. */
  onReconnected(): void;
  dispose(): void;
}

export abstract class ChartScreenStore implements ScreenStore {
  readonly market: PairMarketStore;
  readonly kline: KlineStore;
  private readonly disposers: (() => void)[] = [];

  protected constructor(api: MarketApi, options: { market?: MarketOptions; kline?: KlineOptions } = {}) {
    this.market = new PairMarketStore(api, options.market);
    this.kline = new KlineStore(api, this.market, options.kline);
  }

  /** Another pair opened (its candles are loading): the screen's stores follow. */
  protected abstract onPairChanged(): void;
  /** Start the screen's own stores (just before the pairs load). */
  protected abstract startOwn(): void;
  /** The socket came back: refetch what pushes would have updated meanwhile. */
  protected abstract reconnectOwn(): void;
  protected abstract disposeOwn(): void;

  /** Follow pair changes, start the chart refresh and the screen's stores, then load the pairs (which opens the default one). */
  start(): void {
    this.disposers.push(
      reaction(
        () => this.market.pairId,
        () => {
          void this.kline.load();
          this.onPairChanged();
        },
      ),
    );
    this.kline.start();
    this.startOwn();
    void this.market.load();
  }

  onReconnected(): void {
    this.market.onReconnected();
    void this.kline.refresh();
    this.reconnectOwn();
  }

  dispose(): void {
    this.disposers.splice(0).forEach((dispose) => dispose());
    this.market.dispose();
    this.kline.dispose();
    this.disposeOwn();
  }
}
