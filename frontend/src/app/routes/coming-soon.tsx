import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router-dom';

import { paths } from '@/config/paths';

import { isRouteHandle } from './route-handle';

/** The page of a route whose screen belongs to later work: named, translated, never blank. */
export default function ComingSoonPage() {
  const { t } = useTranslation();
  const handle = useMatches()
    .map((m) => m.handle)
    .reverse()
    .find(isRouteHandle);
  const title = handle ? t(handle.title) : t('comingSoon.title');
  return (
    <section className="state-page" data-testid="coming-soon">
      <div className="state-page-icon" aria-hidden="true">
        ◔
      </div>
      <p className="state-page-kicker">{t('comingSoon.title')}</p>
      <h1>{title}</h1>
      <p className="muted">{t('comingSoon.description')}</p>
      <div className="state-page-actions">
        <Link className="button" to={paths.trade}>
          {t('comingSoon.goTrade')}
        </Link>
        <Link className="button ghost" to={paths.home}>
          {t('comingSoon.backHome')}
        </Link>
      </div>
    </section>
  );
}
