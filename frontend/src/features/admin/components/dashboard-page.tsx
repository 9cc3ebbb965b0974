import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { useAdmin } from '../stores/admin-store';
import { screenOf } from '../stores/menu';
import { Amounts, Loaded } from './shared';

export const DashboardPage = observer(function DashboardPage() {
  const { t } = useTranslation('admin');
  const { dashboard, session } = useAdmin();
  useEffect(() => void dashboard.load(), [dashboard]);

  const queue = (key: 'realNames' | 'withdrawals' | 'appeals', count: number) => (
    <li key={key}>
      {session.may(key) ? <Link to={screenOf(key).path}>{t(`menu.${key}`)}</Link> : t(`menu.${key}`)}
      <b data-testid={`queue-${key}`}>{count}</b>
    </li>
  );

  return (
    <Loaded resource={dashboard}>
      {(d) => (
        <div className="adm-grid">
          <div className="adm-card adm-stat">
            <span>{t('dashboard.users')}</span>
            <b data-testid="dash-users">{d.users}</b>
          </div>
          <div className="adm-card">
            <h2>{t('dashboard.queues')}</h2>
            <ul className="adm-queues">
              {queue('realNames', d.queues.real_names)}
              {queue('withdrawals', d.queues.withdrawals)}
              {queue('appeals', d.queues.p2p_appeals)}
              <li>
                {t('dashboard.merchants')}
                <b>{d.queues.merchants}</b>
              </li>
            </ul>
          </div>
          <div className="adm-card">
            <h2>{t('dashboard.insurance')}</h2>
            <Amounts values={d.insurance_fund} />
          </div>
          <div className="adm-card">
            <h2>{t('dashboard.openInterest')}</h2>
            <Amounts values={d.open_interest} />
          </div>
          <div className="adm-card adm-wide">
            <h2>{t('dashboard.house')}</h2>
            <table className="adm-table">
              <thead>
                <tr>
                  <th>{t('dashboard.product')}</th>
                  <th>{t('dashboard.amount')}</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(d.house).map(([product, amounts]) => (
                  <tr key={product}>
                    <td>{product}</td>
                    <td>
                      <Amounts values={amounts} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="adm-card adm-wide">
            <h2>{t('dashboard.pairs')}</h2>
            <table className="adm-table">
              <thead>
                <tr>
                  <th>{t('dashboard.pair')}</th>
                  <th className="num">{t('dashboard.volume')}</th>
                  <th className="num">{t('dashboard.close')}</th>
                </tr>
              </thead>
              <tbody>
                {d.pairs.map((p) => (
                  <tr key={p.pair}>
                    <td>{p.pair}</td>
                    <td className="num">{p.volume_24h}</td>
                    <td className="num">{p.close}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </Loaded>
  );
});
