/** /assets/transferLog?currency_id&currency_code: the user's transfers between accounts, 15 a page. */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';

import { paths } from '@/config/paths';

import { createWalletApi } from './api/wallet-api';
import { WalletLayout } from './components/wallet-layout';
import { ACCOUNT_RECORDS } from './components/record-columns';
import { RecordsTable } from './components/records-table';
import { RecordsStore } from './stores/records-store';

export default observer(function TransferLogPage() {
  const { t } = useTranslation('wallet');
  const [params] = useSearchParams();
  const currencyId = Number(params.get('currency_id')) || null;
  const currencyCode = params.get('currency_code') ?? '';
  const [store] = useState(() => new RecordsStore(createWalletApi(), { kind: 'transferLog' }));

  useEffect(() => {
    store.setCurrency(currencyId);
  }, [store, currencyId]);

  return (
    <WalletLayout>
      <section className="panel" data-testid="transfer-log-page">
        <div className="panel-head">
          <h2>
            {t('transfer.records')} {currencyId ? currencyCode : ''}
          </h2>
          <Link className="link-accent" to={paths.assets.transfer}>
            {t('menu.transfer')}
          </Link>
        </div>
        <RecordsTable store={store} spec={ACCOUNT_RECORDS} />
      </section>
    </WalletLayout>
  );
});
