/** /assets/withdral: pick a currency open for withdrawal in the trade account, then its withdraw panel. */
import { observer } from 'mobx-react-lite';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatPrice } from '@/lib/format';
import { useChannel } from '@/lib/socket';

import { WalletLayout, LoadFailed } from './components/wallet-layout';
import { CurrencyPicker } from './components/currency-picker';
import { WITHDRAWALS } from './components/record-columns';
import { RecordsTable } from './components/records-table';
import { WithdrawPanel } from './components/withdraw-panel';
import { canWithdraw } from './lib/rules';
import { RecordsStore } from './stores/records-store';
import type { Withdrawal } from './types';
import { useAccounts } from './stores/use-accounts';

export default observer(function WithdrawPage() {
  const { t } = useTranslation('wallet');
  const { api, accounts } = useAccounts();
  const [params, setParams] = useSearchParams();
  const group = accounts.group('change_account');
  const options = (group?.accounts ?? []).filter((a) => group && canWithdraw(group, a));
  const wanted = Number(params.get('currency_id'));
  const current = options.find((a) => a.currency_id === wanted) ?? options[0];
  const [requests] = useState(() => new RecordsStore<Withdrawal>(api, { kind: 'withdrawals' }));
  const currencyId = current?.currency_id ?? null;
  useEffect(() => {
    if (currencyId !== null) requests.setCurrency(currencyId);
  }, [requests, currencyId]);
  // A WITHDRAWAL push (a withdrawal final on its chain, or failed and refunded) reads the table and the balances again.
  const reread = useCallback(() => {
    void requests.load();
    void accounts.load();
  }, [requests, accounts]);
  useChannel('WITHDRAWAL', reread);

  return (
    <WalletLayout>
      <section className="panel" data-testid="withdraw-page">
        <div className="panel-head">
          <h2>{t('menu.withdraw')}</h2>
          <Link className="link-accent" to={`${paths.assets.dealRecords}?types=change_account`}>
            {t('accounts.records')}
          </Link>
        </div>
        {accounts.status === 'error' && <LoadFailed onRetry={() => void accounts.load()} />}
        {accounts.status === 'ready' && !current && <p className="empty">{t('withdraw.noCurrency')}</p>}
        {current && (
          <>
            <CurrencyPicker testId="withdraw-currency" value={current.currency_id}
              options={options.map((a) => ({ id: a.currency_id, code: a.currency_code }))}
              onChange={(id) => setParams({ currency_id: String(id) }, { replace: true })} />
            <p className="muted" data-testid="withdraw-locked">
              {t('withdraw.locked', { amount: formatPrice(current.lock_balance), code: current.currency_code })}
            </p>
            <WithdrawPanel key={`${current.currency_id}:${current.balance}`} api={api} account={current}
              onDone={() => {
                void accounts.load();
                void requests.load();
              }} />
          </>
        )}
      </section>
      <section className="panel" data-testid="withdrawals">
        <div className="panel-head">
          <h2>{t('withdrawals.title')}</h2>
        </div>
        <RecordsTable store={requests} spec={WITHDRAWALS} />
      </section>
    </WalletLayout>
  );
});
