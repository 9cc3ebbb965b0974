/**
 * The ECharts option of the market chart (spec "Chart"): candles (or a line for the Time view),
 * volume, MA lines, MA-cross marks and MACD (wide screens), in light or dark colours.
 * Pure: builds a plain option object, so it is tested without a canvas.
 */
import type { EChartsCoreOption } from 'echarts/core';

import { truncate } from '@/lib/format';

import type { KlineBar } from '../types';
import { crosses, macd, movingAverage } from './indicators';
import { intlTag } from './locale';
import type { ChartPeriod } from './periods';
import { CHART_TIMEZONE } from './periods';

export const MA_PERIODS = [5, 10, 30] as const;
/** Spec trading §9: "Chart price scale 10000": prices to at least 1/10000 (a pair's finer places win). */
export const PRICE_SCALE = 10_000;
/** Spec trading §9: "volume decimal base 1e6": volumes to 1/1e6. */
export const VOLUME_BASE = 1e6;
const placesOf = (scale: number) => Math.round(Math.log10(scale));
/** The places the chart shows prices with: the spec's scale, or the pair's own when finer (at most 10). */
export function chartPriceDecimals(pairDecimals: number): number {
  return Math.min(Math.max(placesOf(PRICE_SCALE), pairDecimals), 10);
}
export const VOLUME_DECIMALS = placesOf(VOLUME_BASE);
/** Bars visible when the chart (re)loads; the rest is reached by zooming or dragging. */
export const VISIBLE_BARS = 120;

export interface ChartStudies {
  ma: boolean;
  cross: boolean;
  /** Only honoured when `wide` is true. */
  macd: boolean;
}

export interface ChartLabels {
  volume: string;
  open: string;
  high: string;
  low: string;
  close: string;
  golden: string;
  death: string;
}

export interface ChartInput {
  bars: readonly KlineBar[];
  period: ChartPeriod;
  theme: 'dark' | 'light';
  studies: ChartStudies;
  wide: boolean;
  labels: ChartLabels;
  /** The pair's price places; the chart shows at least PRICE_SCALE's. */
  priceDecimals: number;
  /** The chart locale (chart/locale.ts `chartLocale`); English when absent. */
  locale?: string;
}

export const CHART_PALETTES = {
  dark: {
    text: '#848e9c',
    line: '#2b3139',
    axisPointer: '#5e6673',
    tooltipBg: '#1e2329',
    tooltipText: '#eaecef',
    up: '#0ecb81',
    down: '#f6465d',
    price: '#f0b90b',
    ma: ['#f0b90b', '#c678dd', '#56b6c2'],
    dif: '#f0b90b',
    dea: '#56b6c2',
  },
  light: {
    text: '#707a8a',
    line: '#e0e3e7',
    axisPointer: '#a0a7b1',
    tooltipBg: '#ffffff',
    tooltipText: '#1e2329',
    up: '#03a66d',
    down: '#cf304a',
    price: '#c99400',
    ma: ['#c99400', '#9b59b6', '#1e88a8'],
    dif: '#c99400',
    dea: '#1e88a8',
  },
} as const;

function timeFormatter(period: ChartPeriod, locale: string): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions =
    period.ms < 86_400_000
      ? { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
      : period.key === '1mon'
        ? { year: 'numeric', month: '2-digit' }
        : { year: 'numeric', month: '2-digit', day: '2-digit' };
  return new Intl.DateTimeFormat(intlTag(locale), { ...options, timeZone: CHART_TIMEZONE });
}

/** Bar start times as the axis shows them (New York time, spec §9), in the chart's locale. */
export function axisLabels(bars: readonly KlineBar[], period: ChartPeriod, locale = 'en'): string[] {
  const format = timeFormatter(period, locale);
  return bars.map((b) => format.format(new Date(b.time)).replace(',', ''));
}

const num = (value: string) => Number(value);

