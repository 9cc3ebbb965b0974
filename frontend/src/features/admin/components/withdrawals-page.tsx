import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import type { PendingWithdrawal } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { Decide, Loaded } from './shared';

const Row = observer(function Row({ w }: { w: PendingWithdrawal }) {
  const { t } = useTranslation('admin');
  const { withdrawals } = useAdmin();
  const state = withdrawals.stateOf(w.id);
  return (
    <tr data-testid={`withdrawal-${w.id}`}>
      <td>{w.id}</td>
      <td>{w.account}</td>
      <td className="num">
        {w.amount} {w.currency}
        <small className="adm-muted"> ({t('withdrawals.fee')} {w.fee})</small>
      </td>
      <td className="num">${w.usd}</td>
      <td className="adm-break">{w.address}</td>
      <td>
        {w.needs_two && <span className="adm-badge">{t('withdrawals.needsTwo')}</span>}
        <small className="adm-muted" data-testid={`withdrawal-rule-${w.id}`}>
          {' '}{t(w.needs_two ? 'withdrawals.ruleTwo' : 'withdrawals.ruleOne', { day: w.usd_24h, limit: w.second_approval_usd })}
        </small>
        {w.withdraw_frozen && <span className="adm-badge adm-bad">{t('withdrawals.frozen')}</span>}
        {w.first_approval && <small className="adm-muted">{t('withdrawals.firstApprover', { operator: w.first_approval })}</small>}
        {state === 'waiting_second' && (
          <span className="adm-note" role="status">{t('withdrawals.waitingSecond')}</span>
        )}
        {state === 'failed' && <span className="adm-error">{withdrawals.errors.get(w.id)}</span>}
      </td>
      <td>
        <Decide busy={state === 'sending'} approveBlocked={w.withdraw_frozen ? t('withdrawals.frozen') : undefined}
          onDecide={(approve, reason) => withdrawals.decide(w.id, approve, reason)} />
      </td>
    </tr>
  );
});

/**
 * Finance's pending withdrawals: USD value, the two-operator rule (the user's 24 h total against the
 * threshold) with the first approver, a withdrawal freeze, decisions.
 */
export const WithdrawalsPage = observer(function WithdrawalsPage() {
  const { t } = useTranslation('admin');
  const { withdrawals } = useAdmin();
  useEffect(() => void withdrawals.queue.load(), [withdrawals]);
  const decided = [...withdrawals.states.entries()].filter(([, s]) => s === 'approved' || s === 'rejected');
  return (
    <>
      {decided.map(([id, s]) => (
        <p key={id} className="adm-ok" role="status">
          #{id}: {t(`withdrawals.${s as 'approved' | 'rejected'}`)}
        </p>
      ))}
      <Loaded resource={withdrawals.queue} empty={(d) => d.list.length === 0}>
        {(d) => (
          <table className="adm-table">
            <thead>
              <tr>
                <th>{t('withdrawals.id')}</th>
                <th>{t('withdrawals.account')}</th>
                <th className="num">{t('withdrawals.amount')}</th>
                <th className="num">{t('withdrawals.usd')}</th>
                <th>{t('withdrawals.address')}</th>
                <th />
                <th />
              </tr>
            </thead>
            <tbody>
              {d.list.map((w) => (
                <Row key={w.id} w={w} />
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </>
  );
});
