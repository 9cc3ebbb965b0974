import { observer } from 'mobx-react-lite';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { DEPOSIT_STATES, type ChainDeposit, type DepositState, type ManualDeposit } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { ConfirmDialog } from './confirm-dialog';
import { Loaded } from './shared';

const FIELDS = ['account', 'currency', 'amount', 'reason'] as const satisfies readonly (keyof ManualDeposit)[];

/** The manual deposit: the form, then a confirmation repeating what is credited to whom. */
const CreditForm = observer(function CreditForm() {
  const { t } = useTranslation('admin');
  const { deposits } = useAdmin();
  const [asking, setAsking] = useState(false);
  const sending = deposits.creditState === 'sending';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (deposits.ready) setAsking(true);
  };
  const { account, currency, amount } = deposits.request;
  return (
    <form className="adm-card adm-form" data-testid="deposits-credit-form" onSubmit={submit}>
      <h2>{t('deposits.manualTitle')}</h2>
      <p className="adm-muted">{t('deposits.manualHint')}</p>
      <div className="adm-fields">
        {FIELDS.map((field) => (
          <label key={field} className="adm-field">
            <span>{t(`deposits.${field}`)}</span>
            <input name={field} value={deposits.draft[field]} onChange={(e) => deposits.change(field, e.target.value)}
              inputMode={field === 'amount' ? 'decimal' : undefined} maxLength={field === 'reason' ? 500 : 128} required />
          </label>
        ))}
      </div>
      {deposits.creditState === 'failed' && (
        <p className="adm-error" role="alert" data-testid="deposits-credit-error">{deposits.creditError}</p>
      )}
      {deposits.creditState === 'done' && deposits.credited && (
        <p className="adm-ok" role="status" data-testid="deposits-credit-done">
          {t('deposits.credited', { ...deposits.credited, to: deposits.creditedTo })}
        </p>
      )}
      <div className="adm-actions">
        <button type="submit" className="adm-primary" disabled={!deposits.ready || sending} title={t('deposits.reasonRule')}>
          {t('deposits.credit')}
        </button>
      </div>
      {asking && (
        <ConfirmDialog
          message={t('deposits.confirm', { amount, currency, account })}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            void deposits.credit();
          }}
        />
      )}
    </form>
  );
});

function Row({ d }: { d: ChainDeposit }) {
  const { t } = useTranslation('admin');
  const badge = d.status === 1 ? 'adm-badge' : d.status === 2 ? 'adm-badge adm-bad' : 'adm-badge';
  return (
    <tr data-testid={`deposits-row-${d.id}`}>
      <td>{d.id}</td>
      <td>{d.account} <small className="adm-muted">#{d.user_id}</small></td>
      <td className="num">{d.amount} {d.currency} <small className="adm-muted">{d.protocol}</small></td>
      <td className="adm-break">
        {d.address}
        {d.memo && <small className="adm-muted"> ({t('deposits.memo')} {d.memo})</small>}
        <br />
        <small className="adm-muted">{d.tx_hash}</small>
      </td>
      <td className="num">{d.confirmations}</td>
      <td><span className={badge} data-testid={`deposits-state-${d.id}`}>{t(`deposits.state${d.status}`)}</span></td>
      <td><small>{d.created_at.replace('T', ' ').slice(0, 19)}</small></td>
    </tr>
  );
}

/** Finance's deposits: chain transfers by state with pages, and a manual deposit with a reason. */
export const DepositsPage = observer(function DepositsPage() {
  const { t } = useTranslation('admin');
  const { deposits } = useAdmin();
  useEffect(() => void deposits.list.load(), [deposits]);
  return (
    <>
      <CreditForm />
      <div className="adm-filters">
        <label className="adm-field">
          <span>{t('deposits.state')}</span>
          <select name="status" data-testid="deposits-filter" value={deposits.status ?? ''}
            onChange={(e) => deposits.setStatus(e.target.value === '' ? null : (Number(e.target.value) as DepositState))}>
            <option value="">{t('deposits.all')}</option>
            {DEPOSIT_STATES.map((s) => <option key={s} value={s}>{t(`deposits.state${s}`)}</option>)}
          </select>
        </label>
      </div>
      <Loaded resource={deposits.list} empty={(d) => d.data.length === 0}>
        {(d) => (
          <>
            <div className="adm-scroll">
              <table className="adm-table" data-testid="deposits-table">
                <thead>
                  <tr>
                    <th>{t('deposits.id')}</th>
                    <th>{t('deposits.account')}</th>
                    <th className="num">{t('deposits.amount')}</th>
                    <th>{t('deposits.address')}</th>
                    <th className="num">{t('deposits.confirmations')}</th>
                    <th>{t('deposits.state')}</th>
                    <th>{t('deposits.time')}</th>
                  </tr>
                </thead>
                <tbody>
                  {d.data.map((row) => <Row key={row.id} d={row} />)}
                </tbody>
              </table>
            </div>
            <div className="adm-pager">
              <button type="button" disabled={deposits.page <= 1} onClick={() => deposits.setPage(deposits.page - 1)}>{t('common.prev')}</button>
              <span>{t('common.page', { page: deposits.page, last: deposits.lastPage })}</span>
              <button type="button" disabled={deposits.page >= deposits.lastPage} onClick={() => deposits.setPage(deposits.page + 1)}>{t('common.next')}</button>
            </div>
          </>
        )}
      </Loaded>
    </>
  );
});
