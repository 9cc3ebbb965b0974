import { useEffect } from 'react';

import { pollingDayMarketFeed, socketDayMarketFeed } from '@/lib/day-market-feed';
import { getSocket } from '@/lib/socket';
import { useStores } from '@/stores/root-store';

/**
 * Loads the pairs once and keeps their quotations live while the calling page is mounted:
 * DAY_MARKET over the socket, a 10 s poll while the socket is down. Leaving the page unsubscribes.
 */
export function useLiveMarket(): void {
  const { market } = useStores();
  useEffect(() => {
    if (market.status === 'idle' || market.status === 'error') void market.load();
    const poll = pollingDayMarketFeed(async () => {
      if (market.status === 'ready') return market.fetchGroups();
      await market.load(); // nothing shown yet: load the whole list
      return undefined;
    });
    return market.watch(socketDayMarketFeed(getSocket(), poll));
  }, [market]);
}
