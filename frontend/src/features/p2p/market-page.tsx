/**
 * The peer-to-peer market (/legalIndex/legal; issue 14): buy or sell from the taker's view, a tab per
 * coin and a fiat select, then the ads with their merchant (nickname, orders of the last 30 days,
 * completion rate), price, available stock, limits and payment methods. The ad's button opens the
 * order dialog; a visitor sees the market and is sent to login to act.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

import { Pagination } from '@/components/ui/pagination';
import { paths } from '@/config/paths';
import { EMPTY, formatPrice } from '@/lib/format';
import { useStores } from '@/stores/root-store';

import { createP2pApi } from './api/p2p-api';
import { OrderDialog } from './components/order-dialog';
import { MethodBadges, P2pNav, ReadState } from './components/ui';
import { plain, ratePercent } from './lib/money';
import { AdMarketStore } from './stores/ad-market-store';
import type { MarketAd, TakerSide } from './types';
import { useSendToLogin } from '@/hooks/use-send-to-login';

import './i18n';
import '@/components/form/form.css';
import './p2p.css';

export default observer(function MarketPage() {
  const { t } = useTranslation('p2p');
  const [store] = useState(() => new AdMarketStore(createP2pApi()));
  const navigate = useNavigate();
  useEffect(() => void store.start(), [store]);
  const config = store.config.data;
  const ads = store.ads.data;
  const list = ads?.list ?? [];
  const sides: TakerSide[] = ['buy', 'sell'];

  return (
    <div className="p2p-page" data-testid="p2p-market">
      <div className="p2p-head">
        <div>
          <h1>{t('market.title')}</h1>
          <p className="muted">{t('market.intro')}</p>
        </div>
        <P2pNav />
      </div>
      <section className="panel">
        {!config ? (
          <ReadState resource={store.config} />
        ) : (
          <>
            <div className="p2p-filters">
              <div className="p2p-sides" role="tablist" aria-label={t('market.side')}>
                {sides.map((s) => (
                  <button key={s} type="button" role="tab" aria-selected={store.side === s}
                    className={`p2p-side ${s}${store.side === s ? ' active' : ''}`} onClick={() => store.setSide(s)}
                    data-testid={`p2p-side-${s}`}>
                    {t(`side.${s}`)}
                  </button>
                ))}
              </div>
              <div className="tabs" role="tablist" aria-label={t('market.currency')}>
                {config.currencies.map((c) => (
                  <button key={c.id} type="button" role="tab" aria-selected={store.currencyId === c.id}
                    className={store.currencyId === c.id ? 'tab active' : 'tab'} onClick={() => store.setCurrency(c.id)}
                    data-testid={`p2p-currency-${c.code}`}>
                    {c.code}
                  </button>
                ))}
              </div>
              <label className="p2p-fiat">
                <span className="muted">{t('market.fiat')}</span>
                <select className="input" value={store.fiat ?? ''} onChange={(e) => store.setFiat(e.target.value)}
                  data-testid="p2p-fiat">
                  {config.fiats.map((f) => (
                    <option key={f} value={f}>
                      {f}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            <div className="table-wrap">
              <table className="data-table p2p-ads" data-testid="p2p-ads">
                <thead>
                  <tr>
                    <th>{t('market.merchant')}</th>
                    <th className="num">{t('market.price')}</th>
                    <th className="num">{t('market.available')}</th>
                    <th className="num">{t('market.limits')}</th>
                    <th>{t('market.methods')}</th>
                    <th className="num">{t('market.action')}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((ad) => (
                    <AdRow key={ad.id} ad={ad} store={store} />
                  ))}
                </tbody>
              </table>
            </div>
            <ReadState resource={store.ads} empty={!list.length} whenEmpty={t('market.empty')} />
            {ads && (
              <Pagination page={store.page} total={ads.total} perPage={ads.limit || 10} onPage={(p) => store.setPage(p)} />
            )}
          </>
        )}
      </section>
      {store.form && (
        <OrderDialog form={store.form} onClose={() => store.close()}
          onOpened={(id) => void navigate(`${paths.legalIndex.orderDetail}?id=${id}`)} />
      )}
    </div>
  );
});

const AdRow = observer(function AdRow({ ad, store }: { ad: MarketAd; store: AdMarketStore }) {
  const { t } = useTranslation('p2p');
  const { session } = useStores();
  const sendToLogin = useSendToLogin();
  const rate = ratePercent(ad.merchant.completion_rate);
  const own = session.uid !== null && ad.merchant.uid === session.uid;
  const buying = ad.taker_side === 'buy';
  const act = () => (session.isLoggedIn ? store.open(ad) : sendToLogin());
  return (
    <tr data-testid="p2p-ad" data-id={ad.id}>
      <td>
        <div className="p2p-merchant">
          <span className="p2p-avatar" aria-hidden="true">
            {ad.merchant.nickname.charAt(0).toUpperCase()}
          </span>
          <div>
            <strong data-testid="p2p-ad-merchant">{ad.merchant.nickname}</strong>
            <div className="muted p2p-small" data-testid="p2p-ad-record">
              {t('market.orders30d', { count: ad.merchant.orders_30d })}
              {' · '}
              {rate ? t('market.completion', { rate }) : t('market.noRate')}
            </div>
          </div>
        </div>
      </td>
      <td className="num">
        <span className={`p2p-price ${buying ? 'up' : 'down'}`} data-testid="p2p-ad-price">
          {formatPrice(ad.price, 2)}
        </span>{' '}
        <span className="muted">{ad.fiat}</span>
      </td>
      <td className="num" data-testid="p2p-ad-stock">
        {plain(ad.stock) ?? EMPTY} {ad.currency}
      </td>
      <td className="num" data-testid="p2p-ad-limits">
        {formatPrice(ad.min_fiat, 2)} – {formatPrice(ad.max_now, 2)} {ad.fiat}
      </td>
      <td>
        <MethodBadges methods={ad.methods} testId="p2p-ad-methods" />
      </td>
      <td className="num">
        {own ? (
          <span className="muted" data-testid="p2p-ad-own">
            {t('market.ownAd')}
          </span>
        ) : (
          <button type="button" className={`button small p2p-act ${buying ? 'buy' : 'sell'}`} onClick={act}
            data-testid="p2p-ad-action">
            {!session.isLoggedIn
              ? t('market.loginToTrade')
              : t(buying ? 'market.buyCoin' : 'market.sellCoin', { code: ad.currency })}
          </button>
        )}
      </td>
    </tr>
  );
});
