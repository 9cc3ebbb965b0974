/**
 * The frame of an earn product's detail page (a mining product `/mining/info`, a token sale
 * `/shoufa/info`, a listing project `/listing/info`), written once so the three read alike: a
 * readable `?id=` or the "not found" note, then the link back to the list, the read's state, and once
 * the product is read its panel (logo, title, status tag, description with the progress ring, the
 * page's facts) beside the page's form, which sends a visitor to login first. The class names are earn.css's and the test ids the
 * browser tests'.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { useSendToLogin } from '@/hooks/use-send-to-login';
import type { Loadable } from '@/lib/loadable';
import type { Decimal } from '@/types/api';

import { ProductLogo } from './logo';
import { NoSuchProduct } from './not-found';
import { ProgressRing } from './progress-ring';
import { ReadState } from './ui';
import { useQueryId } from './use-id';

/** The page for the `?id=` of the address, keyed by it; the "not found" note without a readable one. */
export function ProductDetailRoute({ list, children }: { list: string; children: (id: number) => ReactNode }) {
  const id = useQueryId();
  return id === null ? <NoSuchProduct back={list} /> : children(id);
}

/** A product as its detail page shows it, once read. */
export interface ProductView {
  title: string;
  titleTestId: string;
  /** The product's logo (mining, token sales); none for a product without one (listing). */
  logo?: string;
  status: ReactNode;
  /** The description beside the progress ring, when the product has them. */
  ring?: { description: string; descriptionTestId: string; value: Decimal; testId: string; label?: ReactNode };
  /** The rest of the panel: the facts, notes and links. */
  body: ReactNode;
  /** Beside the panel: the form (and what the user holds of it). */
  side: ReactNode;
}

export function ProductDetail({ testId, list, listTitle, resource, product }: {
  /** The page's test id: `mining-info`, `shoufa-info`, `listing-info`. */
  testId: string;
  list: string;
  listTitle: string;
  resource: Loadable<unknown>;
  product: ProductView | null;
}) {
  return (
    <div className="earn-page" data-testid={testId}>
      <Link className="link-accent" to={list}>
        ← {listTitle}
      </Link>
      <ReadState resource={resource} />
      {product && (
        <div className="earn-detail">
          <section className="panel">
            <div className="earn-card-head">
              {product.logo !== undefined && <ProductLogo src={product.logo} title={product.title} large />}
              <h1 data-testid={product.titleTestId}>{product.title}</h1>
              {product.status}
            </div>
            {product.ring && (
              <div className="earn-ring-card">
                <p className="earn-desc" data-testid={product.ring.descriptionTestId}>{product.ring.description}</p>
                <div className="earn-ring-side">
                  <ProgressRing value={product.ring.value} size={120} testId={product.ring.testId} />
                  {product.ring.label && <span className="muted">{product.ring.label}</span>}
                </div>
              </div>
            )}
            {product.body}
          </section>
          {product.side}
        </div>
      )}
    </div>
  );
}

/**
 * The form beside a product: its title, what it shows before the fields (balances), and the fields;
 * sent by a visitor it leads to login (and back here), by a logged-in user to `onSubmit`.
 */
export function ProductForm({ testId, title, loggedIn, onSubmit, intro, children }: {
  /** `mining-form`, `sale-form`, `listing-form`. */
  testId: string;
  title: string;
  loggedIn: boolean;
  onSubmit: () => void;
  intro?: ReactNode;
  children: ReactNode;
}) {
  const sendToLogin = useSendToLogin();
  return (
    <section className="panel earn-form" data-testid={testId}>
      <h2>{title}</h2>
      {intro}
      <form className="earn-form-body" noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (loggedIn) onSubmit();
          else sendToLogin();
        }}>
        {children}
      </form>
    </section>
  );
}
