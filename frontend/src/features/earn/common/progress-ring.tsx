/**
 * A circular progress drawn by ECharts, the percent written in its middle. The ring's colours are
 * the theme's (`--accent` on `--surface-3`; `--up` once full), read again when the theme changes.
 */
import { useEffect, useRef } from 'react';

import { useDocumentTheme } from '@/components/market/chart/hooks';
import { EMPTY, toBig, truncate } from '@/lib/format';

import { init } from './echarts-ring';
import { ringPercent } from './money';
import { ringOption } from './ring-option';

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

export function ProgressRing({ value, size = 96, testId }: { value: unknown; size?: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);
  const theme = useDocumentTheme();
  const percent = ringPercent(value);
  const shown = toBig(value);

  useEffect(() => {
    if (!box.current) return;
    const instance = init(box.current, undefined, { renderer: 'canvas' });
    chart.current = instance;
    return () => {
      chart.current = null;
      instance.dispose();
    };
  }, []);

  useEffect(() => {
    const fill = cssVar(percent >= 100 ? '--up' : '--accent');
    chart.current?.setOption(ringOption(percent, { fill, track: cssVar('--surface-3') }));
  }, [percent, theme]);

  return (
    <div className="earn-ring" style={{ width: size, height: size }} data-testid={testId} data-theme-ring={theme}>
      <div ref={box} className="earn-ring-canvas" aria-hidden="true" />
      <span className="earn-ring-label num">{shown ? `${truncate(value)}%` : EMPTY}</span>
    </div>
  );
}
