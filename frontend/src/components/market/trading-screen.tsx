/**
 * The frame every trading screen (spot `/trade`, lever `/lever`, second contracts `/second`) draws,
 * written once so the three keep one layout: the pair list on the left (when the screen lists pairs
 * there), the pair header and the chart in the centre, the screen's own panels on the right and below.
 * `market.css` lays out the `tp-*` areas; the page's class and test id (`trade-page`, …) name it for
 * its own styles and the browser tests.
 */
import type { ReactNode } from 'react';

import { KlineChart } from './chart/kline-chart';
import { PairHeader } from './pair-header';
import { PairList } from './pair-list';
import type { ChartScreenStore } from './stores/chart-screen';

export interface TradingScreenProps {
  /** The page's class and test id: `trade-page`, `lever-page`, `second-page`. */
  page: string;
  /** The market and the chart the frame shows. */
  store: ChartScreenStore;
  /** The pair list on the left (trade, lever); a screen with its own pair picker leaves it out. */
  pairList?: boolean;
  /** Above the pair header (the second-contract pair tabs). */
  aboveHeader?: ReactNode;
  /** Under the chart (the spot order form). */
  belowChart?: ReactNode;
  /** The right column: the order panel, the order book. */
  side: ReactNode;
  /** Under everything: the orders, positions or history. */
  bottom: ReactNode;
}

export function TradingScreen({ page, store, pairList = false, aboveHeader, belowChart, side, bottom }: TradingScreenProps) {
  return (
    <div className={`market-screen ${page}`} data-testid={page}>
      {pairList && (
        <aside className="tp-left">
          <PairList market={store.market} />
        </aside>
      )}
      <div className="tp-center">
        {aboveHeader}
        <PairHeader market={store.market} />
        <KlineChart kline={store.kline} market={store.market} />
        {belowChart}
      </div>
      <aside className="tp-right">{side}</aside>
      <div className="tp-bottom">{bottom}</div>
    </div>
  );
}
