/** /assets/chongzhi: pick a currency open for deposit in the trade account, then its deposit panel. */
import { observer } from 'mobx-react-lite';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

import { useChannel } from '@/lib/socket';

import { WalletLayout, LoadFailed } from './components/wallet-layout';
import { CurrencyPicker } from './components/currency-picker';
import { DepositPanel } from './components/deposit-panel';
import { DEPOSITS } from './components/record-columns';
import { RecordsTable } from './components/records-table';
import { canDeposit } from './lib/rules';
import { RecordsStore } from './stores/records-store';
import type { ChainDeposit } from './types';
import { useAccounts } from './stores/use-accounts';

export default observer(function DepositPage() {
  const { t } = useTranslation('wallet');
  const { api, accounts } = useAccounts();
  const [params, setParams] = useSearchParams();
  const group = accounts.group('change_account');
  const options = (group?.accounts ?? []).filter((a) => group && canDeposit(group, a));
  const wanted = Number(params.get('currency_id'));
  const current = options.find((a) => a.currency_id === wanted) ?? options[0];
  const [deposits] = useState(() => new RecordsStore<ChainDeposit>(api, { kind: 'deposits' }));
  const currencyId = current?.currency_id ?? null;
  useEffect(() => {
    if (currencyId !== null) deposits.setCurrency(currencyId);
  }, [deposits, currencyId]);
  // A DEPOSIT push (a deposit confirming, credited or dropped) reads the table and the balances again.
  const reread = useCallback(() => {
    void deposits.load();
    void accounts.load();
  }, [deposits, accounts]);
  useChannel('DEPOSIT', reread);

  return (
    <WalletLayout>
      <section className="panel" data-testid="deposit-page">
        <div className="panel-head">
          <h2>{t('menu.deposit')}</h2>
        </div>
        {accounts.status === 'error' && <LoadFailed onRetry={() => void accounts.load()} />}
        {accounts.status === 'ready' && !current && <p className="empty">{t('deposit.noCurrency')}</p>}
        {current && (
          <>
            <CurrencyPicker testId="deposit-currency" value={current.currency_id}
              options={options.map((a) => ({ id: a.currency_id, code: a.currency_code }))}
              onChange={(id) => setParams({ currency_id: String(id) }, { replace: true })} />
            <DepositPanel key={current.currency_id} api={api} currencyId={current.currency_id} code={current.currency_code} />
          </>
        )}
      </section>
      <section className="panel" data-testid="deposits">
        <div className="panel-head">
          <h2>{t('deposits.title')}</h2>
        </div>
        <RecordsTable store={deposits} spec={DEPOSITS} />
      </section>
    </WalletLayout>
  );
});
