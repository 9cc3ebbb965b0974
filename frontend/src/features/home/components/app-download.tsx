import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { AndroidIcon, AppleIcon, DesktopIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { useStores } from '@/stores/root-store';

function StoreLink({ href, icon, note, name }: { href: string; icon: ReactNode; note: string; name: string }) {
  return (
    <a className="store-link" href={href} target="_blank" rel="noopener noreferrer">
      {icon}
      <span>
        <small className="muted">{note}</small>
        <strong>{name}</strong>
      </span>
    </a>
  );
}

/** Where the mobile apps are published (each store's link a console setting, hidden when empty), and the web app. */
export const AppDownload = observer(function AppDownload() {
  const { t } = useTranslation();
  const { content } = useStores();
  const links = content.appLinks;
  return (
    <section className="download panel">
      <div className="download-copy">
        <h2>{t('home.download.title')}</h2>
        <p className="muted">{t('home.download.text')}</p>
      </div>
      <div className="download-links">
        {links.ios && (
          <StoreLink href={links.ios} icon={<AppleIcon width={22} height={22} />} note={t('home.download.ios')} name="App Store" />
        )}
        {links.android && (
          <StoreLink href={links.android} icon={<AndroidIcon width={22} height={22} />} note={t('home.download.android')}
            name="Google Play" />
        )}
        <Link className="store-link" to={paths.trade}>
          <DesktopIcon width={22} height={22} />
          <span>
            <small className="muted">{t('home.download.web')}</small>
            <strong>{t('home.download.webName')}</strong>
          </span>
        </Link>
      </div>
    </section>
  );
});
