/** Chart periods of the spot page (spec "Chart"): button key → the period name the API and pushes use. */

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

export const DEFAULT_PERIOD_KEY = '1min';
/** Bars asked for on a history load. */
export const HISTORY_BARS = 300;
/** Periodic refresh of the chart (spec §9). */
export const KLINE_REFRESH_MS = 10_000;
/** Chart time axis zone (spec §9). */
export const CHART_TIMEZONE = 'America/New_York';

export function periodOf(key: string | null | undefined): ChartPeriod {
  return CHART_PERIODS.find((p) => p.key === key) ?? CHART_PERIODS.find((p) => p.key === DEFAULT_PERIOD_KEY)!;
}
