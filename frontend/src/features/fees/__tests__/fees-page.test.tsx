import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { i18n, initI18n } from '@/i18n';

type Page = typeof import('../fees-page');

/** The worked example as a visitor reads it, in the UI language's number style. */
describe('the fee example', () => {
  let FeeExample: Page['FeeExample'];
  // The page registers its texts when it loads, as in the app: after i18next has started.
  beforeAll(async () => {
    initI18n('en');
    ({ FeeExample } = await import('../fees-page'));
  });
  afterAll(() => void i18n.changeLanguage('en'));

  const rows = (html: string) =>
    [...html.matchAll(/<tr data-testid="fees-example-[^"]+">(.*?)<\/tr>/g)].map(([, cells = '']) =>
      [...cells.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map(([, text]) => text),
    );

  it('shows 30 and 40 USDT on 10,000 USDT at 0.3 % and 0.4 %', () => {
    const html = renderToStaticMarkup(<FeeExample />);
    expect(html).toContain('The fee on 10,000.00 USDT at two illustrative rates; the rates in force are in the table above.');
    expect(rows(html)).toEqual([
      ['10,000.00 USDT', '0.3%', '30.00 USDT', '9,970.00 USDT'],
      ['10,000.00 USDT', '0.4%', '40.00 USDT', '9,960.00 USDT'],
    ]);
  });

  it('speaks the UI language', async () => {
    await i18n.changeLanguage('gm');
    const html = renderToStaticMarkup(<FeeExample />);
    expect(html).toContain('<h2>Beispiel</h2>');
    expect(rows(html)[0]).toEqual(['10.000,00 USDT', '0.3%', '30,00 USDT', '9.970,00 USDT']);
  });
});
