import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { PendingWithdrawal } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { Loaded } from './shared';

const Row = observer(function Row({ w }: { w: PendingWithdrawal }) {
  const { t } = useTranslation('admin');
  const { withdrawals } = useAdmin();
  const [reason, setReason] = useState('');
  const state = withdrawals.stateOf(w.id);
  const busy = state === 'sending';
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
        {w.first_approval && <small className="adm-muted">{t('withdrawals.firstApprover', { operator: w.first_approval })}</small>}
        {state === 'waiting_second' && (
          <span className="adm-note" role="status">{t('withdrawals.waitingSecond')}</span>
        )}
        {state === 'failed' && <span className="adm-error">{withdrawals.errors.get(w.id)}</span>}
      </td>
      <td>
        <div className="adm-decide">
          <input name="reason" placeholder={t('common.reason')} value={reason} onChange={(e) => setReason(e.target.value)} />
          <button type="button" className="adm-primary" disabled={busy} onClick={() => withdrawals.decide(w.id, true, reason.trim())}>
            {t('common.approve')}
          </button>
          <button type="button" className="adm-danger" disabled={busy || !reason.trim()} title={t('common.reasonRequired')}
            onClick={() => withdrawals.decide(w.id, false, reason.trim())}>
            {t('common.reject')}
          </button>
        </div>
      </td>
    </tr>
  );
});

/** Finance's pending withdrawals: USD value, two-approval badge and first approver, decisions. */
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
