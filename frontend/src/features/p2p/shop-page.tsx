/**
 * My store (/myshop/myshoporders): for an approved merchant, their standing (nickname, orders of the
 * last 30 days, completion rate) and their ads by status, with the ad form (post, edit), pause /
 * resume and close (confirmed); for anyone else the merchant application.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Dialog } from '@/components/ui/dialog';
import { EMPTY, formatPrice } from '@/lib/format';

import { createP2pApi } from './api/p2p-api';
import { AdFormDialog } from './components/ad-form-dialog';
import { MerchantApply } from './components/merchant-apply';
import { MethodBadges, P2pNav, ReadState } from './components/ui';
import { plain, ratePercent } from './lib/money';
import { type AdFilter, ShopStore } from './stores/shop-store';
import { AD_SIDE, AD_STATUS, type MerchantInfo, type ShopAd } from './types';

import './i18n';
import '@/components/form/form.css';
import './p2p.css';

const FILTERS: { key: AdFilter; name: 'all' | 'online' | 'paused' | 'closed' }[] = [
  { key: 0, name: 'all' },
  { key: 1, name: 'online' },
  { key: 2, name: 'paused' },
  { key: 3, name: 'closed' },
];

const STATUS_NAME = { [AD_STATUS.online]: 'online', [AD_STATUS.paused]: 'paused', [AD_STATUS.closed]: 'closed' } as const;

export default observer(function ShopPage() {
  const { t } = useTranslation('p2p');
  const [store] = useState(() => new ShopStore(createP2pApi()));
  useEffect(() => void store.start(), [store]);
  const info = store.info.data;

  return (
    <div className="p2p-page" data-testid="p2p-shop">
      <div className="p2p-head">
        <h1>{t('shop.title')}</h1>
        <P2pNav />
      </div>
      {!info ? (
        <section className="panel">
          <ReadState resource={store.info} />
        </section>
      ) : store.isMerchant ? (
        <>
          <Standing info={info} onPost={() => store.edit()} canPost={Boolean(store.config.data)} />
          <AdsPanel store={store} />
        </>
      ) : (
        <MerchantApply store={store} info={info} />
      )}
      {store.form && <AdFormDialog form={store.form} onSave={() => void store.save()} onClose={() => store.closeForm()} />}
      {store.closing && <CloseConfirm store={store} ad={store.closing} />}
    </div>
  );
});

function Standing({ info, onPost, canPost }: { info: MerchantInfo; onPost: () => void; canPost: boolean }) {
  const { t } = useTranslation('p2p');
  const rate = ratePercent(info.completion_rate);
  return (
    <section className="panel p2p-standing" data-testid="p2p-standing">
      <span className="p2p-avatar large" aria-hidden="true">
        {info.nickname.charAt(0).toUpperCase()}
      </span>
      <div className="p2p-standing-body">
        <strong data-testid="p2p-shop-nickname">{info.nickname}</strong>
        <span className="muted p2p-small">
          {t('market.orders30d', { count: info.orders_30d })} · {rate ? t('market.completion', { rate }) : t('market.noRate')}
        </span>
      </div>
      <button type="button" className="button" disabled={!canPost} onClick={onPost} data-testid="p2p-post-ad">
        {t('shop.post')}
      </button>
    </section>
  );
}

const AdsPanel = observer(function AdsPanel({ store }: { store: ShopStore }) {
  const { t } = useTranslation('p2p');
  const ads = store.ads.data ?? [];
  return (
    <section className="panel">
      <div className="tabs p2p-state-tabs" role="tablist" aria-label={t('shop.status')}>
        {FILTERS.map((f) => (
          <button key={f.key} type="button" role="tab" aria-selected={store.filter === f.key}
            className={store.filter === f.key ? 'tab active' : 'tab'} onClick={() => store.setFilter(f.key)}
            data-testid={`p2p-ad-filter-${f.key}`}>
            {t(`shop.filter.${f.name}`)}
          </button>
        ))}
      </div>
      <div className="table-wrap">
        <table className="data-table" data-testid="p2p-my-ads">
          <thead>
            <tr>
              <th>{t('shop.side')}</th>
              <th className="num">{t('shop.price')}</th>
              <th className="num">{t('shop.limits')}</th>
              <th className="num">{t('shop.total')}</th>
              <th className="num">{t('shop.stock')}</th>
              <th className="num">{t('shop.inOrders')}</th>
              <th className="num">{t('shop.sold')}</th>
              <th>{t('shop.methods')}</th>
              <th>{t('shop.status')}</th>
              <th className="num">{t('shop.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {ads.map((ad) => (
              <AdRow key={ad.id} ad={ad} store={store} />
            ))}
          </tbody>
        </table>
      </div>
      <ReadState resource={store.ads} empty={!ads.length} whenEmpty={t('shop.empty')} />
    </section>
  );
});

const AdRow = observer(function AdRow({ ad, store }: { ad: ShopAd; store: ShopStore }) {
  const { t } = useTranslation('p2p');
  const sell = ad.side === AD_SIDE.sell;
  const status = STATUS_NAME[ad.status] ?? 'closed';
  const open = ad.status !== AD_STATUS.closed;
  return (
    <tr data-testid="p2p-my-ad" data-id={ad.id} data-status={ad.status}>
      <td className={sell ? 'down' : 'up'}>
        {t(sell ? 'adForm.sell' : 'adForm.buy')} {ad.currency}
      </td>
      <td className="num" data-testid="p2p-my-ad-price">
        {formatPrice(ad.price, 2)} {ad.fiat}
      </td>
      <td className="num">
        {formatPrice(ad.min_fiat, 2)} – {formatPrice(ad.max_fiat, 2)} {ad.fiat}
      </td>
      <td className="num" data-testid="p2p-my-ad-total">
        {plain(ad.total) ?? EMPTY}
      </td>
      <td className="num" data-testid="p2p-my-ad-stock">
        {plain(ad.stock) ?? EMPTY}
      </td>
      <td className="num">{plain(ad.in_orders) ?? EMPTY}</td>
      <td className="num">{plain(ad.sold) ?? EMPTY}</td>
      <td>
        <MethodBadges methods={ad.methods} />
      </td>
      <td>
        <span className={`p2p-tag ${ad.status === AD_STATUS.online ? 'open' : 'done'}`} data-testid="p2p-my-ad-status">
          {t(`shop.filter.${status}`)}
        </span>
      </td>
      <td className="num p2p-row-actions">
        {open && (
          <>
            <button type="button" className="button small ghost" onClick={() => store.edit(ad)} data-testid="p2p-my-ad-edit">
              {t('shop.edit')}
            </button>
            <button type="button" className="button small ghost" disabled={store.busy} onClick={() => void store.toggle(ad)}
              data-testid="p2p-my-ad-toggle">
              {t(ad.status === AD_STATUS.online ? 'shop.pause' : 'shop.resume')}
            </button>
            <button type="button" className="button small ghost p2p-danger-text" onClick={() => store.askClose(ad)}
              data-testid="p2p-my-ad-close">
              {t('shop.close')}
            </button>
          </>
        )}
      </td>
    </tr>
  );
});

const CloseConfirm = observer(function CloseConfirm({ store, ad }: { store: ShopStore; ad: ShopAd }) {
  const { t } = useTranslation('p2p');
  return (
    <Dialog title={t('shop.closeTitle')} onClose={() => store.dismissClose()} testId="p2p-close-dialog"
      actions={
        <>
          <button type="button" className="button ghost" onClick={() => store.dismissClose()} data-testid="p2p-close-dialog-cancel">
            {t('common.back')}
          </button>
          <button type="button" className="button p2p-danger" disabled={store.busy} onClick={() => void store.confirmClose()}
            data-testid="p2p-close-dialog-ok">
            {store.busy ? t('common.sending') : t('shop.close')}
          </button>
        </>
      }>
      <p>
        {t(ad.side === AD_SIDE.sell ? 'shop.closeSell' : 'shop.closeBuy', {
          stock: `${plain(ad.stock) ?? EMPTY} ${ad.currency}`,
        })}
      </p>
    </Dialog>
  );
});
