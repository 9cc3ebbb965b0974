import { observer } from 'mobx-react-lite';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { AdminCurrency } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { CURRENCY_FIELDS, type CurrencySwitch } from '../stores/currencies-store';
import { ConfirmDialog } from './confirm-dialog';
import { ReasonAndSave, RowOutcome } from './settings-parts';
import { Loaded } from './shared';

interface Asked {
  currency: AdminCurrency;
  which: CurrencySwitch;
  value: boolean;
  label: string;
}

const COLUMNS = CURRENCY_FIELDS.length + 4; // code, deposits, withdrawals, the editable fields, actions

const EditForm = observer(function EditForm({ currency }: { currency: AdminCurrency }) {
  const { t } = useTranslation('admin');
  const { currencies } = useAdmin();
  const [reason, setReason] = useState('');
  const draft = currencies.draft!;
  const unchanged = Object.keys(currencies.changes).length === 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void currencies.save(reason.trim());
  };
  return (
    <tr>
      <td colSpan={COLUMNS}>
        <form className="adm-card adm-form" data-testid={`currencies-form-${currency.id}`} onSubmit={submit}>
          <h2>{t('currencies.editTitle', { code: currency.code })}</h2>
          <p className="adm-muted">{t('currencies.note')}</p>
          <div className="adm-fields">
            {CURRENCY_FIELDS.map((field) => (
              <label key={field} className="adm-field">
                <span>{t(`currencies.${field}`)}</span>
                <input name={field} value={draft[field]}
                  inputMode={field === 'confirmations' ? 'numeric' : field === 'micro_numbers' ? 'text' : 'decimal'}
                  onChange={(e) => currencies.change(field, e.target.value)}
                  required={field !== 'micro_numbers'} maxLength={field === 'micro_numbers' ? 128 : 32} />
              </label>
            ))}
          </div>
          <ReasonAndSave reason={reason} onReason={setReason} error={currencies.errors.get(currency.id)}
            unchanged={unchanged} sending={currencies.stateOf(currency.id) === 'sending'} onCancel={currencies.close} />
        </form>
      </td>
    </tr>
  );
});

function Switch({ on }: { on: boolean }) {
  const { t } = useTranslation('admin');
  return <span className={on ? 'adm-badge' : 'adm-badge adm-bad'}>{on ? t('currencies.open') : t('currencies.closed')}</span>;
}

const Row = observer(function Row({ currency, ask }: { currency: AdminCurrency; ask: (a: Asked) => void }) {
  const { t } = useTranslation('admin');
  const { currencies } = useAdmin();
  const id = currency.id;
  const state = currencies.stateOf(id);
  const busy = state === 'sending';
  const editing = currencies.editingId === id;
  const deposits = currency.open_recharge ? t('currencies.closeDeposits') : t('currencies.openDeposits');
  const withdrawals = currency.open_draw ? t('currencies.closeWithdrawals') : t('currencies.openWithdrawals');
  return (
    <>
      <tr data-testid={`currencies-row-${id}`} className={editing ? 'adm-selected' : ''}>
        <td><b>{currency.code}</b> <small className="adm-muted">#{id}</small></td>
        <td data-testid={`currencies-deposits-${id}`}><Switch on={currency.open_recharge} /></td>
        <td data-testid={`currencies-withdrawals-${id}`}><Switch on={currency.open_draw} /></td>
        {CURRENCY_FIELDS.map((field) => (
          <td key={field} className={field === 'micro_numbers' ? '' : 'num'}>
            {field === 'micro_numbers' && !currency.micro_numbers
              ? <span className="adm-muted">{t('currencies.noStakes')}</span>
              : currency[field]}
          </td>
        ))}
        <td>
          <div className="adm-decide">
            <button type="button" className={currency.open_recharge ? 'adm-danger' : 'adm-primary'} disabled={busy}
              data-testid={`currencies-toggle-deposits-${id}`}
              onClick={() => ask({ currency, which: 'open_recharge', value: !currency.open_recharge, label: deposits })}>
              {deposits}
            </button>
            <button type="button" className={currency.open_draw ? 'adm-danger' : 'adm-primary'} disabled={busy}
              data-testid={`currencies-toggle-withdrawals-${id}`}
              onClick={() => ask({ currency, which: 'open_draw', value: !currency.open_draw, label: withdrawals })}>
              {withdrawals}
            </button>
            <button type="button" disabled={busy || editing} data-testid={`currencies-edit-${id}`}
              onClick={() => currencies.edit(currency)}>
              {t('currencies.edit')}
            </button>
          </div>
          {!(state === 'failed' && editing) && (
            <RowOutcome state={state} saved={t(state === 'saved' ? 'currencies.saved' : 'currencies.savedLater')}
              error={currencies.errors.get(id)} testId={(what) => `currencies-${what}-${id}`} />
          )}
        </td>
      </tr>
      {editing && currencies.draft && <EditForm currency={currency} />}
    </>
  );
});

/**
 * The markets role's currencies: deposits and withdrawals switched on or off; the withdrawal fee and
 * bounds, the deposit minimum, confirmations and second-contract stakes edited, each with a reason.
 */
export const CurrenciesPage = observer(function CurrenciesPage() {
  const { t } = useTranslation('admin');
  const { currencies } = useAdmin();
  const [asked, setAsked] = useState<Asked | null>(null);
  useEffect(() => void currencies.currencies.load(), [currencies]);
  return (
    <>
      <Loaded resource={currencies.currencies} empty={(d) => d.length === 0}>
        {(rows) => (
          <div className="adm-scroll">
            <table className="adm-table adm-markets">
              <thead>
                <tr>
                  <th>{t('currencies.code')}</th>
                  <th>{t('currencies.deposits')}</th>
                  <th>{t('currencies.withdrawals')}</th>
                  {CURRENCY_FIELDS.map((field) => (
                    <th key={field} className={field === 'micro_numbers' ? '' : 'num'}>{t(`currencies.${field}`)}</th>
                  ))}
                  <th />
                </tr>
              </thead>
              <tbody>
                {rows.map((currency) => <Row key={currency.id} currency={currency} ask={setAsked} />)}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      {asked && (
        <ConfirmDialog
          message={t('currencies.confirm', { action: asked.label, code: asked.currency.code })}
          withText={t('common.reason')}
          required
          onCancel={() => setAsked(null)}
          onConfirm={(reason) => {
            setAsked(null);
            void currencies.toggle(asked.currency.id, asked.which, asked.value, reason);
          }}
        />
      )}
    </>
  );
});
