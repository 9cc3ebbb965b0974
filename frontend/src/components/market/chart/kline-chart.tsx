/**
 * The candlestick chart of the trade and lever screens (ECharts, imported piece by piece so only
 * what is drawn is bundled, and only in the chart pages' lazy chunks). Height 516 (spec §9); the
 * period buttons are the kline store's.
 */
import type { ECharts } from 'echarts/core';
import { autorun } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { KlineStore } from '../stores/kline-store';
import { TabBar } from '../tab-bar';
import type { PairMarketStore } from '../stores/pair-market-store';
import { buildChartOption, type ChartLabels, type ChartStudies } from './chart-option';
import { chartLocale } from './locale';
import { useDocumentTheme, useMediaQuery } from './hooks';

type EchartsModule = typeof import('./echarts');
let echartsModule: Promise<EchartsModule> | null = null;
/** The chart library, fetched once (its own chunk). */
const loadEcharts = () => (echartsModule ??= import('./echarts'));

export const CHART_HEIGHT = 516;
/** MACD needs room: it is offered on wide screens only (spec "Chart"). */
export const WIDE_SCREEN_QUERY = '(min-width: 1200px)';

export const KlineChart = observer(function KlineChart({ kline, market }: { kline: KlineStore; market: PairMarketStore }) {
  const { t, i18n } = useTranslation('spot');
  const locale = chartLocale(i18n.language);
  const theme = useDocumentTheme();
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  const [studies, setStudies] = useState<ChartStudies>({ ma: true, cross: false, macd: true });
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const [engine, setEngine] = useState<EchartsModule | null>(null);

  const labels: ChartLabels = {
    volume: t('chart.volume'),
    open: t('chart.open'),
    high: t('chart.high'),
    low: t('chart.low'),
    close: t('chart.close'),
    golden: t('chart.golden'),
    death: t('chart.death'),
  };
  const labelKey = JSON.stringify(labels);

  useEffect(() => {
    let alive = true;
    loadEcharts().then(
      (mod) => alive && setEngine(mod),
      () => {
        /* offline: the rest of the page still works without the chart */
      },
    );
    return () => {
      alive = false;
    };
  }, []);

  // One ECharts instance per theme; resized with its box.
  useEffect(() => {
    const el = host.current;
    if (!el || !engine) return undefined;
    const instance = engine.init(el, null, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [engine, theme]);

  // Redraw on data: a full load (new version) or a change of look resets the zoom; live bars keep it.
  useEffect(() => {
    let drawnVersion = -1;
    return autorun(() => {
      const instance = chart.current;
      const option = buildChartOption({
        bars: kline.bars,
        period: kline.period,
        theme,
        studies,
        wide,
        labels: JSON.parse(labelKey) as ChartLabels,
        priceDecimals: market.priceDecimals,
        locale,
      });
      if (!instance) return;
      if (kline.version !== drawnVersion) {
        drawnVersion = kline.version;
        instance.setOption(option, { notMerge: true });
      } else {
        const { dataZoom: _zoom, ...rest } = option as Record<string, unknown>;
        instance.setOption(rest, { lazyUpdate: true });
      }
    });
  }, [engine, kline, market, theme, studies, wide, labelKey, locale]);

  const toggle = (key: keyof ChartStudies) => setStudies((s) => ({ ...s, [key]: !s[key] }));

  return (
    <section className="tp-panel tp-chart" aria-label={t('chart.ma')}>
      <div className="tp-chart-bar">
        <TabBar
          tabs={kline.periods.map((p) => ({
            key: p.key,
            label: t(`chart.periods.${p.key}` as 'chart.periods.time'),
            testId: `chart-period-${p.key}`,
          }))}
          active={kline.periodKey}
          onSelect={(key) => kline.setPeriod(key)}
        />
        <div className="tp-tabs">
          <button
            type="button"
            aria-pressed={studies.ma}
            className={studies.ma ? 'tp-tab active' : 'tp-tab'}
            onClick={() => toggle('ma')}
          >
            {t('chart.ma')}
          </button>
          <button
            type="button"
            aria-pressed={studies.cross}
            className={studies.cross ? 'tp-tab active' : 'tp-tab'}
            onClick={() => toggle('cross')}
          >
            {t('chart.cross')}
          </button>
          {wide && (
            <button
              type="button"
              aria-pressed={studies.macd}
              className={studies.macd ? 'tp-tab active' : 'tp-tab'}
              data-testid="chart-macd"
              onClick={() => toggle('macd')}
            >
              {t('chart.macd')}
            </button>
          )}
        </div>
      </div>
      <div className="tp-chart-box" style={{ height: CHART_HEIGHT }}>
        <div
          ref={host}
          className="tp-chart-canvas"
          data-testid="kline-chart"
          data-period={kline.period.api}
          data-bars={kline.bars.length}
          style={{ height: CHART_HEIGHT }}
        />
        {kline.bars.length === 0 ? (
          <div className="tp-chart-note">{kline.loading ? t('chart.loading') : t('chart.empty')}</div>
        ) : (
          kline.short && <div className="tp-chart-note" role="status" data-testid="chart-short">{t('chart.short')}</div>
        )}
      </div>
    </section>
  );
});
