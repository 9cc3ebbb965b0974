import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useAdmin } from '../stores/admin-store';
import { Amounts, Loaded } from './shared';

/** Finance's conservation audit: one row per currency, green when it balances, red with the difference. */
export const ConservationPage = observer(function ConservationPage() {
  const { t } = useTranslation('admin');
  const { conservation } = useAdmin();
  useEffect(() => void conservation.load(), [conservation]);
  return (
    <>
      <button type="button" onClick={() => conservation.load()}>
        {t('common.refresh')}
      </button>
      <Loaded resource={conservation}>
        {(lines) => (
          <table className="adm-table">
            <thead>
              <tr>
                <th>{t('conservation.currency')}</th>
                <th>{t('conservation.accounts')}</th>
                <th className="num">{t('conservation.fees')}</th>
                <th>{t('conservation.house')}</th>
                <th className="num">{t('conservation.total')}</th>
                <th className="num">{t('conservation.deposits')}</th>
                <th className="num">{t('conservation.withdrawals')}</th>
                <th className="num">{t('conservation.conversions')}</th>
                <th className="num">{t('conservation.expected')}</th>
                <th className="num">{t('conservation.difference')}</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={l.currency_id} className={l.ok ? 'adm-row-ok' : 'adm-row-bad'} data-testid={`conservation-${l.currency}`}>
                  <td>{l.currency}</td>
                  <td><Amounts values={l.accounts} /></td>
                  <td className="num">{l.fees}</td>
                  <td><Amounts values={l.house} /></td>
                  <td className="num">{l.total}</td>
                  <td className="num">{l.deposits}</td>
                  <td className="num">{l.withdrawals}</td>
                  <td className="num">{l.conversions}</td>
                  <td className="num">{l.expected}</td>
                  <td className="num">{l.ok ? t('conservation.ok') : l.difference}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </>
  );
});
