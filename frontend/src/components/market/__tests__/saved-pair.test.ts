import { beforeEach, describe, expect, it, vi } from 'vitest';

import { MemoryStorage } from '@/test/memory-storage';

import { loadTradeInfo, pickDefaultPair, saveTradeInfo } from '../saved-pair';
import type { QuoteGroup } from '../types';
import { group, pair } from './fixtures';

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
});

describe('default pair (spec §4)', () => {
  const btc = pair(1, 'BTC', 'USDT');
  const eth = pair(2, 'ETH', 'USDT');
  const closed = pair(3, 'XRP', 'USDT', { open_change: 0 });
  const ethBtc = pair(20, 'ETH', 'BTC');
  const groups: QuoteGroup[] = [group(10, 'USDT', [btc, eth, closed]), group(11, 'BTC', [ethBtc])];

  it('is the saved pair when it is still open', () => {
    saveTradeInfo(ethBtc);
    expect(pickDefaultPair(groups, loadTradeInfo())?.id).toBe(20);
  });

  it('else the first pair of the first quote group', () => {
    expect(pickDefaultPair(groups, null)?.id).toBe(1);
    saveTradeInfo(closed);
    expect(pickDefaultPair(groups, loadTradeInfo())?.id).toBe(1);
    saveTradeInfo(pair(99, 'GONE', 'USDT'));
    expect(pickDefaultPair(groups, loadTradeInfo())?.id).toBe(1);
  });

  it('skips a first group without open pairs; none at all gives null', () => {
    const onlyClosed = group(12, 'ETH', [closed]);
    expect(pickDefaultPair([onlyClosed, ...groups], null)?.id).toBe(1);
    expect(pickDefaultPair([onlyClosed], null)).toBeNull();
    expect(pickDefaultPair([], null)).toBeNull();
  });

  it('stores tradeinfo with the spec field names and survives junk', () => {
    saveTradeInfo(btc);
    expect(JSON.parse(storage.getItem('tradeinfo')!)).toEqual({
      currencyName: 'BTC',
      currencyId: btc.base_currency_id,
      legalName: 'USDT',
      legalId: btc.quote_currency_id,
      symbol: 'BTC/USDT',
      mathid: 1,
    });
    storage.setItem('tradeinfo', '{nope');
    expect(loadTradeInfo()).toBeNull();
  });
});