export function buildChartOption(input: ChartInput): EChartsCoreOption {
  const { bars, period, studies, wide, labels } = input;
  const c = CHART_PALETTES[input.theme];
  const showMacd = studies.macd && wide;
  const categories = axisLabels(bars, period, input.locale);
  const closes = bars.map((b) => num(b.close));
  const decimals = chartPriceDecimals(input.priceDecimals);

  // Grids: price, volume and (optionally) MACD, stacked.
  const grids = showMacd
    ? [
        { top: 12, height: '56%' },
        { top: '66%', height: '12%' },
        { top: '82%', height: '14%' },
      ]
    : [
        { top: 12, height: '70%' },
        { top: '80%', height: '16%' },
      ];
  const gridIndexes = grids.map((_, i) => i);

  const axisLine = { lineStyle: { color: c.line } };
  const xAxis = gridIndexes.map((i) => ({
    type: 'category',
    gridIndex: i,
    data: categories,
    boundaryGap: true,
    axisLine,
    axisTick: { show: false },
    axisLabel: { show: i === gridIndexes.length - 1, color: c.text, fontSize: 11 },
    splitLine: { show: false },
    axisPointer: { label: { show: i === gridIndexes.length - 1 } },
  }));
  const yAxis = gridIndexes.map((i) => ({
    type: 'value',
    gridIndex: i,
    position: 'right',
    scale: true,
    splitNumber: i === 0 ? 5 : 2,
    axisLine: { show: false },
    axisTick: { show: false },
    axisLabel: {
      show: i === 0,
      color: c.text,
      fontSize: 11,
      formatter: (v: number) => v.toFixed(decimals),
    },
    splitLine: { show: i === 0, lineStyle: { color: c.line } },
  }));

  const series: Record<string, unknown>[] = [];
  if (period.line) {
    series.push({
      name: labels.close,
      type: 'line',
      data: closes,
      showSymbol: false,
      smooth: false,
      lineStyle: { width: 1.5, color: c.price },
      areaStyle: { color: c.price, opacity: 0.08 },
    });
  } else {
    series.push({
      name: 'K',
      type: 'candlestick',
      // ECharts order: open, close, low, high.
      data: bars.map((b) => [num(b.open), num(b.close), num(b.low), num(b.high)]),
      itemStyle: { color: c.up, color0: c.down, borderColor: c.up, borderColor0: c.down },
      barMaxWidth: 12,
    });
  }

  const averages = MA_PERIODS.map((n) => movingAverage(closes, n));
  if (studies.ma || studies.cross) {
    MA_PERIODS.forEach((n, i) => {
      const crossMarks =
        studies.cross && i === 0
          ? crosses(averages[0]!, averages[1]!).map((x) => ({
              name: x.kind === 'golden' ? labels.golden : labels.death,
              coord: [x.index, averages[0]![x.index]],
              value: x.kind === 'golden' ? '▲' : '▼',
              itemStyle: { color: x.kind === 'golden' ? c.up : c.down },
            }))
          : [];
      series.push({
        name: `MA${n}`,
        type: 'line',
        data: averages[i]!.map((v) => (v === null ? '-' : Number(v.toFixed(decimals + 2)))),
        showSymbol: false,
        smooth: true,
        lineStyle: { width: 1, color: c.ma[i], opacity: studies.ma ? 1 : 0 },
        itemStyle: { color: c.ma[i] },
        silent: !studies.ma,
        tooltip: studies.ma ? undefined : { show: false },
        markPoint: crossMarks.length
          ? { symbol: 'pin', symbolSize: 26, label: { fontSize: 9, color: '#fff' }, data: crossMarks }
          : undefined,
      });
    });
  }

  series.push({
    name: labels.volume,
    type: 'bar',
    xAxisIndex: 1,
    yAxisIndex: 1,
    data: bars.map((b) => ({
      value: num(truncate(b.volume, VOLUME_DECIMALS)),
      itemStyle: { color: num(b.close) >= num(b.open) ? c.up : c.down, opacity: 0.6 },
    })),
    barMaxWidth: 12,
  });

  if (showMacd) {
    const m = macd(closes);
    series.push(
      {
        name: 'MACD',
        type: 'bar',
        xAxisIndex: 2,
        yAxisIndex: 2,
        data: m.macd.map((v) => ({ value: v, itemStyle: { color: v >= 0 ? c.up : c.down } })),
        barMaxWidth: 6,
      },
      {
        name: 'DIF',
        type: 'line',
        xAxisIndex: 2,
        yAxisIndex: 2,
        data: m.dif,
        showSymbol: false,
        lineStyle: { width: 1, color: c.dif },
      },
      {
        name: 'DEA',
        type: 'line',
        xAxisIndex: 2,
        yAxisIndex: 2,
        data: m.dea,
        showSymbol: false,
        lineStyle: { width: 1, color: c.dea },
      },
    );
  }

  const start = bars.length > VISIBLE_BARS ? Math.round((1 - VISIBLE_BARS / bars.length) * 100) : 0;
  return {
    animation: false,
    backgroundColor: 'transparent',
    textStyle: { color: c.text },
    grid: grids.map((g) => ({ ...g, left: 8, right: 64 })),
    xAxis,
    yAxis,
    axisPointer: { link: [{ xAxisIndex: 'all' }], lineStyle: { color: c.axisPointer } },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'cross', label: { backgroundColor: c.tooltipBg, color: c.tooltipText } },
      backgroundColor: c.tooltipBg,
      borderColor: c.line,
      textStyle: { color: c.tooltipText, fontSize: 12 },
      confine: true,
      formatter: (params: unknown) => tooltipText(params, bars, labels, decimals),
    },
    dataZoom: [{ type: 'inside', xAxisIndex: gridIndexes, start, end: 100 }],
    series,
  };
}

interface TooltipParam {
  dataIndex: number;
  seriesName: string;
  axisValue?: string;
  value?: unknown;
  marker?: string;
}

function tooltipText(params: unknown, bars: readonly KlineBar[], labels: ChartLabels, decimals: number): string {
  const list = (Array.isArray(params) ? params : [params]) as TooltipParam[];
  const first = list[0];
  if (!first) return '';
  const bar = bars[first.dataIndex];
  if (!bar) return '';
  const rows = [
    `${first.axisValue ?? ''}`,
    `${labels.open}: ${truncate(bar.open, decimals)}`,
    `${labels.high}: ${truncate(bar.high, decimals)}`,
    `${labels.low}: ${truncate(bar.low, decimals)}`,
    `${labels.close}: ${truncate(bar.close, decimals)}`,
    `${labels.volume}: ${truncate(bar.volume, VOLUME_DECIMALS)}`,
  ];
  for (const p of list) {
    if (p.seriesName.startsWith('MA') || p.seriesName === 'DIF' || p.seriesName === 'DEA') {
      const v = typeof p.value === 'number' ? p.value.toFixed(decimals) : null;
      if (v !== null) rows.push(`${p.marker ?? ''}${p.seriesName}: ${v}`);
    }
  }
  return rows.join('<br/>');
}
