/**
 * Lock savings (/deposit, public; spec trading "Lock savings"): the products with a buy button and a
 * confirmation prompt, then, for a logged-in user, their locks with start, maturity, accrued and
 * expected interest. Interest accrues daily from the day after the lock; principal and interest
 * return to the savings (financial) account at maturity.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { EMPTY, formatPrice, truncate } from '@/lib/format';
import { useStores } from '@/stores/root-store';

import { ConfirmPrompt, ReadState, StatusTag } from '../common/ui';
import { useSendToLogin } from '@/hooks/use-send-to-login';
import { createLockApi } from './api/lock-api';
import { LockStore, lockBlock } from './stores/lock-store';
import { LOCK_ACTIVE, type LockProduct } from './types';

import '../i18n';
import '../earn.css';

export default observer(function LockPage() {
  const { t } = useTranslation('earn');
  const { session } = useStores();
  const [store] = useState(() => new LockStore(createLockApi(), () => session.isLoggedIn));
  useEffect(() => store.start(), [store]);
  const products = store.products.data ?? [];

  return (
    <div className="earn-page" data-testid="deposit-page">
      <div className="earn-head">
        <div>
          <h1>{t('lock.title')}</h1>
          <p className="muted">{t('lock.intro')}</p>
        </div>
        {session.isLoggedIn && (
          <Link className="button ghost" to={paths.assets.financialAccount} data-testid="deposit-account">
            {t('common.savingsAccount')}
          </Link>
        )}
      </div>
      <ReadState resource={store.products} empty={!products.length} />
      <div className="earn-grid">
        {products.map((p) => (
          <ProductCard key={p.id} product={p} store={store} />
        ))}
      </div>
      {session.isLoggedIn && <MyLocks store={store} />}
      {store.confirming && <LockConfirm store={store} product={store.confirming} />}
    </div>
  );
});

const ProductCard = observer(function ProductCard({ product, store }: { product: LockProduct; store: LockStore }) {
  const { t } = useTranslation('earn');
  const { session } = useStores();
  const sendToLogin = useSendToLogin();
  const block = lockBlock(product);
  const code = product.currency?.code ?? EMPTY;
  return (
    <article className="panel earn-card" data-testid="lock-product" data-id={product.id}>
      <div className="earn-card-head">
        <h3>{product.name}</h3>
        <StatusTag tone={block ? 'done' : 'open'}>{t(block ? `lock.${block}` : 'lock.open')}</StatusTag>
      </div>
      <p className="earn-rate">
        <strong className="up num" data-testid="lock-rate">{truncate(product.display_rate)}%</strong>
        <span className="muted">{t('lock.annualRate')}</span>
      </p>
      <dl className="earn-facts">
        <div>
          <dt className="muted">{t('lock.days')}</dt>
          <dd className="num" data-testid="lock-days">{t('common.days', { days: product.limit_days })}</dd>
        </div>
        <div>
          <dt className="muted">{t('lock.lot')}</dt>
          <dd className="num" data-testid="lock-lot">{formatPrice(product.limit_number)} {code}</dd>
        </div>
        {product.quota_lots > 0 && (
          <div>
            <dt className="muted">{t('lock.quota')}</dt>
            <dd className="num">{t('lock.lots', { sold: product.sold_lots, total: product.quota_lots })}</dd>
          </div>
        )}
      </dl>
      <button type="button" className="button block" disabled={Boolean(block)} data-testid="lock-buy"
        onClick={() => (session.isLoggedIn ? store.ask(product) : sendToLogin())}>
        {session.isLoggedIn ? t('lock.buy') : t('common.loginToBuy')}
      </button>
    </article>
  );
});

const LockConfirm = observer(function LockConfirm({ store, product }: { store: LockStore; product: LockProduct }) {
  const { t } = useTranslation('earn');
  const code = product.currency?.code ?? '';
  return (
    <ConfirmPrompt title={t('lock.confirmTitle')} testId="lock-confirm" busy={store.busy}
      onCancel={() => store.dismiss()} onConfirm={() => void store.confirm()}
      rows={[
        { key: 'name', label: t('lock.product'), value: product.name, className: '' },
        { key: 'amount', label: t('lock.amount'), value: `${formatPrice(product.limit_number)} ${code}` },
        { key: 'days', label: t('lock.days'), value: t('common.days', { days: product.limit_days }) },
        { key: 'rate', label: t('lock.annualRate'), value: `${truncate(product.display_rate)}%` },
      ]}>
      <p className="muted">{t('lock.confirmNote', { code })}</p>
    </ConfirmPrompt>
  );
});

const MyLocks = observer(function MyLocks({ store }: { store: LockStore }) {
  const { t } = useTranslation('earn');
  const locks = store.locks.data ?? [];
  return (
    <section className="panel" data-testid="my-locks">
      <div className="panel-head">
        <h2>{t('lock.mine')}</h2>
      </div>
      <div className="table-wrap">
        <table className="data-table">
          <thead>
            <tr>
              <th>{t('lock.product')}</th>
              <th className="num">{t('lock.amount')}</th>
              <th className="num">{t('lock.annualRate')}</th>
              <th className="num hide-sm">{t('lock.start')}</th>
              <th className="num">{t('lock.maturity')}</th>
              <th className="num">{t('lock.accrued')}</th>
              <th className="num">{t('lock.expected')}</th>
              <th>{t('lock.status')}</th>
            </tr>
          </thead>
          <tbody>
            {locks.map((l) => (
              <tr key={l.id} data-testid="lock-row" data-status={l.status}>
                <td className="pair-base">{l.name}</td>
                <td className="num" data-testid="lock-row-amount">{formatPrice(l.amount)} {l.currency_code}</td>
                <td className="num">{truncate(l.display_rate)}%</td>
                <td className="num hide-sm" data-testid="lock-row-start">{l.start || EMPTY}</td>
                <td className="num" data-testid="lock-row-maturity">{l.maturity || EMPTY}</td>
                <td className="num" data-testid="lock-row-accrued">{formatPrice(l.accrued)}</td>
                <td className="num" data-testid="lock-row-expected">{formatPrice(l.expected)}</td>
                <td>
                  <StatusTag tone={l.status === LOCK_ACTIVE ? 'open' : 'done'}>
                    {t(l.status === LOCK_ACTIVE ? 'lock.active' : 'lock.ended')}
                  </StatusTag>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ReadState resource={store.locks} empty={!locks.length} whenEmpty={t('lock.none')} />
    </section>
  );
});
