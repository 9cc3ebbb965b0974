import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet, useNavigate } from 'react-router-dom';

import { useStores } from '@/stores/root-store';

import { useAdmin } from '../stores/admin-store';
import type { ScreenKey } from '../stores/menu';

/** The console's shell: its own side menu (only what the operator's roles open), no user header. */
export const AdminLayout = observer(function AdminLayout() {
  const { t } = useTranslation('admin');
  const { session } = useAdmin();
  const { ui } = useStores();
  const navigate = useNavigate();

  if (session.state === 'unknown') return <p className="adm-muted adm-pad">{t('common.loading')}</p>;
  if (session.state === 'anonymous') return <Navigate to="/admin/login" replace />;
  if (session.state === 'must_change_password') return <Navigate to="/admin/password" replace />;

  const logout = async () => {
    await session.logout();
    navigate('/admin/login', { replace: true });
  };

  return (
    <div className="adm-shell">
      <aside className="adm-side">
        <div className="adm-brand">{t('title')}</div>
        <nav aria-label={t('title')}>
          {session.menu.map((screen) => (
            <NavLink key={screen.key} to={screen.path} end={screen.path === '/admin'} data-menu={screen.key}>
              {t(`menu.${screen.key}`)}
            </NavLink>
          ))}
        </nav>
        <div className="adm-side-foot">
          <div className="adm-who" title={session.roles.join(', ')}>
            {session.operator?.email}
            <small>{session.roles.join(' · ')}</small>
          </div>
          <div className="adm-toggles">
            <button type="button" onClick={() => ui.setLang(ui.lang === 'hk' ? 'en' : 'hk')} data-testid="admin-lang">
              {ui.lang === 'hk' ? 'English' : '繁體中文'}
            </button>
            <button type="button" onClick={() => ui.toggleTheme()} data-testid="admin-theme">
              {t('common.theme')}: {ui.theme === 'dark' ? t('common.dark') : t('common.light')}
            </button>
          </div>
          <button type="button" className="adm-logout" onClick={logout}>
            {t('common.logout')}
          </button>
        </div>
      </aside>
      <main className="adm-main">
        <Outlet />
      </main>
    </div>
  );
});

/** A screen the operator's roles may open, or the role message (the server refuses it anyway). */
export const RoleGate = observer(function RoleGate({ screen, children }: { screen: ScreenKey; children: ReactNode }) {
  const { t } = useTranslation('admin');
  const { session } = useAdmin();
  if (!session.may(screen)) {
    return (
      <p className="adm-error adm-role" role="alert">
        {t('common.roleRequired')}
      </p>
    );
  }
  return (
    <section className="adm-screen">
      <h1>{t(`menu.${screen}`)}</h1>
      {children}
    </section>
  );
});
