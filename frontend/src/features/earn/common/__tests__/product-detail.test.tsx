/** The earn detail pages' one frame: the id guard, the back link, the product's panel beside its form, and the form's frame. */
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';

import { initI18n } from '@/i18n';
import { Loadable } from '@/lib/loadable';

import type { ProductView } from '../product-detail';

type Frame = typeof import('../product-detail');
let ProductDetail: Frame['ProductDetail'];
let ProductDetailRoute: Frame['ProductDetailRoute'];
let ProductForm: Frame['ProductForm'];

// The frame registers the earn texts when it loads, as in the app: after i18next has started.
beforeAll(async () => {
  initI18n('en');
  ({ ProductDetail, ProductDetailRoute, ProductForm } = await import('../product-detail'));
});

const at = (url: string, node: ReactNode) => renderToStaticMarkup(<MemoryRouter initialEntries={[url]}>{node}</MemoryRouter>);
const testIds = (html: string) => [...html.matchAll(/data-testid="([^"]+)"/g)].map(([, id]) => id);

const product = (over: Partial<ProductView> = {}): ProductView => ({
  title: 'Mining Pool A',
  titleTestId: 'mining-title',
  logo: '',
  status: <span data-testid="status">open</span>,
  body: <dl data-testid="facts" />,
  side: <form data-testid="form" />,
  ...over,
});

describe('ProductDetailRoute', () => {
  it('opens the product of a readable ?id=', () => {
    const html = at('/mining/info?id=7', <ProductDetailRoute list="/mining/list">{(id) => <p data-testid="page">{id}</p>}</ProductDetailRoute>);
    expect(html).toBe('<p data-testid="page">7</p>');
  });

  it.each(['/mining/info', '/mining/info?id=abc', '/mining/info?id=0', '/mining/info?id=1.5'])('says %s is no product and leads back', (url) => {
    const html = at(url, <ProductDetailRoute list="/mining/list">{() => <p data-testid="page" />}</ProductDetailRoute>);
    expect(testIds(html)).toEqual(['earn-not-found']);
    expect(html).toContain('href="/mining/list"');
    expect(html).toContain('This product could not be found.');
  });
});

describe('ProductDetail', () => {
  const resource = new Loadable(async () => ({}));
  beforeAll(() => resource.load());
  const reading = new Loadable(async () => ({}));

  it('shows the way back and the read state, and no panel before the product is read', () => {
    const html = at('/shoufa/info?id=1', <ProductDetail testId="shoufa-info" list="/shoufa" listTitle="Token sales" resource={reading} product={null} />);
    expect(html).toMatch(/^<div class="earn-page" data-testid="shoufa-info"><a class="link-accent" href="\/shoufa"[^>]*>← Token sales<\/a>/);
    expect(testIds(html)).toEqual(['shoufa-info', 'earn-loading']);
    expect(html).not.toContain('earn-detail');
  });

  it('draws the logo, title, status, the facts and then the form beside the panel', () => {
    const html = at('/mining/info?id=1', <ProductDetail testId="mining-info" list="/mining/list" listTitle="Mining" resource={resource} product={product()} />);
    expect(html).toContain('<div class="earn-detail"><section class="panel"><div class="earn-card-head"><span class="earn-logo large earn-logo-letter" aria-hidden="true">M</span><h1 data-testid="mining-title">Mining Pool A</h1><span data-testid="status">open</span></div>');
    expect(html).toContain('<dl data-testid="facts"></dl></section><form data-testid="form"></form></div>');
    expect(html).not.toContain('earn-ring');
  });

  it('puts the description beside the progress ring, with its label when given, and no logo when the product has none', () => {
    const ring = { description: 'A new token', descriptionTestId: 'sale-desc', value: '42.5', testId: 'sale-progress', label: 'Progress' };
    const html = at('/shoufa/info?id=1', <ProductDetail testId="shoufa-info" list="/shoufa" listTitle="Token sales" resource={resource}
      product={product({ logo: undefined, titleTestId: 'sale-title', ring })} />);
    expect(html).not.toContain('earn-logo');
    expect(testIds(html)).toEqual(['shoufa-info', 'sale-title', 'status', 'sale-desc', 'sale-progress', 'facts', 'form']);
    expect(html).toContain('<p class="earn-desc" data-testid="sale-desc">A new token</p>');
    expect(html).toContain('data-testid="sale-progress"');
    expect(html).toContain('42.50%');
    expect(html).toContain('<span class="muted">Progress</span>');
    const unlabelled = at('/listing/info?id=1', <ProductDetail testId="listing-info" list="/listing" listTitle="Listing" resource={resource}
      product={product({ ring: { ...ring, label: undefined } })} />);
    expect(unlabelled).not.toContain('<span class="muted">');
  });
});

describe('ProductForm', () => {
  it('titles the form and shows its intro above the fields, in a form the browser leaves unchecked (the page checks it)', () => {
    const html = at('/listing/info?id=1', (
      <ProductForm testId="listing-form" title="Apply" loggedIn={false} onSubmit={() => {}} intro={<p data-testid="balance">10 USDT</p>}>
        <input name="amount" />
      </ProductForm>
    ));
    expect(html).toBe(
      '<section class="panel earn-form" data-testid="listing-form"><h2>Apply</h2><p data-testid="balance">10 USDT</p>'
        + '<form class="earn-form-body" noValidate=""><input name="amount"/></form></section>',
    );
  });
});
