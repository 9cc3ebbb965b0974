/**
 * Chart periods (spec "Chart", §9): button key → the period name the API and pushes use. The spot
 * page has the buttons of "Chart"; the lever and second screens the resolutions of §9.
 */

export interface ChartPeriod {
  /** Button and storage key. */
  key: string;
  /** Period sent to market/kline and carried by KLINE pushes (canonical names). */
  api: string;
  /** Bucket length in ms (a month is taken as 31 days: only used to size the history window). */
  ms: number;
  /** The Time view draws a line of 1-minute closes instead of candles. */
  line?: boolean;
}

const MIN = 60_000;
const DAY = 1_440 * MIN;

export const CHART_PERIODS: readonly ChartPeriod[] = [
  { key: 'time', api: '1min', ms: MIN, line: true },
  { key: '1min', api: '1min', ms: MIN },
  { key: '5min', api: '5min', ms: 5 * MIN },
  { key: '15min', api: '15min', ms: 15 * MIN },
  { key: '30min', api: '30min', ms: 30 * MIN },
  { key: '1hour', api: '60min', ms: 60 * MIN },
  { key: '1day', api: '1day', ms: DAY },
  { key: '1week', api: '1week', ms: 7 * DAY },
  { key: '1mon', api: '1mon', ms: 31 * DAY },
];

/** Spec §9: "Resolutions on the lever and second feeds: 1, 3, 5, 15, 30, 60, 120, 240, 360, 720, 1D, 3D, 1W, 1M". */
export const CONTRACT_CHART_PERIODS: readonly ChartPeriod[] = [
  { key: '1min', api: '1min', ms: MIN },
  { key: '3min', api: '3min', ms: 3 * MIN },
  { key: '5min', api: '5min', ms: 5 * MIN },
  { key: '15min', api: '15min', ms: 15 * MIN },
  { key: '30min', api: '30min', ms: 30 * MIN },
  { key: '1hour', api: '60min', ms: 60 * MIN },
  { key: '2hour', api: '120min', ms: 120 * MIN },
  { key: '4hour', api: '240min', ms: 240 * MIN },
  { key: '6hour', api: '360min', ms: 360 * MIN },
  { key: '12hour', api: '720min', ms: 720 * MIN },
  { key: '1day', api: '1day', ms: DAY },
  { key: '3day', api: '3day', ms: 3 * DAY },
  { key: '1week', api: '1week', ms: 7 * DAY },
  { key: '1mon', api: '1mon', ms: 31 * DAY },
];

/** Both sets have it; spec §9: "Chart default period 1min". */
export const DEFAULT_PERIOD_KEY = '1min';
/** Bars asked for on a history load. */
export const HISTORY_BARS = 300;
/** Periodic refresh of the chart (spec §9). */
export const KLINE_REFRESH_MS = 10_000;
/** Chart time axis zone (spec §9). */
export const CHART_TIMEZONE = 'America/New_York';

export function periodOf(key: string | null | undefined, periods: readonly ChartPeriod[] = CHART_PERIODS): ChartPeriod {
  return periods.find((p) => p.key === key) ?? periods.find((p) => p.key === DEFAULT_PERIOD_KEY)!;
}
