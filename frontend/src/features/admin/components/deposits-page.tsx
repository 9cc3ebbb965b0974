import { observer } from 'mobx-react-lite';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { DEPOSIT_STATES, type ChainDeposit, type DepositState, type ManualCredit, type ManualDeposit } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { ConfirmDialog } from './confirm-dialog';
import { Decide, formatMs, Loaded, Pager } from './shared';

const FIELDS = ['account', 'currency', 'amount', 'ref', 'reason'] as const satisfies readonly (keyof ManualDeposit)[];

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
      {deposits.threshold !== null && (
        <p className="adm-muted" data-testid="deposits-credit-rule">{t('deposits.rule', { usd: deposits.threshold })}</p>
      )}
      <div className="adm-fields">
        {FIELDS.map((field) => (
          <label key={field} className="adm-field">
            <span>{t(`deposits.${field}`)}</span>
            <input name={field} value={deposits.draft[field]} onChange={(e) => deposits.change(field, e.target.value)}
              inputMode={field === 'amount' ? 'decimal' : undefined} maxLength={field === 'reason' ? 500 : 128}
              title={field === 'ref' ? t('deposits.refHint') : undefined} required />
          </label>
        ))}
      </div>
      {deposits.creditState === 'failed' && (
        <p className="adm-error" role="alert" data-testid="deposits-credit-error">{deposits.creditError}</p>
      )}
      {deposits.creditState === 'done' && deposits.credited && (
        <p className="adm-ok" role="status" data-testid="deposits-credit-done">
          {t(deposits.credited.waiting_for_second_approval ? 'deposits.waiting' : 'deposits.credited', {
            ...deposits.credited, account: deposits.credited.account_type.replace(/_account$/, ''), to: deposits.creditedTo,
          })}
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

/** One credit waiting for a second operator: who asked, what, why; approve or reject (not by whoever asked). */
const PendingRow = observer(function PendingRow({ c }: { c: ManualCredit }) {
  const { t } = useTranslation('admin');
  const { deposits, session } = useAdmin();
  const state = deposits.decisionOf(c.id);
  const mine = session.operator?.email === c.requested_by;
  return (
    <tr data-testid={`credit-${c.id}`}>
      <td>{c.id}</td>
      <td>{c.account} <small className="adm-muted">#{c.user_id}</small></td>
      <td className="num">{c.amount} {c.currency} <small className="adm-muted">{c.account_type}</small></td>
      <td className="num">${c.usd}</td>
      <td className="adm-break">{c.ref}<br /><small className="adm-muted">{c.reason}</small></td>
      <td>{c.requested_by}<br /><small className="adm-muted">{formatMs(c.created_ms)}</small></td>
      <td>
        {mine && <small className="adm-muted">{t('deposits.notYours')}</small>}
        {state === 'failed' && <span className="adm-error">{deposits.decisionErrors.get(c.id)}</span>}
        <Decide busy={state === 'sending' || mine} onDecide={(approve, reason) => deposits.decide(c.id, approve, reason)} />
      </td>
    </tr>
  );
});

/** Manual credits above the threshold, waiting for a second finance operator. */
const PendingCredits = observer(function PendingCredits() {
  const { t } = useTranslation('admin');
  const { deposits } = useAdmin();
  const done = [...deposits.decisions.entries()].filter(([, s]) => s === 'credited' || s === 'rejected');
  return (
    <section className="adm-card" data-testid="deposits-pending">
      <h2>{t('deposits.pendingTitle')}</h2>
      {done.map(([id, s]) => (
        <p key={id} className="adm-ok" role="status">#{id}: {t(`deposits.decided_${s as 'credited' | 'rejected'}`)}</p>
      ))}
      <Loaded resource={deposits.pending} empty={(d) => d.list.length === 0}>
        {(d) => (
          <div className="adm-scroll">
            <table className="adm-table">
              <thead>
                <tr>
                  <th>{t('deposits.id')}</th>
                  <th>{t('deposits.account')}</th>
                  <th className="num">{t('deposits.amount')}</th>
                  <th className="num">{t('deposits.usd')}</th>
                  <th>{t('deposits.refReason')}</th>
                  <th>{t('deposits.requestedBy')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {d.list.map((c) => <PendingRow key={c.id} c={c} />)}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </section>
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

/**
 * Finance's deposits: a manual deposit with a reference and a reason, the manual credits waiting for a
 * second operator, and chain transfers by state with pages.
 */
export const DepositsPage = observer(function DepositsPage() {
  const { t } = useTranslation('admin');
  const { deposits } = useAdmin();
  useEffect(() => {
    void deposits.list.load();
    void deposits.pending.load();
  }, [deposits]);
  return (
    <>
      <CreditForm />
      <PendingCredits />
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
            <Pager of={deposits} />
          </>
        )}
      </Loaded>
    </>
  );
});
