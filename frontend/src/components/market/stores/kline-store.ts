/**
 * Candles of the current pair and period: a history load from market/kline, then a refresh every
 * 10 s (spec §9) and live KLINE.{symbol} pushes for the shown period. The periods offered and where
 * the chosen one is remembered are the screen's (spot by default).
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { CHART_PERIODS, type ChartPeriod, HISTORY_BARS, KLINE_REFRESH_MS, periodOf } from '../chart/periods';
import type { MarketApi } from '../market-api';
import { readLocal, TRADE_STORAGE_KEYS, writeLocal } from '../saved-pair';
import type { KlineBar, KlinePush } from '../types';
import type { PairMarketStore } from './pair-market-store';

export interface KlineOptions {
  /** The period buttons (spot: the "Chart" ones). */
  periods?: readonly ChartPeriod[];
  /** Where the chosen period is remembered. */
  periodKey?: string;
  now?: () => number;
}

/** Bars sorted by time, one per time; `incoming` wins over `current` for the same time. */
export function mergeBars(current: readonly KlineBar[], incoming: readonly KlineBar[]): KlineBar[] {
  if (incoming.length === 0) return [...current];
  const byTime = new Map<number, KlineBar>();
  for (const bar of current) byTime.set(bar.time, bar);
  for (const bar of incoming) byTime.set(bar.time, bar);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/** Spec trading §8: a chart refresh that receives fewer than 2 bars is an error. */
export const MIN_REFRESH_BARS = 2;

function barOf(push: KlinePush): KlineBar {
  const { time, open, high, low, close, volume } = push;
  return { time, open, high, low, close, volume };
}

export class KlineStore {
  periodKey: string;
  bars: KlineBar[] = [];
  loading = false;
  /** Grows with every full load, so the chart resets its zoom only then. */
  version = 0;
  /**
   * The last refresh came back with fewer than MIN_REFRESH_BARS bars (spec trading §8: an error when
   * the chart refresh receives fewer than 2 bars): the bars may have a gap, so the next tick loads the
   * whole window again; cleared by that load.
   */
  short = false;

  readonly periods: readonly ChartPeriod[];
  private readonly storageKey: string;
  private readonly api: MarketApi;
  private readonly market: PairMarketStore;
  private readonly now: () => number;
  private request = 0;
  private loadedFor: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(api: MarketApi, market: PairMarketStore, options: KlineOptions = {}) {
    this.api = api;
    this.market = market;
    this.now = options.now ?? Date.now;
    this.periods = options.periods ?? CHART_PERIODS;
    this.storageKey = options.periodKey ?? TRADE_STORAGE_KEYS.chartPeriod;
    this.periodKey = periodOf(readLocal(this.storageKey), this.periods).key;
    makeAutoObservable<KlineStore, 'storageKey' | 'api' | 'market' | 'now' | 'request' | 'loadedFor' | 'timer'>(this, {
      periods: false,
      storageKey: false,
      api: false,
      market: false,
      now: false,
      request: false,
      loadedFor: false,
      timer: false,
    });
  }

  get period(): ChartPeriod {
    return periodOf(this.periodKey, this.periods);
  }

  setPeriod(key: string): void {
    const period = periodOf(key, this.periods);
    if (period.key === this.periodKey) return;
    this.periodKey = period.key;
    writeLocal(this.storageKey, period.key);
    void this.load();
  }

  /** The history window of the current pair and period. */
  async load(): Promise<void> {
    const pair = this.market.pair;
    if (!pair) return;
    const period = this.period;
    const key = `${pair.id}:${period.api}`;
    const request = ++this.request;
    if (this.loadedFor !== key) this.bars = [];
    this.loading = true;
    const to = this.now();
    try {
      const bars = await this.api.kline({
        pairId: pair.id,
        symbol: pair.symbol,
        period: period.api,
        from: Math.floor((to - HISTORY_BARS * period.ms) / 1000),
        to: Math.floor(to / 1000),
      });
      if (request !== this.request) return;
      runInAction(() => {
        this.bars = mergeBars([], bars);
        this.loadedFor = key;
        this.version += 1;
        this.short = false;
      });
    } catch {
      /* the 10 s refresh tries again */
    } finally {
      if (request === this.request) runInAction(() => (this.loading = false));
    }
  }

  /**
   * The periodic refresh: the bars from the one before the last, merged. That window always holds two
   * bars the chart already has, so an answer with fewer than MIN_REFRESH_BARS is an error (`short`)
   * and the next tick reloads the whole window. With fewer than two bars held (a new pair) it asks
   * from the last one and any answer is taken.
   */
  async refresh(): Promise<void> {
    const pair = this.market.pair;
    const period = this.period;
    if (!pair || this.loading) return;
    const key = `${pair.id}:${period.api}`;
    if (this.loadedFor !== key || this.bars.length === 0 || this.short) {
      await this.load();
      return;
    }
    const request = this.request;
    const held = this.bars.length;
    const lastTime = this.bars[Math.max(held - MIN_REFRESH_BARS, 0)]!.time;
    const to = this.now();
    try {
      const bars = await this.api.kline(
        {
          pairId: pair.id,
          symbol: pair.symbol,
          period: period.api,
          from: Math.floor(lastTime / 1000),
          to: Math.floor(to / 1000),
        },
        { quiet: true },
      );
      if (request !== this.request || this.loadedFor !== key) return;
      runInAction(() => {
        if (held >= MIN_REFRESH_BARS && bars.length < MIN_REFRESH_BARS) this.short = true;
        else this.bars = mergeBars(this.bars, bars);
      });
    } catch {
      /* next tick */
    }
  }

  /** KLINE push: the bar of one period; only the shown pair and period are kept. */
  onKline(push: KlinePush): void {
    const pair = this.market.pair;
    if (!pair || push.symbol !== pair.symbol || push.period !== this.period.api) return;
    if (this.loadedFor !== `${pair.id}:${this.period.api}`) return;
    const last = this.bars[this.bars.length - 1];
    const bar = barOf(push);
    if (last && last.time === bar.time) this.bars[this.bars.length - 1] = bar;
    else if (!last || bar.time > last.time) this.bars.push(bar);
    else this.bars = mergeBars(this.bars, [bar]);
  }

  start(): void {
    this.stop();
    this.timer = setInterval(() => void this.refresh(), KLINE_REFRESH_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  dispose(): void {
    this.stop();
    this.request += 1;
  }
}
