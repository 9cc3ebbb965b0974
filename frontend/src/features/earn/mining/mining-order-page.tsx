/**
 * The user's mining orders (/mining/order, token required; spec shell §2, §9): tabs in progress (0)
 * and ended (1); a card per order with yield, cycle, start time, amount in its asset, days booked
 * and earnings; an active order has a cancel link whose confirmation shows the penalty (ratio ×
 * remaining days × amount). 6 a page; the pager shows only when there is more than one page.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { Pagination } from '@/components/ui/pagination';
import { paths } from '@/config/paths';
import { EMPTY, formatDateTime, formatPrice } from '@/lib/format';

import { type EarnTab, Tabs } from '../common/tabs';
import { ConfirmPrompt, Facts, ReadState, StatusTag } from '../common/ui';
import { createMiningApi, MINING_PAGE_SIZE, type OrdersTab } from './api/mining-api';
import { afterPenalty, remainingDays } from './lib/rules';
import { MiningOrdersStore } from './stores/mining-stores';
import { type MiningOrder, ORDER_STATUS } from './types';

import '../i18n';
import '../earn.css';

export default observer(function MiningOrderPage() {
  const { t } = useTranslation('earn');
  const [store] = useState(() => new MiningOrdersStore(createMiningApi()));
  useEffect(() => store.start(), [store]);
  const list = store.orders.data?.list ?? [];
  const tabs: EarnTab<OrdersTab>[] = [
    { key: 0, label: t('mining.orders.running'), testId: 'mining-tab-0' },
    { key: 1, label: t('mining.orders.ended'), testId: 'mining-tab-1' },
  ];

  return (
    <div className="earn-page" data-testid="mining-orders">
      <div className="earn-head">
        <h1>{t('mining.orders.title')}</h1>
        <Link className="button ghost" to={paths.miningList}>
          {t('mining.list.title')}
        </Link>
      </div>
      <section className="panel">
        <Tabs tabs={tabs} active={store.tab} onSelect={(k) => store.setTab(k)} label={t('mining.orders.title')} />
        <ReadState resource={store.orders} empty={!list.length} />
        <div className="earn-grid">
          {list.map((o) => (
            <OrderCard key={o.id} order={o} store={store} />
          ))}
        </div>
        {/* mining/orders answers a page count: the pager's total is pages × 6, so it shows above one page. */}
        <Pagination page={store.page} total={store.pages * MINING_PAGE_SIZE} perPage={MINING_PAGE_SIZE}
          onPage={(p) => store.setPage(p)} />
      </section>
      {store.cancelling && <CancelConfirm store={store} order={store.cancelling} />}
    </div>
  );
});

const OrderCard = observer(function OrderCard({ order, store }: { order: MiningOrder; store: MiningOrdersStore }) {
  const { t } = useTranslation('earn');
  const active = order.status === ORDER_STATUS.active;
  const statusKey = active ? 'mining' : order.status === ORDER_STATUS.cancelled ? 'cancelled' : 'completed';
  return (
    <article className="panel earn-card" data-testid="mining-order" data-id={order.id} data-status={order.status}>
      <div className="earn-card-head">
        <h3>{order.title}</h3>
        <StatusTag tone={active ? 'open' : order.status === ORDER_STATUS.cancelled ? 'bad' : 'done'} testId="mining-order-status">
          {t(`mining.orders.status.${statusKey}`)}
        </StatusTag>
      </div>
      <Facts testIdPrefix="mining-order"
        facts={[
          { key: 'yield', label: t('mining.dailyYield'), value: `${order.shouyi}%` },
          { key: 'cycle', label: t('mining.cycle'), value: t('common.days', { days: order.zhouqi }) },
          { key: 'start', label: t('mining.orders.start'), value: formatDateTime(order.times) },
          { key: 'amount', label: t('mining.amount'), value: `${formatPrice(order.nums)} ${order.currency_code}` },
          { key: 'days', label: t('mining.orders.days'), value: `${order.days} / ${order.zhouqi}` },
          { key: 'total', label: t('mining.orders.total'), value: `${formatPrice(order.total)} ${order.currency_code}` },
          ...(order.status === ORDER_STATUS.cancelled
            ? [{ key: 'penalty', label: t('mining.orders.penalty'), value: `${formatPrice(order.penalty)} ${order.currency_code}` }]
            : [{ key: 'end', label: t('mining.orders.end'), value: order.end_date || EMPTY }]),
        ]} />
      {active && (
        <button type="button" className="link-button" onClick={() => store.ask(order)} data-testid="mining-cancel">
          {t('mining.orders.cancel')}
        </button>
      )}
    </article>
  );
});

const CancelConfirm = observer(function CancelConfirm({ store, order }: { store: MiningOrdersStore; order: MiningOrder }) {
  const { t } = useTranslation('earn');
  const penalty = store.penaltyOf(order);
  const code = order.currency_code;
  const rate = store.penaltyRate(order);
  return (
    <ConfirmPrompt title={t('mining.orders.cancelTitle')} testId="mining-cancel-confirm" busy={store.busy} danger
      onCancel={() => store.dismiss()} onConfirm={() => void store.confirm()}
      rows={[
        { key: 'amount', label: t('mining.amount'), value: `${formatPrice(order.nums)} ${code}` },
        { key: 'remaining', label: t('mining.orders.remaining'), value: t('common.days', { days: remainingDays(order.zhouqi, order.days) }) },
        { key: 'rate', label: t('mining.penaltyRate'), value: rate ? t('mining.penaltyPerDay', { rate: formatPrice(rate) }) : EMPTY },
        { key: 'penalty', label: t('mining.orders.penalty'), value: penalty ? `${formatPrice(penalty)} ${code}` : EMPTY },
        { key: 'returned', label: t('mining.orders.returned'), value: penalty ? `${formatPrice(afterPenalty(order.nums, penalty))} ${code}` : EMPTY },
      ]}>
      <p className="muted">{t('mining.orders.cancelNote')}</p>
    </ConfirmPrompt>
  );
});
