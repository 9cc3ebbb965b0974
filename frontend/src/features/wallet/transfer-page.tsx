/** /assets/transfer: currency, from account, to account, amount, confirm, link to the transfer records. */
import { observer } from 'mobx-react-lite';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { paths } from '@/config/paths';
import { formatPrice } from '@/lib/format';

import { WalletLayout, LoadFailed } from './components/wallet-layout';
import { CurrencyPicker } from './components/currency-picker';
import { TransferStore } from './stores/transfer-store';
import { useAccounts } from './stores/use-accounts';

export default observer(function TransferPage() {
  const { t } = useTranslation('wallet');
  const { api, accounts } = useAccounts();
  const [params] = useSearchParams();
  const [store] = useState(() => new TransferStore(api, accounts));
  const ready = accounts.status === 'ready';

  useEffect(() => () => store.dispose(), [store]);
  useEffect(() => {
    if (!ready || store.currencyId !== null) return;
    store.setCurrency(Number(params.get('currency_id')) || null);
    const from = params.get('from');
    if (from && store.accountCodes.includes(from)) store.setFrom(from);
    const to = params.get('to');
    if (to && store.accountCodes.includes(to)) store.setTo(to);
  }, [ready, store, params]);

  const code = store.currencies.find((c) => c.id === store.currencyId)?.code ?? '';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await store.submit();
  };
  const accountSelect = (value: string, onChange: (v: string) => void, testId: string, label: string) => (
    <label className="field">
      <span>{label}</span>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {store.accountCodes.map((c) => (
          <option key={c} value={c}>
            {t(`accounts.${c}` as 'accounts.change_account')}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <WalletLayout>
      <section className="panel" data-testid="transfer-page">
        <div className="panel-head">
          <h2>{t('menu.transfer')}</h2>
          <Link className="link-accent" data-testid="transfer-log-link"
            to={`${paths.assets.transferLog}?currency_id=${store.currencyId ?? ''}&currency_code=${code}`}>
            {t('transfer.records')}
          </Link>
        </div>
        {accounts.status === 'error' && <LoadFailed onRetry={() => void accounts.load()} />}
        {ready && !store.currencies.length && <p className="empty">{t('transfer.none')}</p>}
        {store.currencyId !== null && (
          <form className="transfer-form" onSubmit={(e) => void submit(e)} noValidate data-testid="transfer-form">
            <CurrencyPicker testId="transfer-currency" value={store.currencyId} options={store.currencies}
              onChange={(id) => store.setCurrency(id)} />
            <div className="transfer-accounts">
              {accountSelect(store.from, (v) => store.setFrom(v), 'transfer-from', t('transfer.from'))}
              <button type="button" className="button small ghost swap" onClick={() => store.swap()}
                aria-label={t('transfer.swap')} data-testid="transfer-swap">
                ⇄
              </button>
              {accountSelect(store.to, (v) => store.setTo(v), 'transfer-to', t('transfer.to'))}
            </div>
            <label className="field">
              <span>
                {t('transfer.amount')}{' '}
                <span className="muted" data-testid="transfer-available">
                  {t('withdraw.available', { amount: formatPrice(store.available), code })}
                </span>
              </span>
              <div className="input-group">
                <input className="input" inputMode="decimal" value={store.amount} placeholder={t('transfer.p_transfernum')}
                  onChange={(e) => store.setAmount(e.target.value)} data-testid="transfer-amount" />
                <button type="button" className="button small ghost" onClick={() => store.setAll()}>
                  {t('transfer.all')}
                </button>
              </div>
            </label>
            <FormError message={store.problem ? t(`transfer.problems.${store.problem}`) : null} />
            <button type="submit" className="button" disabled={store.busy} data-testid="transfer-submit">
              {t('transfer.submit')}
            </button>
          </form>
        )}
      </section>
    </WalletLayout>
  );
});
