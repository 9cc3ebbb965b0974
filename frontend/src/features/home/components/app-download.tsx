import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { AndroidIcon, AppleIcon, DesktopIcon } from '@/components/icons';
import { APP_DOWNLOAD_LINKS } from '@/config/app-links';
import { paths } from '@/config/paths';

/** Where the mobile apps are published, and the web app itself. */
export function AppDownload() {
  const { t } = useTranslation();
  return (
    <section className="download panel">
      <div className="download-copy">
        <h2>{t('home.download.title')}</h2>
        <p className="muted">{t('home.download.text')}</p>
      </div>
      <div className="download-links">
        <a className="store-link" href={APP_DOWNLOAD_LINKS.ios} target="_blank" rel="noopener noreferrer">
          <AppleIcon width={22} height={22} />
          <span>
            <small className="muted">{t('home.download.ios')}</small>
            <strong>App Store</strong>
          </span>
        </a>
        <a className="store-link" href={APP_DOWNLOAD_LINKS.android} target="_blank" rel="noopener noreferrer">
          <AndroidIcon width={22} height={22} />
          <span>
            <small className="muted">{t('home.download.android')}</small>
            <strong>Google Play</strong>
          </span>
        </a>
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
}
