/**
 * A token sale (/shoufa/info?id, public; spec shell §2): logo, title, description, progress,
 * status, total, price, currency, accepted asset, subscriptions (times), quantity subscribed, start
 * and end, and the spec's participate button to /trade. Beyond the spec (issue 13): while the sale
 * is open a logged-in user subscribes a number of tokens, paid in the accepted asset from the
 * savings account; their subscription, allocation and refund show once made.
 */
import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { EMPTY, formatDateTime, formatPrice } from '@/lib/format';
import { useStores } from '@/stores/root-store';

import { ProductDetail, ProductDetailRoute, ProductForm } from '../common/product-detail';
import { AmountField, Facts, StatusTag } from '../common/ui';
import { createSalesApi } from './api/sales-api';
import { SaleStatusTag } from './components/parts';
import { phaseOf, type SubscribeProblem, subscriptionCost, tokensLeft } from './lib/rules';
import { SalesInfoStore } from './stores/sales-stores';
import type { Sale, SaleMine } from './types';

import '../i18n';
import '../earn.css';

export default function SalesInfoPage() {
  return <ProductDetailRoute list={paths.shoufa}>{(id) => <SalesInfo key={id} id={id} />}</ProductDetailRoute>;
}

const SalesInfo = observer(function SalesInfo({ id }: { id: number }) {
  const { t } = useTranslation('earn');
  const { session } = useStores();
  const [store] = useState(() => new SalesInfoStore(createSalesApi(), id, () => session.isLoggedIn));
  useEffect(() => void store.start(), [store]);
  const sale = store.sale.data;

  return (
    <ProductDetail testId="shoufa-info" list={paths.shoufa} listTitle={t('sales.title')} resource={store.sale}
      product={sale && {
        title: sale.title,
        titleTestId: 'sale-title',
        logo: sale.logo,
        status: <SaleStatusTag sale={sale} />,
        ring: { description: sale.desc, descriptionTestId: 'sale-desc', value: sale.jindu, testId: 'sale-progress', label: t('sales.progress') },
        side: (
          <aside className="earn-side">
            {phaseOf(sale) === 'open' && <SubscribeForm store={store} sale={sale} />}
            {sale.mine && <MySubscription sale={sale} mine={sale.mine} />}
          </aside>
        ),
        body: (
          <>
            <Facts testIdPrefix="sale"
              facts={[
                { key: 'total', label: t('sales.total'), value: `${formatPrice(sale.total)} ${sale.huodong}` },
                { key: 'price', label: t('sales.price'), value: `${formatPrice(sale.rengou)} ${sale.jieshou}` },
                { key: 'currency', label: t('sales.currency'), value: sale.huodong },
                { key: 'accepted', label: t('sales.accepted'), value: sale.jieshou },
                { key: 'times', label: t('sales.times'), value: String(sale.cishu ?? 0) },
                { key: 'quantity', label: t('sales.quantity'), value: `${formatPrice(sale.shuliang)} ${sale.huodong}` },
                { key: 'start', label: t('common.start'), value: formatDateTime(sale.btime) },
                { key: 'end', label: t('common.end'), value: formatDateTime(sale.etime) },
              ]} />
            <Link className="button ghost" to={paths.trade} data-testid="sale-participate">
              {t('sales.participate')}
            </Link>
          </>
        ),
      }} />
  );
});

function problemText(t: TFunction<'earn'>, problem: SubscribeProblem, code: string): string {
  if (problem.kind === 'overMax') return t('sales.problems.overMax', { amount: formatPrice(problem.left), code });
  if (problem.kind === 'insufficient') return t('common.insufficient');
  if (problem.kind === 'step') return t('sales.problems.step', { step: formatPrice(problem.step), code });
  return t('sales.problems.quantity');
}

const SubscribeForm = observer(function SubscribeForm({ store, sale }: { store: SalesInfoStore; sale: Sale }) {
  const { t } = useTranslation('earn');
  const { session } = useStores();
  const cost = subscriptionCost(store.amount, sale.rengou);
  const left = tokensLeft(sale.per_user_max, sale.mine?.nums);
  return (
    <ProductForm testId="sale-form" title={t('sales.subscribe')} loggedIn={session.isLoggedIn} onSubmit={() => void store.submit()}>
      {session.isLoggedIn && (
        <p className="muted" data-testid="sale-balance">
          {t('common.availableAmount', { amount: formatPrice(store.balance ?? EMPTY), code: sale.jieshou })}
        </p>
      )}
      <AmountField label={t('sales.amount', { code: sale.huodong })} value={store.amount} unit={sale.huodong}
        placeholder={left !== null ? t('sales.upTo', { amount: formatPrice(left) }) : undefined}
        onChange={(v) => store.setAmount(v)} testId="sale-amount" />
      {sale.step && (
        <p className="muted earn-note" data-testid="sale-step">
          {t('sales.step', { step: formatPrice(sale.step), code: sale.huodong })}
        </p>
      )}
      <p className="muted" data-testid="sale-cost">
        {t('sales.cost', { amount: cost ? formatPrice(cost) : EMPTY, code: sale.jieshou })}
      </p>
      {store.problem && (
        <p className="form-error" role="alert" data-testid="sale-problem">
          {problemText(t, store.problem, sale.huodong)}
        </p>
      )}
      <p className="muted earn-note">{t('sales.rule')}</p>
      <button type="submit" className="button block large" disabled={store.busy} data-testid="sale-submit">
        {session.isLoggedIn ? t('sales.subscribe') : t('common.loginToBuy')}
      </button>
    </ProductForm>
  );
});

function MySubscription({ sale, mine }: { sale: Sale; mine: SaleMine }) {
  const { t } = useTranslation('earn');
  const allocated = mine.status === 1;
  return (
    <section className="panel" data-testid="sale-mine" data-status={mine.status}>
      <div className="panel-head">
        <h2>{t('sales.mine.title')}</h2>
        <StatusTag tone={allocated ? 'done' : 'soon'} testId="sale-mine-status">
          {t(allocated ? 'sales.mine.allocated' : 'sales.mine.pending')}
        </StatusTag>
      </div>
      <Facts testIdPrefix="sale-mine"
        facts={[
          { key: 'nums', label: t('sales.mine.nums'), value: `${formatPrice(mine.nums)} ${sale.huodong}` },
          { key: 'locked', label: t('sales.mine.locked'), value: `${formatPrice(mine.locked)} ${sale.jieshou}` },
          ...(allocated
            ? [
                { key: 'allocated', label: t('sales.mine.won'), value: `${formatPrice(mine.allocated)} ${sale.huodong}` },
                { key: 'cost', label: t('sales.mine.cost'), value: `${formatPrice(mine.cost)} ${sale.jieshou}` },
                { key: 'refunded', label: t('sales.mine.refunded'), value: `${formatPrice(mine.refunded)} ${sale.jieshou}` },
              ]
            : []),
        ]} />
      {!allocated && <p className="muted earn-note">{t('sales.mine.wait')}</p>}
    </section>
  );
}
