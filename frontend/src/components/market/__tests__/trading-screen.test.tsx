/** The trading screens' one frame: the areas the market styles and the browser tests find, in order. */
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';

import { initI18n } from '@/i18n';

import type { MarketApi } from '../market-api';
import { ChartScreenStore } from '../stores/chart-screen';
import { TradingScreen } from '../trading-screen';
import { fakeMarketApi } from './fixtures';

class Screen extends ChartScreenStore {
  constructor(api: MarketApi) {
    super(api);
  }
  protected onPairChanged(): void {}
  protected startOwn(): void {}
  protected reconnectOwn(): void {}
  protected disposeOwn(): void {}
}

/** The frame's areas and the test ids, in document order. */
const areas = (html: string) => [...html.matchAll(/class="(tp-(?:left|center|right|bottom))"/g)].map(([, name]) => name);
const testIds = (html: string) => [...html.matchAll(/data-testid="([^"]+)"/g)].map(([, id]) => id);

describe('TradingScreen', () => {
  beforeAll(() => void initI18n('en'));
  const store = new Screen(fakeMarketApi());

  it('draws the pair list, the header and chart, the side and the bottom, named by the page', () => {
    const html = renderToStaticMarkup(
      <TradingScreen page="lever-page" store={store} pairList side={<p data-testid="side" />} bottom={<p data-testid="bottom" />} />,
    );
    expect(html).toMatch(/^<div class="market-screen lever-page" data-testid="lever-page">/);
    expect(areas(html)).toEqual(['tp-left', 'tp-center', 'tp-right', 'tp-bottom']);
    const ids = testIds(html);
    expect(ids).toContain('kline-chart');
    expect(ids.indexOf('pair-list')).toBeLessThan(ids.indexOf('kline-chart'));
    expect(ids.indexOf('kline-chart')).toBeLessThan(ids.indexOf('side'));
    expect(ids.indexOf('side')).toBeLessThan(ids.indexOf('bottom'));
  });

  it('puts a screen\'s own pieces above the header and under the chart, and leaves out the list when asked', () => {
    const html = renderToStaticMarkup(
      <TradingScreen page="second-page" store={store} aboveHeader={<nav data-testid="tabs" />} belowChart={<form data-testid="form" />}
        side={<p data-testid="side" />} bottom={<p data-testid="bottom" />} />,
    );
    expect(html).toMatch(/^<div class="market-screen second-page" data-testid="second-page">/);
    expect(areas(html)).toEqual(['tp-center', 'tp-right', 'tp-bottom']);
    const ids = testIds(html);
    expect(ids).not.toContain('pair-list');
    expect(ids.indexOf('tabs')).toBeLessThan(ids.indexOf('pair-symbol'));
    expect(ids.indexOf('pair-symbol')).toBeLessThan(ids.indexOf('kline-chart'));
    expect(ids.indexOf('kline-chart')).toBeLessThan(ids.indexOf('form'));
    expect(ids.indexOf('form')).toBeLessThan(ids.indexOf('side'));
  });
});
