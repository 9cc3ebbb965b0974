/**
 * The second-contract screen (/second, token required; lazily loaded with ECharts). Creates its
 * stores when opened; while shown it is logged in on the socket and subscribed to DAY_MARKET, KLINE
 * and MARK of the pair and to the user's MICRO_CLOSED, and unsubscribes when left (spec §4 "Live
 * channels").
 */
import { observer } from 'mobx-react-lite';
import { useState } from 'react';

import { TabBar } from '@/components/market/tab-bar';
import { TradingScreen } from '@/components/market/trading-screen';
import type { DayMarketPush, KlinePush, MarkPush } from '@/components/market/types';
import { useUserScreen } from '@/components/market/use-screen';
import { getSocket, useChannel } from '@/lib/socket';

import { HistoryPanel } from './components/history-panel';
import { MicroOrderPanel } from './components/order-panel';
import { MicroPageContext, MicroPageStore } from './stores/micro-page-store';
import type { MicroClosedPush } from './types';

import './i18n';
import '@/components/market/market.css';
import './micro.css';

const LiveChannels = observer(function LiveChannels({ store }: { store: MicroPageStore }) {
  const symbol = store.market.symbol;
  const socket = getSocket();
  useChannel<DayMarketPush>('DAY_MARKET', (m) => store.market.onDayMarket(m), socket);
  useChannel<KlinePush>(symbol && `KLINE.${symbol}`, (m) => store.kline.onKline(m), socket);
  useChannel<MarkPush>(symbol && `MARK.${symbol}`, (m) => store.onMark(m), socket);
  useChannel<MicroClosedPush>('MICRO_CLOSED', (m) => m.order && store.onClosed(m.order), socket);
  return null;
});

/** The pairs offering second contracts, as tabs with their live price. */
const PairTabs = observer(function PairTabs({ store }: { store: MicroPageStore }) {
  const market = store.market;
  return (
    <section className="tp-panel sc-pairs" data-testid="second-pairs">
      <TabBar
        tabs={market.quotePairs.map((p) => ({
          key: p.id,
          label: p.symbol,
          testId: `second-pair-${p.base_currency_code}`,
        }))}
        active={market.pairId}
        onSelect={(id) => market.selectPair(id)}
      />
    </section>
  );
});

export default observer(function MicroPage() {
  const [store] = useState(() => new MicroPageStore());
  useUserScreen(store);

  return (
    <MicroPageContext.Provider value={store}>
      <LiveChannels store={store} />
      <TradingScreen
        page="second-page"
        store={store}
        aboveHeader={<PairTabs store={store} />}
        side={<MicroOrderPanel />}
        bottom={<HistoryPanel />}
      />
    </MicroPageContext.Provider>
  );
});
