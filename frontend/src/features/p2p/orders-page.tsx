/**
 * My P2P orders (/legalIndex/orders: orders I took) and orders on my ads (/myshop/shoporders): state
 * tabs (all, unpaid, paid, completed, cancelled, appeal), a page of rows each leading to the order,
 * read again when a LEGAL_ORDER push says one of them moved.
 */
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';

import { useScreen } from '@/components/market/use-screen';
import { Pagination } from '@/components/ui/pagination';
import { paths } from '@/config/paths';
import { EMPTY, formatDateTime, formatPrice } from '@/lib/format';

import { createP2pApi } from './api/p2p-api';
import { P2pNav, ReadState, StateTag, stateName, useMethodName } from './components/ui';
import { plain } from './lib/money';
import { OrdersStore, type OrdersScope } from './stores/orders-store';
import { type OrderSummary, STATE_FILTERS } from './types';
import { useOrderPushes } from './lib/use-order-pushes';

import './i18n';
import './p2p.css';

export default observer(function OrdersPage() {
  const { t } = useTranslation('p2p');
  const { pathname } = useLocation();
  const scope: OrdersScope = pathname.startsWith(paths.myshop.root) ? 'shop' : 'taker';
  const [store] = useState(() => new OrdersStore(createP2pApi(), scope));
  useScreen(store);
  useOrderPushes(() => store.refresh());
  const page = store.orders.data;
  const list = page?.list ?? [];
  const detailPath = scope === 'shop' ? paths.myshop.shopOrderDetail : paths.legalIndex.orderDetail;

  return (
    <div className="p2p-page" data-testid="p2p-orders" data-scope={scope}>
      <div className="p2p-head">
        <h1>{t(scope === 'shop' ? 'orders.shopTitle' : 'orders.title')}</h1>
        <P2pNav />
      </div>
      <section className="panel">
        <div className="tabs p2p-state-tabs" role="tablist" aria-label={t('orders.state')}>
          {STATE_FILTERS.map((s) => (
            <button key={s} type="button" role="tab" aria-selected={store.state === s}
              className={store.state === s ? 'tab active' : 'tab'} onClick={() => store.setState(s)}
              data-testid={`p2p-state-${s}`}>
              {t(`state.${stateName(s)}`)}
            </button>
          ))}
        </div>
        <div className="table-wrap">
          <table className="data-table" data-testid="p2p-order-list">
            <thead>
              <tr>
                <th>{t('orders.number')}</th>
                <th>{t('orders.type')}</th>
                <th className="num">{t('orders.amount')}</th>
                <th className="num">{t('orders.price')}</th>
                <th className="num">{t('orders.total')}</th>
                <th>{t('orders.method')}</th>
                <th>{t('orders.time')}</th>
                <th>{t('orders.state')}</th>
                <th className="num" />
              </tr>
            </thead>
            <tbody>
              {list.map((o) => (
                <OrderRow key={o.id} order={o} to={`${detailPath}?id=${o.id}`} />
              ))}
            </tbody>
          </table>
        </div>
        <ReadState resource={store.orders} empty={!list.length} whenEmpty={t('orders.empty')} />
        {page && <Pagination page={store.page} total={page.total} perPage={page.limit || 10} onPage={(p) => store.setPage(p)} />}
      </section>
    </div>
  );
});

function OrderRow({ order, to }: { order: OrderSummary; to: string }) {
  const { t } = useTranslation('p2p');
  const buyer = order.role === 'buyer';
  const methodName = useMethodName();
  return (
    <tr data-testid="p2p-order-row" data-id={order.id} data-state={order.state}>
      <td className="num">
        <Link className="link-accent" to={to} data-testid="p2p-order-link">
          {order.id}
        </Link>
      </td>
      <td className={buyer ? 'up' : 'down'}>{order.role ? t(buyer ? 'side.buy' : 'side.sell') : EMPTY} {order.currency}</td>
      <td className="num">
        {plain(order.amount) ?? EMPTY} {order.currency}
      </td>
      <td className="num">
        {formatPrice(order.price, 2)} {order.fiat}
      </td>
      <td className="num" data-testid="p2p-order-row-total">
        {formatPrice(order.total, 2)} {order.fiat}
      </td>
      <td>{order.pay_method ? methodName(order.pay_method) : EMPTY}</td>
      <td>{formatDateTime(order.created_ms)}</td>
      <td>
        <StateTag state={order.state} testId="p2p-order-row-state" />
      </td>
      <td className="num">
        <Link className="button small ghost" to={to}>
          {t('orders.view')}
        </Link>
      </td>
    </tr>
  );
}
