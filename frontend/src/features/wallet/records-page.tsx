/**
 * /assets/dealRecords?types=<account code>: the records of one account, all currencies or one, 15
 * a page. /personal/transactionLog and /coinlog show the same list.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

import { WalletLayout } from './components/wallet-layout';
import { CurrencyPicker } from './components/currency-picker';
import { ACCOUNT_RECORDS } from './components/record-columns';
import { RecordsTable } from './components/records-table';
import { recordsKindOf } from './lib/rules';
import { RecordsStore } from './stores/records-store';
import { ACCOUNT_CODES, type AccountCode, isAccountCode } from './types';
import { useAccounts } from './stores/use-accounts';

/** `types` may be an account code (`change_account`) or its short form (`change`). */
export function accountCodeOf(types: string | null): AccountCode {
  const code = types && !types.endsWith('_account') ? `${types}_account` : types;
  return isAccountCode(code) ? code : 'change_account';
}

export default observer(function RecordsPage() {
  const { t } = useTranslation('wallet');
  const [params, setParams] = useSearchParams();
  const code = accountCodeOf(params.get('types'));
  const { api, accounts } = useAccounts();
  const [store] = useState(() => new RecordsStore(api, { kind: 'records', of: recordsKindOf(code) }));

  useEffect(() => {
    store.setSource({ kind: 'records', of: recordsKindOf(code) });
  }, [store, code]);

  const currencies = (accounts.group(code)?.accounts ?? []).map((a) => ({ id: a.currency_id, code: a.currency_code }));

  return (
    <WalletLayout>
      <section className="panel" data-testid="records-page">
        <div className="panel-head">
          <h2>{t('records.title')}</h2>
        </div>
        <div className="filters">
          <label className="field inline-field">
            <span>{t('records.account')}</span>
            <select className="input" value={code} data-testid="records-account"
              onChange={(e) => setParams({ types: e.target.value }, { replace: true })}>
              {ACCOUNT_CODES.map((c) => (
                <option key={c} value={c}>
                  {t(`accounts.${c}`)}
                </option>
              ))}
            </select>
          </label>
          <CurrencyPicker testId="records-currency" value={store.currencyId} options={currencies}
            allLabel={t('records.all')} onChange={(id) => store.setCurrency(id)} />
        </div>
        <RecordsTable store={store} spec={ACCOUNT_RECORDS} />
      </section>
    </WalletLayout>
  );
});
