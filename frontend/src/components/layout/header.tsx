import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';

import { ChevronIcon, GlobeIcon, HeadsetIcon, MoonIcon, SunIcon, UserIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { isLang, LANGUAGES } from '@/i18n/languages';
import { LOGGED_OUT_PATH } from '@/lib/navigation';
import { useStores } from '@/stores/root-store';

/** Top menu by route name (spec §2; the P2P market of issue 14 added); "market" exists but is hidden. */
const NAV_ITEMS = [
  { to: paths.trade, label: 'nav.trade' },
  { to: paths.lever, label: 'nav.lever' },
  { to: paths.second, label: 'nav.second' },
  { to: paths.mining, label: 'nav.mining' },
  { to: paths.legalIndex.root, label: 'nav.legal' },
  { to: paths.assets.root, label: 'nav.assets' },
] as const;

export const Header = observer(function Header() {
  const { t } = useTranslation();
  const { session, content } = useStores();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const leftAccount = session.signingOut && !session.isLoggedIn;

  // After logout: to /login?type=1 (the header stays mounted; the account menu does not).
  useEffect(() => {
    if (!leftAccount) return;
    if (pathname === paths.login) session.finishSignOut();
    else void navigate(LOGGED_OUT_PATH, { replace: true });
  }, [leftAccount, pathname, navigate, session]);

  return (
    <header className="app-header">
      <Link to={paths.home} className="brand" aria-label={t('app.name')}>
        <span className="brand-mark" aria-hidden="true" />
        <span>{t('app.name')}</span>
      </Link>
      <nav className="app-nav" aria-label={t('nav.main')}>
        {NAV_ITEMS.map((item) => (
          <NavLink key={item.to} to={item.to}>
            {t(item.label)}
          </NavLink>
        ))}
      </nav>
      <div className="app-actions">
        {content.kefu && (
          <a className="header-link" href={content.kefu} target="_blank" rel="noopener noreferrer"
            data-testid="kefu-link">
            <HeadsetIcon />
            <span>{t('header.support')}</span>
          </a>
        )}
        {session.isLoggedIn ? (
          <AccountMenu />
        ) : (
          <>
            <Link to={paths.login} className="header-link" data-testid="login-link">
              {t('auth.login')}
            </Link>
            <Link to={paths.register} className="button small" data-testid="register-link">
              {t('auth.register')}
            </Link>
          </>
        )}
        <LanguageSelect />
        <ThemeSwitch />
      </div>
    </header>
  );
});

const AccountMenu = observer(function AccountMenu() {
  const { t } = useTranslation();
  const { session } = useStores();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const logout = async () => {
    setOpen(false);
    setLeaving(true);
    await session.logout();
  };

  return (
    <div className="account-menu" ref={root}>
      <button type="button" className="header-link account-trigger" aria-haspopup="menu" aria-expanded={open}
        data-testid="account-menu" onClick={() => setOpen((v) => !v)}>
        <UserIcon />
        <span className="account-label">{session.label || t('account.title')}</span>
        <ChevronIcon />
      </button>
      {open && (
        <div className="dropdown" role="menu">
          <Link role="menuitem" to={paths.personal.accountSettings} onClick={() => setOpen(false)}>
            {t('account.settings')}
          </Link>
          <Link role="menuitem" to={paths.personal.authentication} onClick={() => setOpen(false)}>
            {t('account.authentication')}
          </Link>
          <Link role="menuitem" to={paths.personal.feedback} onClick={() => setOpen(false)}>
            {t('account.feedback')}
          </Link>
          <button type="button" role="menuitem" disabled={leaving} onClick={() => void logout()}
            data-testid="logout">
            {t('account.logout')}
          </button>
        </div>
      )}
    </div>
  );
});

const LanguageSelect = observer(function LanguageSelect() {
  const { t } = useTranslation();
  const { ui } = useStores();
  return (
    <label className="lang-select">
      <GlobeIcon />
      <select aria-label={t('settings.language')} value={ui.lang} data-testid="language-select"
        onChange={(e) => {
          if (isLang(e.target.value)) ui.setLang(e.target.value);
        }}>
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
});

const ThemeSwitch = observer(function ThemeSwitch() {
  const { t } = useTranslation();
  const { ui } = useStores();
  const dark = ui.theme === 'dark';
  return (
    <button type="button" className="icon-button" data-testid="theme-switch"
      aria-label={dark ? t('settings.toLight') : t('settings.toDark')}
      title={dark ? t('settings.toLight') : t('settings.toDark')}
      onClick={() => ui.toggleTheme()}>
      {dark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
});
