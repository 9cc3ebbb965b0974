/**
 * The user's orders: current pair / all / history, buy and sell sub-tabs for the first two,
 * 10 a page, cancel. Rows change live with TX_SUBMIT and TX_MATCHED (see OrdersStore).
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { Pager } from '@/components/market/pager';
import { EMPTY, formatDateTime, toBig, truncate } from '@/lib/format';

import type { OrdersView } from '../api/spot-api';
import { useSpotPage } from '../stores/spot-page-store';
import { BUY, SELL, type SpotOrder, type Way } from '../types';

const VIEWS: OrdersView[] = ['current', 'all', 'history'];
const WAYS: Way[] = [BUY, SELL];
const MARKET_KIND = 2;

/** A decimal string without trailing zeros ("0.500000" → "0.5"). */
const plain = (value: string | undefined) => toBig(value)?.toFixed() ?? EMPTY;

export const OrderPanel = observer(function OrderPanel() {
  const { t } = useTranslation('spot');
  const { spot } = useSpotPage();
  const orders = spot.orders;
  const history = orders.isHistory;

  const wayName = (o: SpotOrder) => (history && o.way_name) || t(o.way === BUY ? 'ways.1' : 'ways.2');
  const statusName = (o: SpotOrder) =>
    o.status_name || t(`orders.statuses.${o.status}` as 'orders.statuses.1', { defaultValue: EMPTY });

  return (
    <section className="tp-panel tp-orders" data-testid="order-panel">
      <div className="tp-orders-bar">
        <div className="tp-tabs" role="tablist">
          {VIEWS.map((view) => (
            <button
              key={view}
              type="button"
              role="tab"
              aria-selected={orders.view === view}
              className={orders.view === view ? 'tp-tab active' : 'tp-tab'}
              onClick={() => orders.setView(view)}
              data-testid={`orders-view-${view}`}
            >
              {t(`orders.${view}`)}
            </button>
          ))}
        </div>
        {!history && (
          <div className="tp-tabs" role="tablist">
            {WAYS.map((way) => (
              <button
                key={way}
                type="button"
                role="tab"
                aria-selected={orders.way === way}
                className={`tp-tab ${way === BUY ? 'buy' : 'sell'}${orders.way === way ? ' active' : ''}`}
                onClick={() => orders.setWay(way)}
                data-testid={`orders-way-${way === BUY ? 'buy' : 'sell'}`}
              >
                {t(way === BUY ? 'orders.buy' : 'orders.sell')}
              </button>
            ))}
          </div>
        )}
      </div>

      {!spot.loggedIn ? (
        <p className="tp-note" data-testid="orders-login">
          {t('orders.loginFirst')}
        </p>
      ) : (
        <>
          <div className="tp-table-wrap">
            <table className="tp-table" data-testid={history ? 'history-orders' : 'current-orders'}>
              <thead>
                <tr>
                  <th>{t('orders.time')}</th>
                  <th>{t('orders.pair')}</th>
                  <th>{t('orders.direction')}</th>
                  <th className="num">{t('orders.price')}</th>
                  <th className="num">{t('orders.amount')}</th>
                  <th className="num">{t('orders.filled')}</th>
                  {history ? (
                    <>
                      <th className="num">{t('orders.filledTotal')}</th>
                      <th>{t('orders.status')}</th>
                    </>
                  ) : (
                    <th className="act">{t('orders.action')}</th>
                  )}
                </tr>
              </thead>
              <tbody>
                {orders.rows.map((o) => (
                  <tr key={o.id} data-testid="order-row" data-order-id={o.id}>
                    <td className="muted">{formatDateTime(o.updated_at ?? o.created_at, { year: false })}</td>
                    <td>{o.currency_match?.symbol ?? o.symbol}</td>
                    <td className={o.way === BUY ? 'up' : 'down'}>{wayName(o)}</td>
                    <td className="num">
                      {o.kind === MARKET_KIND && !toBig(o.price)?.gt(0) ? t('orders.market') : plain(o.price)}
                    </td>
                    <td className="num">{plain(o.number)}</td>
                    <td className="num">{plain(o.transacted_amount)}</td>
                    {history ? (
                      <>
                        <td className="num">{truncate(o.transacted_volume, 6)}</td>
                        <td>{statusName(o)}</td>
                      </>
                    ) : (
                      <td className="act">
                        <button
                          type="button"
                          className="tp-button ghost small"
                          disabled={orders.cancelling.includes(o.id)}
                          onClick={() => void orders.cancel(o)}
                          data-testid="order-cancel"
                        >
                          {t('orders.cancel')}
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {orders.rows.length === 0 && !orders.loading && (
            <p className="tp-note" data-testid="orders-empty">
              {t('orders.empty')}
            </p>
          )}
          <Pager page={orders.page} lastPage={orders.lastPage} onPage={(page) => orders.setPage(page)} testId="orders-pager" />
        </>
      )}
    </section>
  );
});
