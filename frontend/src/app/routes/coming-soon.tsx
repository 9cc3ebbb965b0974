import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';

export function ComingSoonRoute() {
  const { t } = useTranslation();
  return (
    <section className="coming-soon">
      <h1>{t('comingSoon.title')}</h1>
      <p className="muted">{t('comingSoon.description')}</p>
      <Link className="button" to={paths.home}>
        {t('comingSoon.backHome')}
      </Link>
    </section>
  );
}
