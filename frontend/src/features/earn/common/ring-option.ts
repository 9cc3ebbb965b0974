/**
 * The option of a circular progress (token-sale and listing cards, their detail pages): a ring of
 * two slices, the part done in `fill` and the rest in `track`. Static (no hover, no animation on
 * updates): the percent is written over it as text, which the browser tests read.
 */
import type { PieSeriesOption } from 'echarts/charts';
import type { ComposeOption } from 'echarts/core';

export type RingOption = ComposeOption<PieSeriesOption>;

export interface RingColors {
  fill: string;
  track: string;
}

/** `percent` from 0 to 100 (clamped). */
export function ringOption(percent: number, colors: RingColors): RingOption {
  const done = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0));
  return {
    animation: false,
    series: [
      {
        type: 'pie',
        radius: ['74%', '90%'],
        silent: true,
        startAngle: 90,
        clockwise: true,
        label: { show: false },
        labelLine: { show: false },
        emphasis: { disabled: true },
        itemStyle: { borderWidth: 0 },
        data: [
          { value: done, name: 'done', itemStyle: { color: colors.fill } },
          { value: 100 - done, name: 'rest', itemStyle: { color: colors.track } },
        ],
      },
    ],
  };
}
