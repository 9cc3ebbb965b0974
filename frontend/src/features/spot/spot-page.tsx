/**
 * The spot trade page (/trade, lazily loaded with ECharts). Creates its stores when opened,
 * subscribes to the pair's live channels while shown and unsubscribes when left (spec §2).
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';

import { OrderBook } from '@/components/market/order-book';
import { TradingScreen } from '@/components/market/trading-screen';
import { useScreen } from '@/components/market/use-screen';
import { getSocket, useChannel } from '@/lib/socket';

import { OrderForm } from './components/order-form';
import { OrderPanel } from './components/order-panel';
import { RecentTrades } from './components/recent-trades';
import { useSessionToken } from './lib/hooks';
import { SpotPageContext, SpotPageStore } from './stores/spot-page-store';
import type {
  DayMarketPush,
  DepthPush,
  GlobalTxPush,
  KlinePush,
  TxMatchedPush,
  TxSubmitPush,
} from './types';

import '@/components/market/market.css';
import './spot.css';

/** The live channels of the page: public ones per pair, the user's order events when logged in. */
const LiveChannels = observer(function LiveChannels({ store, loggedIn }: { store: SpotPageStore; loggedIn: boolean }) {
  const symbol = store.market.symbol;
  const socket = getSocket();
  useChannel<DayMarketPush>('DAY_MARKET', (m) => store.market.onDayMarket(m), socket);
  useChannel<DepthPush>(symbol && `MARKET_DEPTH.${symbol}`, (m) => store.market.onDepth(m), socket);
  useChannel<GlobalTxPush>(symbol && `GLOBAL_TX.${symbol}`, (m) => store.market.onTrades(m), socket);
  useChannel<KlinePush>(symbol && `KLINE.${symbol}`, (m) => store.kline.onKline(m), socket);
  useChannel<TxSubmitPush>(loggedIn ? 'TX_SUBMIT' : null, (m) => store.spot.onTxSubmit({ ...m.order, way: m.way ?? m.order.way }), socket);
  useChannel<TxMatchedPush>(loggedIn ? 'TX_MATCHED' : null, (m) => store.spot.onTxMatched(m.order), socket);
  return null;
});

export default function SpotPage() {
  const [store] = useState(() => new SpotPageStore());
  const token = useSessionToken();
  const loggedIn = Boolean(token);

  useScreen(store);

  useEffect(() => {
    store.spot.setLoggedIn(loggedIn);
    // The socket logs in (or out) with the current token before the user channels are subscribed.
    getSocket().syncLogin();
  }, [store, loggedIn, token]);

  return (
    <SpotPageContext.Provider value={store}>
      <LiveChannels store={store} loggedIn={loggedIn} />
      <TradingScreen
        page="trade-page"
        store={store}
        pairList
        belowChart={<OrderForm />}
        side={
          <>
            <OrderBook market={store.market} onPick={(price) => store.spot.fillPrice(price)} />
            <RecentTrades />
          </>
        }
        bottom={<OrderPanel />}
      />
    </SpotPageContext.Provider>
  );
}
