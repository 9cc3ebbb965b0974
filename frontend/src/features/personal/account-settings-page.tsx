/**
 * /personal/accountSettings: security level bar, invite code (show_code 1), phone, e-mail, login
 * password, deal password and authorization code (show_auth 1), with copy buttons (spec "Personal centre").
 */
import { observer } from 'mobx-react-lite';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { CopyButton } from '@/components/ui/copy-button';
import { paths } from '@/config/paths';
import { useStores } from '@/stores/root-store';

import { LoadFailed, PersonalLayout } from './components/personal-layout';
import { AccountSettingsStore } from './stores/security-stores';
import { usePersonalStore } from './stores/use-personal-store';

export default observer(function AccountSettingsPage() {
  const { t } = useTranslation('personal');
  const { session } = useStores();
  const store = usePersonalStore((api) => new AccountSettingsStore(api));

  useEffect(() => {
    void store.load().then((user) => user && session.setUser(user));
  }, [store, session]);

  const user = store.user;
  const row = (label: string, value: ReactNode, action: ReactNode, testId: string) => (
    <li className="security-row" data-testid={testId}>
      <span className="security-label">{label}</span>
      <span className="security-value">{value}</span>
      <span className="security-action">{action}</span>
    </li>
  );

  return (
    <PersonalLayout>
      <section className="panel" data-testid="account-settings">
        <div className="panel-head">
          <h2>{t('menu.account')}</h2>
        </div>
        {store.failed && !user && <LoadFailed onRetry={() => void store.load()} />}
        <div className="security-bar" data-testid="security-level" data-level={store.level}>
          <span>{t('security.level')}</span>
          <div className="bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={store.level}>
            <div className={`bar-fill ${store.rank}`} style={{ width: `${store.level}%` }} />
          </div>
          <strong>{t(`security.${store.rank}`)}</strong>
        </div>
        {user && (
          <ul className="security-list">
            {Number(user.show_code) === 1 &&
              row(t('security.inviteCode'), <code data-testid="invite-code">{user.invite_code}</code>,
                <CopyButton text={user.invite_code ?? ''} testId="copy-invite" />, 'row-invite')}
            {row(t('security.phone'), user.mobile || t('security.notBound'),
              user.mobile ? <span className="muted">{t('security.bound')}</span> : <Link className="link-accent" to={paths.bindPhone}>{t('security.bind')}</Link>,
              'row-phone')}
            {row(t('security.email'), user.email || t('security.notBound'),
              user.email ? <span className="muted">{t('security.bound')}</span> : <Link className="link-accent" to={paths.bindAccount}>{t('security.bind')}</Link>,
              'row-email')}
            {row(t('security.loginPassword'), '••••••',
              <Link className="link-accent" to={`${paths.resetPassword}?fromSet=1`}>{t('security.change')}</Link>, 'row-password')}
            {row(t('security.payPassword'), Number(user.is_set) === 1 ? t('security.set') : t('security.notSet'),
              <Link className="link-accent" to={paths.tradePassword}>
                {Number(user.is_set) === 1 ? t('security.change') : t('security.setUp')}
              </Link>, 'row-pay-password')}
            {Number(user.show_auth) === 1 &&
              row(t('security.authorizationCode'), <code data-testid="authorization-code">{store.authorizationCode || '--'}</code>,
                <CopyButton text={store.authorizationCode} testId="copy-authorization" />, 'row-authorization')}
          </ul>
        )}
      </section>
    </PersonalLayout>
  );
});
