/**
 * The leveraged-contract screen (/lever, token required; lazily loaded with ECharts). Creates its
 * stores when opened; while shown it is logged in on the socket and subscribed to DAY_MARKET,
 * MARKET_DEPTH, KLINE and MARK of the pair and to the user's LEVER_TRADE and LEVER_CLOSED, and
 * unsubscribes when left (spec §4 "Live channels").
 */
import { observer } from 'mobx-react-lite';
import { useState } from 'react';

import { OrderBook } from '@/components/market/order-book';
import { TradingScreen } from '@/components/market/trading-screen';
import type { DayMarketPush, DepthPush, KlinePush, MarkPush } from '@/components/market/types';
import { useUserScreen } from '@/components/market/use-screen';
import { getSocket, useChannel } from '@/lib/socket';

import { LeverOrderPanel } from './components/order-panel';
import { PositionsPanel } from './components/positions-panel';
import { LeverPageContext, LeverPageStore } from './stores/lever-page-store';
import type { LeverClosedPush, LeverTradePush } from './types';

import './i18n';
import '@/components/market/market.css';
import './lever.css';

/** The book shares its column with the order panel: fewer levels keep both beside the chart. */
const BOOK_LEVELS = 6;

const LiveChannels = observer(function LiveChannels({ store }: { store: LeverPageStore }) {
  const symbol = store.market.symbol;
  const socket = getSocket();
  useChannel<DayMarketPush>('DAY_MARKET', (m) => store.market.onDayMarket(m), socket);
  useChannel<DepthPush>(symbol && `MARKET_DEPTH.${symbol}`, (m) => store.market.onDepth(m), socket);
  useChannel<KlinePush>(symbol && `KLINE.${symbol}`, (m) => store.kline.onKline(m), socket);
  useChannel<MarkPush>(symbol && `MARK.${symbol}`, (m) => store.onMark(m), socket);
  useChannel<LeverTradePush>('LEVER_TRADE', (m) => m.position && store.positions.onTrade(m.position), socket);
  useChannel<LeverClosedPush>('LEVER_CLOSED', (m) => m.position && store.positions.onClosed(m.position), socket);
  return null;
});

export default observer(function LeverPage() {
  const [store] = useState(() => new LeverPageStore());
  useUserScreen(store);

  return (
    <LeverPageContext.Provider value={store}>
      <LiveChannels store={store} />
      <TradingScreen
        page="lever-page"
        store={store}
        pairList
        side={
          <>
            <LeverOrderPanel />
            <OrderBook market={store.market} levels={BOOK_LEVELS} onPick={(price) => store.order.fillPrice(price)} />
          </>
        }
        bottom={<PositionsPanel />}
      />
    </LeverPageContext.Provider>
  );
});
