import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router-dom';

import { paths } from '@/config/paths';
import { isLang, LANGUAGES } from '@/i18n/languages';
import { useStores } from '@/stores/root-store';

const NAV_ITEMS = [
  { to: paths.trade, label: 'nav.trade' },
  { to: paths.lever, label: 'nav.lever' },
  { to: paths.second, label: 'nav.second' },
  { to: paths.mining, label: 'nav.mining' },
  { to: paths.assets, label: 'nav.assets' },
] as const;

export const AppLayout = observer(function AppLayout() {
  const { t } = useTranslation();
  const { ui } = useStores();

  return (
    <div className="app">
      <header className="app-header">
        <Link to={paths.home} className="brand">
          {t('app.name')}
        </Link>
        <nav className="app-nav">
          {NAV_ITEMS.map((item) => (
            <NavLink key={item.to} to={item.to}>
              {t(item.label)}
            </NavLink>
          ))}
        </nav>
        <div className="app-actions">
          <select
            aria-label={t('settings.language')}
            value={ui.lang}
            onChange={(e) => {
              if (isLang(e.target.value)) ui.setLang(e.target.value);
            }}
          >
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button ghost"
            aria-label={t('settings.theme')}
            onClick={() => ui.toggleTheme()}
          >
            {ui.theme === 'dark' ? t('settings.light') : t('settings.dark')}
          </button>
          <Link to={paths.login} className="button ghost">
            {t('auth.login')}
          </Link>
          <Link to={paths.register} className="button">
            {t('auth.register')}
          </Link>
        </div>
      </header>
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
});
