/**
 * Small pieces every P2P screen uses: the state of a read, the P2P section's tabs, an order's state
 * tag, label / value facts and the payment methods as badges.
 */
import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';

import { ReadState as SharedReadState } from '@/components/ui/read-state';
import { paths } from '@/config/paths';
import { useStores } from '@/stores/root-store';

import type { Loadable } from '@/lib/loadable';
import { ORDER_STATE, type OrderState, PAY_CODES, type PayCode, type StateFilter } from '../types';

import '../i18n';

/** The shared read state (loading, failed with a retry, empty) in this section's texts and test ids. */
export function ReadState(props: { resource: Loadable<unknown>; empty?: boolean; whenEmpty?: ReactNode }) {
  const { t } = useTranslation('p2p');
  const texts = {
    loading: t('common.loading'),
    loadFailed: t('common.loadFailed'),
    retry: t('common.retry'),
    empty: t('common.empty'),
  };
  return <SharedReadState {...props} texts={texts} testIdPrefix="p2p" />;
}

/** The P2P section's pages: the market and my orders; my store and its orders for a member. */
export const P2pNav = observer(function P2pNav() {
  const { t } = useTranslation('p2p');
  const { session } = useStores();
  const links = [
    { to: paths.legalIndex.legal, label: t('nav.market'), testId: 'p2p-nav-market' },
    ...(session.isLoggedIn
      ? [
          { to: paths.legalIndex.orders, label: t('nav.orders'), testId: 'p2p-nav-orders' },
          { to: paths.myshop.myShopOrders, label: t('nav.shop'), testId: 'p2p-nav-shop' },
          { to: paths.myshop.shopOrders, label: t('nav.shopOrders'), testId: 'p2p-nav-shop-orders' },
        ]
      : []),
  ];
  return (
    <nav className="tabs p2p-nav" aria-label={t('nav.label')}>
      {links.map((l) => (
        <NavLink key={l.to} to={l.to} className={({ isActive }) => (isActive ? 'tab active' : 'tab')} data-testid={l.testId}>
          {l.label}
        </NavLink>
      ))}
    </nav>
  );
});

const STATE_NAME = {
  [ORDER_STATE.unpaid]: 'unpaid',
  [ORDER_STATE.paid]: 'paid',
  [ORDER_STATE.completed]: 'completed',
  [ORDER_STATE.cancelled]: 'cancelled',
  [ORDER_STATE.appeal]: 'appeal',
} as const satisfies Record<OrderState, string>;

/** The translation key's last part of a state filter (0 all). */
export function stateName(state: StateFilter): (typeof STATE_NAME)[OrderState] | 'all' {
  return state === 0 ? 'all' : (STATE_NAME[state] ?? 'all');
}

const STATE_TONE: Record<OrderState, string> = {
  [ORDER_STATE.unpaid]: 'soon',
  [ORDER_STATE.paid]: 'open',
  [ORDER_STATE.completed]: 'done',
  [ORDER_STATE.cancelled]: 'bad',
  [ORDER_STATE.appeal]: 'bad',
};

/** An order's state as a coloured tag. */
export function StateTag({ state, testId }: { state: OrderState; testId?: string }) {
  const { t } = useTranslation('p2p');
  return (
    <span className={`p2p-tag ${STATE_TONE[state] ?? 'done'}`} data-testid={testId} data-state={state}>
      {t(`state.${stateName(state)}`)}
    </span>
  );
}

export interface Fact {
  key: string;
  label: ReactNode;
  value: ReactNode;
  className?: string;
}

/** Label / value pairs in a grid; each value's test id is `{prefix}-{key}`. */
export function Facts({ facts, testIdPrefix }: { facts: readonly Fact[]; testIdPrefix: string }) {
  return (
    <dl className="p2p-facts">
      {facts.map((f) => (
        <div key={f.key}>
          <dt className="muted">{f.label}</dt>
          <dd className={f.className ?? 'num'} data-testid={`${testIdPrefix}-${f.key}`}>
            {f.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function isPayCode(code: string): code is PayCode {
  return (PAY_CODES as readonly string[]).includes(code);
}

/** A payment method's name in the UI language (the code itself for one the screen does not know). */
export function useMethodName(): (code: string) => string {
  const { t } = useTranslation('p2p');
  return (code) => (isPayCode(code) ? t(`methods.${code}`) : code);
}

/** Payment methods as small coloured badges. */
export function MethodBadges({ methods, testId }: { methods: readonly string[]; testId?: string }) {
  const name = useMethodName();
  return (
    <span className="p2p-methods" data-testid={testId}>
      {methods.map((m) => (
        <span key={m} className={`p2p-method ${m}`} data-method={m}>
          {name(m)}
        </span>
      ))}
    </span>
  );
}
