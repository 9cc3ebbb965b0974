import { observer } from 'mobx-react-lite';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';

import { useAdmin } from '../stores/admin-store';

/** E-mail, password and the authenticator's code; a one-time password leads to the password screen. */
export const LoginPage = observer(function LoginPage() {
  const { t } = useTranslation('admin');
  const { session } = useAdmin();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');

  if (session.state === 'ready') return <Navigate to="/admin" replace />;
  if (session.state === 'must_change_password') return <Navigate to="/admin/password" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const state = await session.login(email, password, otp);
    if (state === 'must_change_password') navigate('/admin/password', { replace: true, state: { password } });
    else if (state === 'ready') navigate('/admin', { replace: true });
  };

  return (
    <div className="adm-center">
      <form className="adm-card adm-form" onSubmit={submit}>
        <h1>{t('login.title')}</h1>
        <label className="adm-field">
          <span>{t('login.email')}</span>
          <input name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </label>
        <label className="adm-field">
          <span>{t('login.password')}</span>
          <input name="password" type="password" autoComplete="current-password" value={password}
            onChange={(e) => setPassword(e.target.value)} required />
        </label>
        <label className="adm-field">
          <span>{t('login.otp')}</span>
          <input name="otp" inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6}
            placeholder={t('login.otpHint')} value={otp} onChange={(e) => setOtp(e.target.value.replace(/\D/g, ''))} required />
        </label>
        {session.error && <p className="adm-error" role="alert">{session.error}</p>}
        <button type="submit" className="adm-primary" disabled={session.busy}>
          {t('login.submit')}
        </button>
      </form>
    </div>
  );
});
