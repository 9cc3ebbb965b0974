/**
 * What the market screens keep in the browser (spec trading §3 "client-side storage"): the chosen
 * pair as `tradeinfo` and the chart period (the lever screen keeps its own under other keys, since
 * it lists other pairs and periods). The session token is read through `@/lib/storage`.
 */
import type { Pair, QuoteGroup } from './types';

export const TRADE_STORAGE_KEYS = {
  tradeInfo: 'tradeinfo',
  chartPeriod: 'chart_period',
} as const;

/** Which pairs a screen lists and may open. */
export type PairFilter = (pair: Pair) => boolean;

/** The saved pair, in the field names the spec gives it. */
export interface TradeInfo {
  currencyName: string;
  currencyId: number;
  legalName: string;
  legalId: number;
  symbol: string;
  mathid: number;
}

function local(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export function readLocal(key: string): string | null {
  try {
    return local()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeLocal(key: string, value: string): void {
  try {
    local()?.setItem(key, value);
  } catch {
    /* quota or privacy mode: the choice is simply not remembered */
  }
}

export function tradeInfoOf(pair: Pair): TradeInfo {
  return {
    currencyName: pair.base_currency_code,
    currencyId: pair.base_currency_id,
    legalName: pair.quote_currency_code,
    legalId: pair.quote_currency_id,
    symbol: pair.symbol,
    mathid: pair.id,
  };
}

export function saveTradeInfo(pair: Pair, key: string = TRADE_STORAGE_KEYS.tradeInfo): void {
  writeLocal(key, JSON.stringify(tradeInfoOf(pair)));
}

export function loadTradeInfo(key: string = TRADE_STORAGE_KEYS.tradeInfo): TradeInfo | null {
  const raw = readLocal(key);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<TradeInfo> | null;
    return value && typeof value.mathid === 'number' ? (value as TradeInfo) : null;
  } catch {
    return null;
  }
}

/** Open for spot trading: the trade page's pairs. */
export const isOpen: PairFilter = (pair) => Number(pair.open_change) === 1;

/**
 * The pair the page opens on (spec §4): the saved one if it is still open (`listed`), else the first
 * pair of the first quote group (its first open one; groups without open pairs are skipped).
 */
export function pickDefaultPair(groups: QuoteGroup[], saved: TradeInfo | null, listed: PairFilter = isOpen): Pair | null {
  if (saved) {
    for (const group of groups) {
      const match = group.matches.find((m) => m.id === saved.mathid);
      if (match && listed(match)) return match;
    }
  }
  for (const group of groups) {
    const first = group.matches.find(listed);
    if (first) return first;
  }
  return null;
}
