import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import type { AdminCurrency } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { CURRENCY_FIELDS, type CurrencySwitch } from '../stores/currencies-store';
import { type Ask, EditRow, RowOutcome, SettingsRow, SettingsTable } from './settings-table';

const COLUMNS = CURRENCY_FIELDS.length + 4; // code, deposits, withdrawals, the editable fields, actions

const EditForm = observer(function EditForm({ currency }: { currency: AdminCurrency }) {
  const { t } = useTranslation('admin');
  const { currencies } = useAdmin();
  const draft = currencies.draft!;
  return (
    <EditRow columns={COLUMNS} testId={`currencies-form-${currency.id}`} title={t('currencies.editTitle', { code: currency.code })}
      note={t('currencies.note')} error={currencies.errors.get(currency.id)} unchanged={Object.keys(currencies.changes).length === 0}
      sending={currencies.stateOf(currency.id) === 'sending'} onCancel={currencies.close} onSave={(reason) => void currencies.save(reason)}>
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
    </EditRow>
  );
});

function Switch({ on }: { on: boolean }) {
  const { t } = useTranslation('admin');
  return <span className={on ? 'adm-badge' : 'adm-badge adm-bad'}>{on ? t('currencies.open') : t('currencies.closed')}</span>;
}

const Row = observer(function Row({ currency, ask }: { currency: AdminCurrency; ask: (question: Ask) => void }) {
  const { t } = useTranslation('admin');
  const { currencies } = useAdmin();
  const id = currency.id;
  const state = currencies.stateOf(id);
  const busy = state === 'sending';
  const editing = currencies.editingId === id;
  const deposits = currency.open_recharge ? t('currencies.closeDeposits') : t('currencies.openDeposits');
  const withdrawals = currency.open_draw ? t('currencies.closeWithdrawals') : t('currencies.openWithdrawals');
  const askSwitch = (which: CurrencySwitch, value: boolean, label: string) =>
    ask({
      message: t('currencies.confirm', { action: label, code: currency.code }),
      confirm: (reason) => void currencies.toggle(id, which, value, reason),
    });
  return (
    <SettingsRow testId={`currencies-row-${id}`} editing={editing}
      cells={
        <>
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
        </>
      }
      actions={
        <>
          <button type="button" className={currency.open_recharge ? 'adm-danger' : 'adm-primary'} disabled={busy}
            data-testid={`currencies-toggle-deposits-${id}`}
            onClick={() => askSwitch('open_recharge', !currency.open_recharge, deposits)}>
            {deposits}
          </button>
          <button type="button" className={currency.open_draw ? 'adm-danger' : 'adm-primary'} disabled={busy}
            data-testid={`currencies-toggle-withdrawals-${id}`}
            onClick={() => askSwitch('open_draw', !currency.open_draw, withdrawals)}>
            {withdrawals}
          </button>
          <button type="button" disabled={busy || editing} data-testid={`currencies-edit-${id}`}
            onClick={() => currencies.edit(currency)}>
            {t('currencies.edit')}
          </button>
        </>
      }
      outcome={!(state === 'failed' && editing) && (
        <RowOutcome state={state} saved={t(state === 'saved' ? 'currencies.saved' : 'currencies.savedLater')}
          error={currencies.errors.get(id)} testId={(what) => `currencies-${what}-${id}`} />
      )}
      form={editing && currencies.draft && <EditForm currency={currency} />} />
  );
});

/**
 * The markets role's currencies: deposits and withdrawals switched on or off; the withdrawal fee and
 * bounds, the deposit minimum, confirmations and second-contract stakes edited, each with a reason.
 */
export const CurrenciesPage = observer(function CurrenciesPage() {
  const { t } = useTranslation('admin');
  const { currencies } = useAdmin();
  useEffect(() => void currencies.currencies.load(), [currencies]);
  return (
    <SettingsTable resource={currencies.currencies}
      head={
        <>
          <th>{t('currencies.code')}</th>
          <th>{t('currencies.deposits')}</th>
          <th>{t('currencies.withdrawals')}</th>
          {CURRENCY_FIELDS.map((field) => (
            <th key={field} className={field === 'micro_numbers' ? '' : 'num'}>{t(`currencies.${field}`)}</th>
          ))}
          <th />
        </>
      }
      row={(currency, ask) => <Row key={currency.id} currency={currency} ask={ask} />} />
  );
});
