/**
 * One P2P order (/legalIndex/orderdetail?id= for the taker, /myshop/shoporderdetail?id= for the
 * merchant; the same page, the route chooses where "back" goes): the state banner with the payment
 * window's countdown, amount, price and total, the seller's payment details for the chosen method,
 * the counterparty's masked name, the order number and its timeline, and the buttons of the actions
 * the server lists. Live: a LEGAL_ORDER push for this order reads it again.
 */
import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router-dom';

import { useScreen } from '@/components/market/use-screen';
import { CopyButton } from '@/components/ui/copy-button';
import { paths } from '@/config/paths';
import { formatClock } from '@/lib/countdown';
import { EMPTY, formatDateTime, formatPrice } from '@/lib/format';

import { createP2pApi } from './api/p2p-api';
import { ActionDialog } from './components/action-dialogs';
import { Facts, P2pNav, ReadState, StateTag, stateName, useMethodName } from './components/ui';
import { plain } from './lib/money';
import { OrderStore } from './stores/order-store';
import { ORDER_STATE, type OrderAction, type OrderDetail, type OrderState, type PayDetails } from './types';
import { useOrderPushes } from './lib/use-order-pushes';

import './i18n';
import '@/components/form/form.css';
import './p2p.css';

/** The `?id=` of the page as a positive integer, or null. */
function useOrderId(): number | null {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export default function OrderDetailPage() {
  const { t } = useTranslation('p2p');
  const { pathname } = useLocation();
  const id = useOrderId();
  const shop = pathname.startsWith(paths.myshop.root);
  const back = shop ? paths.myshop.shopOrders : paths.legalIndex.orders;
  return (
    <div className="p2p-page" data-testid="p2p-order-page">
      <div className="p2p-head">
        <Link className="link-accent" to={back} data-testid="p2p-back">
          ← {t(shop ? 'detail.backShop' : 'detail.back')}
        </Link>
        <P2pNav />
      </div>
      {id === null ? (
        <section className="panel empty" data-testid="p2p-no-order">
          <p className="muted">{t('detail.noId')}</p>
          <Link className="button ghost" to={back}>
            {t(shop ? 'detail.backShop' : 'detail.back')}
          </Link>
        </section>
      ) : (
        <OrderView key={id} id={id} />
      )}
    </div>
  );
}

const OrderView = observer(function OrderView({ id }: { id: number }) {
  const [store] = useState(() => new OrderStore(createP2pApi(), id));
  useScreen(store);
  useOrderPushes((orderId) => store.onPush(orderId));
  const order = store.order;
  if (!order) return <ReadState resource={store.detail} />;
  return (
    <div className="p2p-detail" data-testid="p2p-order" data-id={order.id} data-state={order.state} data-role={order.role}>
      <div className="p2p-detail-main">
        <Banner store={store} order={order} />
        <Summary order={order} />
        {order.pay_details && <PayPanel order={order} details={order.pay_details} />}
        <Actions store={store} />
      </div>
      <aside className="p2p-detail-side">
        <Parties order={order} />
        {order.appeal && <AppealPanel order={order} />}
        <Timeline order={order} />
      </aside>
      {store.dialog && <ActionDialog store={store} order={order} action={store.dialog} />}
    </div>
  );
});

/** The state in words for this side of the order, with the countdown while the buyer may pay. */
const Banner = observer(function Banner({ store, order }: { store: OrderStore; order: OrderDetail }) {
  const { t } = useTranslation('p2p');
  const left = store.secondsLeft;
  const total = `${formatPrice(order.total, 2)} ${order.fiat}`;
  return (
    <section className={`panel p2p-banner state-${order.state}`} data-testid="p2p-banner">
      <div className="p2p-banner-head">
        <StateTag state={order.state} testId="p2p-order-state" />
        <h1>{t(order.role === 'buyer' ? 'detail.titleBuy' : 'detail.titleSell', { code: order.currency })}</h1>
      </div>
      <p data-testid="p2p-banner-text">{t(bannerKey(order), { total })}</p>
      {left !== null && (
        <p className="p2p-countdown">
          <span className="muted">{t('detail.remaining')}</span>{' '}
          <strong className="num" data-testid="p2p-countdown">
            {formatClock(left)}
          </strong>
        </p>
      )}
    </section>
  );
});

type BannerKey =
  | 'banner.unpaidBuyer'
  | 'banner.unpaidSeller'
  | 'banner.paidBuyer'
  | 'banner.paidSeller'
  | 'banner.completedBuyer'
  | 'banner.completedSeller'
  | 'banner.cancelled'
  | 'banner.cancelledTimeout'
  | 'banner.cancelledAppeal'
  | 'banner.appeal';

function bannerKey(order: OrderDetail): BannerKey {
  const buyer = order.role === 'buyer';
  switch (order.state) {
    case ORDER_STATE.unpaid:
      return buyer ? 'banner.unpaidBuyer' : 'banner.unpaidSeller';
    case ORDER_STATE.paid:
      return buyer ? 'banner.paidBuyer' : 'banner.paidSeller';
    case ORDER_STATE.completed:
      return buyer ? 'banner.completedBuyer' : 'banner.completedSeller';
    case ORDER_STATE.appeal:
      return 'banner.appeal';
    default:
      if (order.cancel_kind === 'timeout') return 'banner.cancelledTimeout';
      if (order.cancel_kind === 'appeal') return 'banner.cancelledAppeal';
      return 'banner.cancelled';
  }
}

function Summary({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('p2p');
  const methodName = useMethodName();
  return (
    <section className="panel">
      <Facts testIdPrefix="p2p-order"
        facts={[
          { key: 'amount', label: t('detail.amount'), value: `${plain(order.amount) ?? EMPTY} ${order.currency}` },
          { key: 'price', label: t('detail.price'), value: `${formatPrice(order.price, 2)} ${order.fiat}` },
          {
            key: 'total',
            label: t('detail.total'),
            value: `${formatPrice(order.total, 2)} ${order.fiat}`,
            className: 'num p2p-strong',
          },
          { key: 'method', label: t('detail.method'), value: methodName(order.pay_method), className: '' },
          {
            key: 'number',
            label: t('detail.number'),
            value: (
              <span className="p2p-copy-line">
                <span>{order.id}</span>
                <CopyButton text={String(order.id)} testId="p2p-copy-number" />
              </span>
            ),
          },
          { key: 'created', label: t('detail.created'), value: formatDateTime(order.created_ms) },
        ]} />
    </section>
  );
}

/** The seller's collection details for the chosen method, copied onto the order when it opened. */
function PayPanel({ order, details }: { order: OrderDetail; details: PayDetails }) {
  const { t } = useTranslation('p2p');
  const methodName = useMethodName();
  const bank = order.pay_method === 'bank';
  const rows: { key: string; label: string; value: string | undefined; copy?: boolean }[] = bank
    ? [
        { key: 'name', label: t('pay.name'), value: details.real_name, copy: true },
        { key: 'bank', label: t('pay.bank'), value: details.bank_name, copy: true },
        { key: 'branch', label: t('pay.branch'), value: details.bank_address, copy: true },
        { key: 'card', label: t('pay.card'), value: details.card_no, copy: true },
      ]
    : [
        { key: 'name', label: t('pay.name'), value: details.real_name, copy: true },
        { key: 'account', label: t('pay.account'), value: details.account, copy: true },
      ];
  return (
    <section className="panel p2p-pay" data-testid="p2p-pay-details" data-method={order.pay_method}>
      <div className="panel-head">
        <h2>{t(order.role === 'buyer' ? 'pay.titleBuyer' : 'pay.titleSeller')}</h2>
        <span className={`p2p-method ${order.pay_method}`}>{methodName(order.pay_method)}</span>
      </div>
      <div className="p2p-pay-body">
        <dl className="p2p-pay-rows">
          {rows.map((r) => (
            <div key={r.key}>
              <dt className="muted">{r.label}</dt>
              <dd>
                <span data-testid={`p2p-pay-${r.key}`}>{r.value || EMPTY}</span>
                {r.copy && r.value && <CopyButton text={r.value} testId={`p2p-copy-${r.key}`} />}
              </dd>
            </div>
          ))}
          <div>
            <dt className="muted">{t(order.role === 'buyer' ? 'pay.amount' : 'pay.amountSeller')}</dt>
            <dd>
              <strong className="num">
                {formatPrice(order.total, 2)} {order.fiat}
              </strong>
              <CopyButton text={formatPrice(order.total, 2)} testId="p2p-copy-total" />
            </dd>
          </div>
        </dl>
        {!bank && details.qrcode && (
          <figure className="p2p-qr">
            <img src={details.qrcode} alt={t('pay.qrcode')} data-testid="p2p-pay-qrcode" />
            <figcaption className="muted">{t('pay.qrcode')}</figcaption>
          </figure>
        )}
      </div>
      {order.role === 'buyer' && order.state === ORDER_STATE.unpaid && (
        <p className="muted p2p-small">{t('pay.note')}</p>
      )}
    </section>
  );
}

const ACTION_ORDER: OrderAction[] = ['paid', 'release', 'appeal', 'reply', 'cancel'];

const Actions = observer(function Actions({ store }: { store: OrderStore }) {
  const { t } = useTranslation('p2p');
  const actions = ACTION_ORDER.filter((a) => store.can(a));
  if (!actions.length) return null;
  return (
    <section className="panel p2p-actions" data-testid="p2p-actions">
      {actions.map((a) => (
        <button key={a} type="button"
          className={a === 'cancel' || a === 'appeal' || a === 'reply' ? 'button ghost' : 'button p2p-act buy'}
          onClick={() => store.ask(a)} data-testid={`p2p-action-${a}`}>
          {t(`actions.${a}`)}
        </button>
      ))}
    </section>
  );
});

function Parties({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('p2p');
  const other = order.role === 'buyer' ? t('detail.seller') : t('detail.buyer');
  return (
    <section className="panel">
      <h2>{other}</h2>
      <Facts testIdPrefix="p2p-counterparty"
        facts={[
          { key: 'name', label: t('detail.realName'), value: order.counterparty.name || EMPTY, className: '' },
          ...(order.counterparty.nickname
            ? [{ key: 'nickname', label: t('detail.nickname'), value: order.counterparty.nickname, className: '' }]
            : []),
        ]} />
      {order.proof && (
        <figure className="p2p-proof">
          <figcaption className="muted">{t('detail.proof')}</figcaption>
          <a href={order.proof} target="_blank" rel="noopener noreferrer">
            <img src={order.proof} alt={t('detail.proof')} data-testid="p2p-proof" />
          </a>
        </figure>
      )}
    </section>
  );
}

function AppealPanel({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('p2p');
  const appeal = order.appeal;
  if (!appeal) return null;
  return (
    <section className="panel p2p-appeal" data-testid="p2p-appeal">
      <h2>{t('detail.appeal')}</h2>
      <p className="muted p2p-small">{t('detail.appealBy', { side: partyName(t, appeal.by) })}</p>
      <p className="p2p-reason" data-testid="p2p-appeal-reason">
        {appeal.reason}
      </p>
      {appeal.images.length > 0 && (
        <div className="p2p-thumbs">
          {appeal.images.map((url) => (
            <a key={url} href={url} target="_blank" rel="noopener noreferrer">
              <img src={url} alt={t('detail.evidence')} />
            </a>
          ))}
        </div>
      )}
      {appeal.reply && (
        <div className="p2p-reply" data-testid="p2p-appeal-reply">
          <h3>{t('detail.reply', { side: partyName(t, appeal.by === 'buyer' ? 'seller' : 'buyer') })}</h3>
          <p className="p2p-reason">{appeal.reply.reason}</p>
          {appeal.reply.images.length > 0 && (
            <div className="p2p-thumbs">
              {appeal.reply.images.map((url) => (
                <a key={url} href={url} target="_blank" rel="noopener noreferrer">
                  <img src={url} alt={t('detail.evidence')} />
                </a>
              ))}
            </div>
          )}
        </div>
      )}
      {order.resolved_to && (
        <p data-testid="p2p-resolved">{t('detail.resolved', { side: partyName(t, order.resolved_to) })}</p>
      )}
    </section>
  );
}

type T = TFunction<'p2p'>;

/** Who did a step: buyer, seller, the system (a window ran out) or an operator. */
function partyName(t: T, by: string): string {
  switch (by) {
    case 'buyer':
      return t('by.buyer');
    case 'seller':
      return t('by.seller');
    case 'operator':
      return t('by.operator');
    case 'system':
      return t('by.system');
    default:
      return by;
  }
}

function stateLabel(t: T, state: number): string {
  return state >= 1 && state <= 5 ? t(`state.${stateName(state as OrderState)}`) : t('state.opened');
}

function Timeline({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('p2p');
  const events = [...order.events].sort((a, b) => a.seq - b.seq);
  return (
    <section className="panel">
      <h2>{t('detail.timeline')}</h2>
      <ol className="p2p-timeline" data-testid="p2p-events">
        {events.map((e) => (
          <li key={e.seq} data-testid="p2p-event" data-to={e.to_state}>
            <span className="p2p-dot" aria-hidden="true" />
            <div>
              <strong>{stateLabel(t, e.to_state)}</strong>{' '}
              <span className="muted">· {partyName(t, e.by)}</span>
              <div className="muted p2p-small">{formatDateTime(e.at_ms)}</div>
              {e.note ? <div className="p2p-small p2p-event-note">{e.note}</div> : null}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
