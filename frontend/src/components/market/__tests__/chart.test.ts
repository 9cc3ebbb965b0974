import { describe, expect, it } from 'vitest';

import { axisLabels, buildChartOption, CHART_PALETTES, chartPriceDecimals, type ChartInput } from '../chart/chart-option';
import { chartLocale, intlTag } from '../chart/locale';
import { crosses, macd, movingAverage } from '../chart/indicators';
import { periodOf } from '../chart/periods';
import { bar } from './fixtures';

const labels = { volume: 'Vol', open: 'O', high: 'H', low: 'L', close: 'C', golden: 'G', death: 'D' };
const closes = [5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3];
const bars = closes.map((c, i) => bar(i * 60_000, String(c)));

const input = (over: Partial<ChartInput> = {}): ChartInput => ({
  bars,
  period: periodOf('1min'),
  theme: 'dark',
  studies: { ma: true, cross: false, macd: true },
  wide: true,
  labels,
  priceDecimals: 4,
  ...over,
});

type Series = { name: string; type: string; markPoint?: { data: unknown[] }; itemStyle?: { color?: string } };
const seriesOf = (option: ReturnType<typeof buildChartOption>) => option.series as Series[];
const names = (option: ReturnType<typeof buildChartOption>) => seriesOf(option).map((s) => s.name);

describe('indicators', () => {
  it('moving average waits for enough bars', () => {
    expect(movingAverage([1, 2, 3, 4], 3)).toEqual([null, null, 2, 3]);
  });

  it('finds golden and death crosses', () => {
    expect(crosses([1, 2, 3, 1], [2, 2, 2, 2])).toEqual([
      { index: 2, kind: 'golden' },
      { index: 3, kind: 'death' },
    ]);
  });

  it('MACD of a flat series is zero', () => {
    const m = macd([10, 10, 10, 10]);
    expect(m.dif.every((v) => v === 0)).toBe(true);
    expect(m.macd.every((v) => v === 0)).toBe(true);
  });
});

describe('buildChartOption', () => {
  it('draws candles, MA lines and volume; MACD on wide screens only', () => {
    expect(names(buildChartOption(input()))).toEqual(['K', 'MA5', 'MA10', 'MA30', 'Vol', 'MACD', 'DIF', 'DEA']);
    expect(names(buildChartOption(input({ wide: false })))).toEqual(['K', 'MA5', 'MA10', 'MA30', 'Vol']);
    expect(names(buildChartOption(input({ studies: { ma: false, cross: false, macd: false } })))).toEqual(['K', 'Vol']);
  });

  it('the Time view is a line of closes', () => {
    const option = buildChartOption(input({ period: periodOf('time'), studies: { ma: false, cross: false, macd: false } }));
    expect(seriesOf(option)[0]).toMatchObject({ type: 'line', name: 'C' });
  });

  it('marks MA crosses when asked', () => {
    const option = buildChartOption(input({ studies: { ma: true, cross: true, macd: false } }));
    const ma5 = seriesOf(option).find((s) => s.name === 'MA5');
    expect(ma5?.markPoint?.data.length).toBeGreaterThan(0);
  });

  it('follows the theme colours', () => {
    const dark = buildChartOption(input());
    const light = buildChartOption(input({ theme: 'light' }));
    expect(seriesOf(dark)[0]!.itemStyle?.color).toBe(CHART_PALETTES.dark.up);
    expect(seriesOf(light)[0]!.itemStyle?.color).toBe(CHART_PALETTES.light.up);
  });

  it('labels times in New York time', () => {
    // 2024-01-15 15:30 UTC is 10:30 in New York (EST).
    expect(axisLabels([bar(Date.UTC(2024, 0, 15, 15, 30))], periodOf('1min'))).toEqual(['01-15 10:30']);
    expect(axisLabels([bar(Date.UTC(2024, 0, 15, 15, 30))], periodOf('1day'))).toEqual(['2024-01-15']);
  });
});

describe('the chart locale (spec trading §9)', () => {
  it('maps hk to zh_TW and jp to ja, keeps en, gm and fr their own, and defaults to zh', () => {
    expect(['hk', 'jp', 'en', 'gm', 'fr', 'zh', 'it', undefined].map(chartLocale)).toEqual([
      'zh_TW', 'ja', 'en', 'de', 'fr', 'zh', 'zh', 'zh',
    ]); // prettier-ignore
    expect(intlTag('zh_TW')).toBe('zh-TW');
  });

  it('writes the time axis in the chart locale', () => {
    const at = [bar(Date.UTC(2024, 0, 15, 15, 30))];
    expect(axisLabels(at, periodOf('1day'), 'en')).toEqual(['2024-01-15']);
    const japanese = axisLabels(at, periodOf('1day'), 'ja')[0]!;
    expect(japanese).not.toBe('2024-01-15');
    expect(japanese).toMatch(/2024.01.15/);
  });
});

describe('the chart scales (spec trading §9: price scale 10000, volume base 1e6)', () => {
  it('shows prices to at least 4 places, a finer pair to its own, and volumes to 6', () => {
    expect([0, 2, 4, 6, 8, 14].map(chartPriceDecimals)).toEqual([4, 4, 4, 6, 8, 10]);
    const option = buildChartOption(input({ priceDecimals: 2, bars: [bar(0, '60000.123456'), { ...bar(60_000, '60001'), volume: '0.123456789' }] }));
    const yAxis = option.yAxis as { axisLabel: { formatter: (v: number) => string } }[];
    expect(yAxis[0]!.axisLabel.formatter(60000.5)).toBe('60000.5000');
    const volume = seriesOf(option).find((s) => s.name === 'Vol') as unknown as { data: { value: number }[] };
    expect(volume.data[1]!.value).toBe(0.123456);
    const tooltip = (option.tooltip as { formatter: (p: unknown) => string }).formatter([{ dataIndex: 0, seriesName: 'K', axisValue: 'x' }]);
    expect(tooltip).toContain(': 60000.1234');
  });
});
